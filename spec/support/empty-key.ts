import type { AnyType, ObjectType, Type } from '../../index.ts';
import { isRequiredKey } from '../../core/read/required.ts';
import type { MissingKeys } from '../../core/options.ts';

/**
 * Whether `type` or a descriptor inside it is an object with a member named "": ajv 8 does not
 * enforce `required: [""]`, so the schema agreement properties leave such descriptors out.
 */
export function hasEmptyKey(type: Type): boolean {
  return findsEmptyKey(type, () => true, new Set());
}

/**
 * Whether `type` or a descriptor inside it is an object whose member "" reading requires under
 * `errorOnMissingKeys` (also when the options do not, for a member whose default breaks its
 * constraints): the cases where ajv's answer and lacquer's differ.
 */
export function hasRequiredEmptyKey(type: Type, errorOnMissingKeys: MissingKeys): boolean {
  return findsEmptyKey(type, (object) => isRequiredKey(object, '', errorOnMissingKeys), new Set());
}

function findsEmptyKey(type: Type, counts: (object: ObjectType) => boolean, seen: Set<Type>): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  const d = type as AnyType;
  const inner = (x: Type) => findsEmptyKey(x, counts, seen);
  switch (d.kind) {
    case 'object':
      return (Object.hasOwn(d.fields, '') && counts(d)) || Object.values(d.fields).some(inner);
    case 'variant':
      return d.members.some(inner);
    case 'lazy':
      return inner(d.target);
    case 'array':
      return inner(d.element);
    case 'map':
      return inner(d.values);
    case 'tuple':
      return d.elements.some(inner);
    case 'optional':
    case 'nullable':
      return inner(d.inner);
    default:
      return false;
  }
}
