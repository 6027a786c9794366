import { isInheritedKey, memberValue } from '../kinds/member.ts';
import type { Type, VariantType } from '../descriptors/index.ts';
import { variantExpected } from '../kinds/containers.ts';
import { checkRecord, missingDiscriminant, unknownDiscriminant } from './check-scalars.ts';

/**
 * `t.variant` for the closure writers of every format: `compile` makes each member's writer once,
 * and the function returned picks the one of a value by its own discriminant (the member's writer
 * then writes the whole value). A value that is no object, or whose discriminant is missing or
 * none of the variant's, fails.
 */
export function variantMember<W>(type: VariantType, compile: (member: Type) => W): (v: unknown) => W {
  const { key, values } = type;
  const writers = new Map<unknown, W>();
  for (const [value, member] of type.byValue) writers.set(value, compile(member));
  const inherited = isInheritedKey(key);
  const expected = variantExpected(key);
  return (v) => {
    const tag = memberValue(checkRecord(v, expected), key, inherited);
    const write = writers.get(tag);
    if (write === undefined) throw tag === undefined ? missingDiscriminant(key) : unknownDiscriminant(key, values, tag);
    return write;
  };
}
