import { Failure, showValue } from '../errors/failure.ts';
import { discriminantValues, variantExpected } from '../kinds/containers.ts';
import { isInheritedKey, memberValue } from '../kinds/member.ts';
import type { VariantType } from '../descriptors/variant.ts';
import { missingKey } from './container-failures.ts';
import type { Reader } from './context.ts';
import { isRecord } from './records.ts';
import { mismatch } from './read-scalars.ts';

/**
 * Reads `t.variant(key, members)`: the value of member `key` picks the member object, which then
 * reads the whole value. The variant is no container of its own (the member object is), so a
 * failure here is at the value, or at its discriminant.
 */
export function variantReader(
  type: VariantType,
  compileMember: (member: VariantType['members'][number]) => Reader,
): Reader {
  const { key } = type;
  const inherited = isInheritedKey(key);
  const readers = new Map<unknown, Reader>();
  for (const [value, member] of type.byValue) readers.set(value, compileMember(member));
  const expected = variantExpected(key);
  const allowed = discriminantValues(type.values);
  return (v) => {
    if (!isRecord(v)) throw mismatch(expected, v);
    const tag = memberValue(v, key, inherited);
    const read = readers.get(tag);
    if (read !== undefined) return read(v);
    // Whatever errorOnMissingKeys says: without its discriminant no member can read the value.
    const failure =
      tag === undefined ? missingKey(key) : new Failure('type_mismatch', `expected ${allowed}, got ${showValue(tag)}`);
    failure.segments.push(key);
    throw failure;
  };
}
