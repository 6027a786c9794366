/** The value of an IEEE 754 binary16 (CBOR additional information 25), from its 16 bits. */
export function decodeFloat16(half: number): number {
  const exponent = (half >> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  let value: number;
  if (exponent === 0)
    value = mantissa * 2 ** -24; // subnormal
  else if (exponent === 31) value = mantissa === 0 ? Infinity : NaN;
  else value = (mantissa + 1024) * 2 ** (exponent - 25);
  return half & 0x8000 ? -value : value;
}
