// The schemas of the number kinds for a target: bounds always, OpenAPI formats when the target
// asks for them, and a 64-bit integer's JSON string form.

import type { BigIntType } from '../descriptors/bigint.ts';
import type { FloatType } from '../descriptors/float.ts';
import type { IntType } from '../descriptors/integer.ts';
import { BIGINT_RANGES } from '../kinds/ranges.ts';
import { decimalRangePattern } from './decimal-range.ts';
import { bigIntBounds, bigIntRange, numberSchema } from './number-bounds.ts';
import type { JsonSchema, SchemaTarget } from './schema-target.ts';

/** `format` of each number kind, from the OpenAPI format registry. */
const FORMATS = {
  i8: 'int8',
  i16: 'int16',
  i32: 'int32',
  u8: 'uint8',
  u16: 'uint16',
  u32: 'uint32',
  i64: 'int64',
  u64: 'uint64',
  f32: 'float',
  f64: 'double',
} as const;

/** `i8` … `u32`, `f32`, `f64`: `type` and bounds (see `numberSchema`), with `format` after `type` when the target writes formats. */
export function smallNumberSchema(type: IntType | FloatType, target: SchemaTarget): JsonSchema {
  const s = numberSchema(type.kind, type.constraints);
  if (target.numbers === 'bounds') return s;
  const { type: t, ...bounds } = s;
  return { type: t, format: FORMATS[type.kind], ...bounds };
}

/**
 * `i64`/`u64`: an integer within the range its constraints narrow. Its bounds are doubles: read
 * bodies are compared by their text, written answers are seen as the double an exact integer
 * rounds to (see `bigIntBounds`). With formats, the kind's own bounds are left to the format (a
 * double cannot state 2^64 - 1) and `u64` says `minimum: 0`. In JSON, `json: 'string'` is a
 * string of the digits in range: what writing writes, and beside the number what reading takes.
 */
export function bigIntSchema(type: BigIntType, target: SchemaTarget): JsonSchema {
  const [kindLow, kindHigh] = BIGINT_RANGES[type.kind];
  const [low, high] = bigIntRange(type.kind, type.constraints);
  const { minimum, maximum } = bigIntBounds(low, high, target.direction === 'read' ? 'text' : 'nearest');
  const integer: JsonSchema = { type: 'integer' };
  const formats = target.numbers === 'formats';
  if (formats) integer.format = FORMATS[type.kind];
  if (!formats || low !== kindLow || type.kind === 'u64') integer.minimum = minimum;
  if (!formats || high !== kindHigh) integer.maximum = maximum;
  if (target.form === 'binary' || type.json === 'number') return integer;
  const digits: JsonSchema = { type: 'string', pattern: decimalRangePattern(low, high) };
  return target.direction === 'write' ? digits : { anyOf: [integer, digits] };
}
