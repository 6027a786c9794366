// The rules of the scalar kinds, one module each, and the table of them by kind.
import type { BigIntKind, FloatKind, IntKind } from './ranges.ts';
import { BIGINT_RULES } from './bigint.ts';
import { BOOL } from './bool.ts';
import { BYTES } from './bytes.ts';
import { FLOAT_RULES } from './float.ts';
import { INT_RULES } from './integer.ts';
import type { ScalarRule } from './rule.ts';
import { STRING } from './string.ts';

export type { NumberRule, ScalarRule } from './rule.ts';
export { BIGINT_RULES, BigIntRule } from './bigint.ts';
export { BOOL } from './bool.ts';
export { BYTES } from './bytes.ts';
export { F32, F64, FLOAT_RULES, type FloatRule } from './float.ts';
export { INT_RULES, IntRule } from './integer.ts';
export { STRING } from './string.ts';
export { TIMESTAMP, WireTimestamp, MAX_DATE_MS } from './timestamp.ts';
export {
  arrayRule,
  mapRule,
  numberRule,
  stringRule,
  withNumberConstraints,
  type ConstraintRule,
} from './constraints.ts';
export { isInheritedKey, memberCode, memberValue } from './member.ts';

/** The descriptor kinds with a fixed set of values and no members. */
export type ScalarKind = 'string' | 'bool' | IntKind | BigIntKind | FloatKind | 'bytes';

/** Every scalar kind's rules. */
export const SCALAR_RULES: { readonly [K in ScalarKind]: ScalarRule } = {
  string: STRING,
  bool: BOOL,
  ...INT_RULES,
  ...BIGINT_RULES,
  ...FLOAT_RULES,
  bytes: BYTES,
};
