// What the public codecs make of values near every scalar kind: each encode and decode's result or
// error, as text. spec/core/kinds/kinds.spec.ts compares a run with code generation on against a run in
// a process where it is forbidden (`node --disallow-code-generation-from-strings --import tsx
// spec/support/kind-outcomes.ts <seed>` prints the outcomes as JSON), so the generated readers
// and writers and the closure ones must take and refuse the same values, with the same messages.
import fc from 'fast-check';
import { t, type Type } from '../../index.ts';
import { BIGINT_RANGES, INT_RANGES, MAX_F32, MAX_F32_INPUT } from '../../core/kinds/ranges.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

/** Every scalar kind's descriptor. */
export const SCALARS: Readonly<Record<string, () => Type>> = {
  string: t.string,
  bool: t.bool,
  i8: t.i8,
  i16: t.i16,
  i32: t.i32,
  u8: t.u8,
  u16: t.u16,
  u32: t.u32,
  i64: t.i64,
  u64: t.u64,
  f32: t.f32,
  f64: t.f64,
  bytes: t.bytes,
};

/** The next double above `x` (for x > 0). */
function nextUp(x: number): number {
  const f = new Float64Array([x]);
  new BigInt64Array(f.buffer)[0]! += 1n;
  return f[0]!;
}

const bounds = [...Object.values(INT_RANGES).flat(), 2 ** 53 - 1, 2 ** 53, 2 ** 63, 2 ** 64, MAX_F32, MAX_F32_INPUT];
/** Numbers at, just past and between every bound, and the special values. */
const arbNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    ...bounds.flatMap((b) => [b, -b, b + 1, -b - 1, b - 0.5, -b + 0.5]),
    nextUp(MAX_F32_INPUT),
    -nextUp(MAX_F32_INPUT),
  ),
  fc.constantFrom(0, -0, 0.1, 1e-45, 5e-324, NaN, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE),
  fc.integer(),
  fc.double(),
);

const bigBounds = [...Object.values(INT_RANGES).flat().map(BigInt), ...Object.values(BIGINT_RANGES).flat(), 2n ** 53n];
/** Bigints at and just past every bound. */
const arbBigInt: fc.Arbitrary<bigint> = fc.oneof(
  fc.constantFrom(...bigBounds.flatMap((b) => [b, b - 1n, b + 1n])),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
);

/** JavaScript values a writer may be given for a scalar member. */
const arbValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: arbNumber },
  { weight: 2, arbitrary: arbBigInt },
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.uint8Array({ maxLength: 4 }),
  fc.constantFrom(null, undefined, {}, [], 'AAAA'),
);

/** JSON number tokens (and a few other tokens) near every bound. */
const arbToken: fc.Arbitrary<string> = fc.oneof(
  arbNumber.filter(Number.isFinite).map(String),
  arbBigInt.map(String),
  fc.constantFrom(
    '1.0',
    '1e2',
    '-0',
    '0.5',
    '1E400',
    '-1e-400',
    '3.4028235e+38',
    '3.4028236e38',
    '"x"',
    '"AAAA"',
    'true',
    'null',
    '[]',
    '{}',
  ),
);

/** A value as text that tells apart what `JSON.stringify` would not: -0, NaN, bigints, bytes, undefined. */
function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (v === undefined) return 'undefined';
  if (v instanceof Uint8Array) return `bytes(${Array.from(v, (b) => b.toString(16).padStart(2, '0')).join('')})`;
  if (Array.isArray(v)) return `[${v.map(show).join(',')}]`;
  if (typeof v === 'object' && v !== null)
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${show(x)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

/** The result of `run` as text, or the error it threw: its name, code, path and message. */
function outcome(run: () => unknown): string {
  try {
    return show(run());
  } catch (e) {
    const err = e as { name?: string; code?: string; path?: string; message?: string };
    return `${err.name} ${err.code} ${err.path} ${err.message}`;
  }
}

/**
 * Labelled outcomes for the values `seed` picks: each scalar kind writing each value in the three
 * codecs, reading each JSON token (with and without a 64-bit sibling, so both JSON read paths
 * run), and reading what each kind wrote in MessagePack and CBOR.
 */
export function kindOutcomes(seed: number, runs = 60): string[] {
  const values = fc.sample(arbValue, { seed, numRuns: runs });
  const tokens = fc.sample(arbToken, { seed, numRuns: runs });
  const out: string[] = [];
  const kinds = Object.entries(SCALARS).map(([name, make]) => ({
    name,
    alone: t.object({ v: make() }),
    withBig: t.object({ v: make(), big: t.u64() }),
  }));
  for (const kind of kinds) {
    for (const v of values) {
      for (const codec of [json, msgpack, cbor]) {
        out.push(`${kind.name} ${codec.name}.encode ${show(v)}: ${outcome(() => codec.encode(kind.alone, { v }))}`);
      }
    }
    for (const token of tokens) {
      out.push(`${kind.name} json.decode ${token}: ${outcome(() => json.decode(kind.alone, `{"v":${token}}`))}`);
      out.push(
        `${kind.name} json.decode ${token} (64-bit sibling): ${outcome(() => json.decode(kind.withBig, `{"v":${token},"big":1}`))}`,
      );
    }
  }
  for (const codec of [msgpack, cbor]) {
    for (const writer of kinds) {
      for (const v of values) {
        let bytes: Uint8Array;
        try {
          bytes = codec.encode(writer.alone, { v });
        } catch {
          continue;
        }
        for (const reader of kinds) {
          out.push(
            `${reader.name} ${codec.name}.decode of ${writer.name} ${show(v)}: ${outcome(() => codec.decode(reader.alone, bytes))}`,
          );
        }
      }
    }
  }
  return out;
}

if (process.argv[1]?.endsWith('kind-outcomes.ts')) {
  let codegen = true;
  try {
    new Function('return 1');
  } catch {
    codegen = false;
  }
  process.stdout.write(
    JSON.stringify({ codegen, outcomes: kindOutcomes(Number(process.argv[2]), Number(process.argv[3])) }),
  );
}
