// The number kinds and their bounds: data only. The modules beside this one state each kind's rules
// on them (the check, the messages, the emitted code, the JSON Schema); the descriptor classes,
// a layer up, take their kinds from here.

/** The integer kinds that fit a JavaScript `number` exactly. */
export type IntKind = 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32';
/** The 64-bit integer kinds, read as `bigint`. */
export type BigIntKind = 'i64' | 'u64';
export type FloatKind = 'f32' | 'f64';

/** Inclusive bounds of each integer kind. */
export const INT_RANGES: Readonly<Record<IntKind, readonly [number, number]>> = {
  i8: [-128, 127],
  i16: [-32768, 32767],
  i32: [-2147483648, 2147483647],
  u8: [0, 255],
  u16: [0, 65535],
  u32: [0, 4294967295],
};

/** Inclusive bounds of each 64-bit kind. */
export const BIGINT_RANGES: Readonly<Record<BigIntKind, readonly [bigint, bigint]>> = {
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u64: [0n, 2n ** 64n - 1n],
};

/** The largest finite float32. */
export const MAX_F32 = 3.4028234663852886e38;

/**
 * The largest number that rounds to a finite float32 (to MAX_F32): the bound of what `f32` takes.
 * Above it, at 2^128 − 2^103, float32 rounds to infinity. The shortest text of MAX_F32,
 * `3.4028235e+38`, lies between the two, so bounding by MAX_F32 itself would refuse it.
 */
export const MAX_F32_INPUT = 3.4028235677973362e38;
