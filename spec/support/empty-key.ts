import type { AnyType, Type } from '../../core/index.ts';

/**
 * Whether `type` or a descriptor inside it is an object with a member named "": ajv 8 does not
 * enforce `required: [""]`, so the schema agreement properties leave such descriptors out.
 */
export function hasEmptyKey(type: Type): boolean {
  const d = type as AnyType;
  switch (d.kind) {
    case 'object': return Object.hasOwn(d.fields, '') || Object.values(d.fields).some(hasEmptyKey);
    case 'array': return hasEmptyKey(d.element);
    case 'map': return hasEmptyKey(d.values);
    case 'tuple': return d.elements.some(hasEmptyKey);
    case 'optional': case 'nullable': return hasEmptyKey(d.inner);
    default: return false;
  }
}
