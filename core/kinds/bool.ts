import type { ScalarRule } from './rule.ts';

/** `t.bool()`: `true` or `false`. */
export const BOOL: ScalarRule = {
  expected: 'a boolean',
  is: (v) => typeof v === 'boolean',
  isCode: (x) => `typeof ${x} === 'boolean'`,
  schema: () => ({ type: 'boolean' }),
};
