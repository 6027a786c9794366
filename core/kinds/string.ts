import type { ScalarRule } from './rule.ts';

/**
 * `t.string()`: Unicode text, a JavaScript string without a lone surrogate. UTF-8, what MessagePack
 * and CBOR carry, cannot hold a lone surrogate, so JSON (whose `\ud800` escape can) refuses it too:
 * every codec reads and writes the same strings. `isWellFormed` answers a one-byte string at once.
 */
export const STRING: ScalarRule = {
  expected: 'a string',
  is: (v) => typeof v === 'string' && v.isWellFormed(),
  isCode: (x) => `(typeof ${x} === 'string' && ${x}.isWellFormed())`,
  schema: () => ({ type: 'string' }),
};

/** Names what is wrong with a string that is not Unicode text: "a string holding a lone surrogate (U+D800 at index 3)". */
export function loneSurrogate(s: string): string {
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    else if ((c & 0xf800) === 0xd800) break;
  }
  const code = s.charCodeAt(i).toString(16).toUpperCase();
  return `a string holding a lone surrogate (U+${code} at index ${i})`;
}
