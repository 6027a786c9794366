import type { AnyType } from './index.ts';
import type { Type } from './type.ts';

/** The descriptors directly inside `type`: members, elements, wrapped types. */
export function children(type: Type): readonly Type[] {
  const d = type as AnyType;
  switch (d.kind) {
    case 'array': return [d.element];
    case 'map': return [d.values];
    case 'tuple': return d.elements;
    case 'object': return Object.values(d.fields);
    case 'optional': case 'nullable': return [d.inner];
    default: return [];
  }
}

/** True when `type` or any descriptor inside it satisfies `test`. */
export function someDescriptor(type: Type, test: (t: Type) => boolean): boolean {
  return test(type) || children(type).some((c) => someDescriptor(c, test));
}
