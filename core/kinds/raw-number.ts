/**
 * A JSON number token kept as text because a `number` cannot hold it exactly (an integer beyond
 * 2^53). Only the exact JSON parser makes these; `i64`/`u64` readers convert them exactly.
 */
export class RawNumber {
  constructor(readonly text: string) {}
}

/** Beyond this many digits no 64-bit integer fits, so there is no need to build the bigint. */
const MAX_INTEGER_DIGITS = 40;

/**
 * The exact integer value of a JSON number token, or `undefined` when it has a fractional part.
 * Returns `Infinity`-like sentinels as `null` when the magnitude is far beyond 64 bits, so a token
 * like `1e999999999` never builds a huge bigint.
 */
export function decimalToBigInt(text: string): bigint | null | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  let digits = (m[2] ?? '') + (m[3] ?? '');
  let exponent = Number(m[4] ?? '0') - (m[3] ?? '').length;
  digits = digits.replace(/^0+/, '');
  if (digits === '') return 0n;
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  if (exponent < 0) {
    if (-exponent > trailingZeros) return undefined;
    digits = digits.slice(0, digits.length + exponent);
    exponent = 0;
  }
  if (digits.length + exponent > MAX_INTEGER_DIGITS) return null;
  return sign * BigInt(digits) * 10n ** BigInt(exponent);
}
