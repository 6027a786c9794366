import { BASE64_PATTERN, decodeBase64 } from '../util/base64.ts';
import type { ScalarRule } from './rule.ts';

/** `t.bytes()`: a `Uint8Array`; in JSON, strict padded base64 text. */
export const BYTES: ScalarRule & {
  /** What a `type_mismatch` names as expected in a JSON tree. */
  readonly expectedText: string;
  /** The bytes of base64 text, or `undefined` when it is not strict padded base64. */
  fromText(text: string): Uint8Array | undefined;
} = {
  expected: 'bytes',
  expectedText: 'base64 text',
  is: (v) => v instanceof Uint8Array,
  isCode: (x) => `${x} instanceof Uint8Array`,
  fromText: decodeBase64,
  schema: () => ({ type: 'string', contentEncoding: 'base64', pattern: BASE64_PATTERN }),
};
