import type { AnyType, Type } from '../../core/index.ts';

/**
 * Whether `type` or a descriptor inside it is an object with a member named "": ajv 8 does not
 * enforce `required: [""]`, so the schema agreement properties leave such descriptors out.
 */
export function hasEmptyKey(type: Type, seen = new Set<Type>()): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  const d = type as AnyType;
  const inner = (x: Type) => hasEmptyKey(x, seen);
  switch (d.kind) {
    case 'object': return Object.hasOwn(d.fields, '') || Object.values(d.fields).some(inner);
    case 'variant': return d.members.some(inner);
    case 'lazy': return inner(d.target);
    case 'array': return inner(d.element);
    case 'map': return inner(d.values);
    case 'tuple': return d.elements.some(inner);
    case 'optional': case 'nullable': return inner(d.inner);
    default: return false;
  }
}
