// Seeded, bounded fuzzing of every codec's decode: truncations, byte mutations, corrupted length
// headers, deep nesting and (JSON) lone surrogates, against generated descriptors and options.
// Every decode must return a value or throw a ReadError, never anything else (a TypeError, a
// RangeError, a crash), and must do it quickly. The seeds are fixed: a failure reproduces.
import { expect } from 'chai';
import fc from 'fast-check';
import { ReadError, t, type Codec, type Type } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { arbDescriptor, arbJsonNear, arbMissingKeys, arbTyped } from '../support/arbitraries.ts';
import type { MissingKeys } from '../../core/options.ts';
import { arbWireTree, fieldNames, toCbor, toMsgpack } from '../support/wire-tree.ts';

/**
 * One decode may take this long at most: a guard against runaway (quadratic, exponential) reading,
 * not a benchmark. Inputs here take a few milliseconds; the margin is for a loaded machine.
 */
const SLOW_MS = 2000;

interface Options {
  errorOnMissingKeys?: MissingKeys;
  errorOnUnknownKeys?: boolean;
  maxDepth?: number;
  maxItems?: number;
}

const arbOptions: fc.Arbitrary<Options> = fc.record(
  {
    errorOnMissingKeys: arbMissingKeys,
    errorOnUnknownKeys: fc.boolean(),
    maxDepth: fc.oneof(fc.constant(64), fc.integer({ min: 1, max: 5 }), fc.constant(100_000)),
    maxItems: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.constant(1_000_000)),
  },
  { requiredKeys: [] },
);

/** Decodes and returns what came out; a ReadError is an answer, anything else fails the property. */
function decodeOrReadError(codec: Codec, type: Type, input: Uint8Array | string, opts: Options): unknown {
  const start = performance.now();
  let outcome: unknown;
  try {
    outcome = { value: codec.decode(type, input, opts) };
  } catch (e) {
    if (!(e instanceof ReadError)) throw e;
    outcome = { error: e.code };
  }
  const ms = performance.now() - start;
  if (ms > SLOW_MS)
    expect.fail(
      `decoding ${input.length} ${typeof input === 'string' ? 'characters' : 'bytes'} took ${ms.toFixed(0)} ms`,
    );
  return outcome;
}

/** The input with one edit: cut short, a byte changed, bytes inserted or removed. */
function mutate(bytes: Uint8Array, edit: number, at: number, byte: number, count: number): Uint8Array {
  if (bytes.length === 0) return Uint8Array.of(byte);
  const i = at % bytes.length;
  switch (edit % 4) {
    case 0:
      return bytes.subarray(0, i);
    case 1: {
      const out = bytes.slice();
      out[i] = byte;
      return out;
    }
    case 2:
      return Uint8Array.from([
        ...bytes.subarray(0, i),
        ...Array.from({ length: count }, () => byte),
        ...bytes.subarray(i),
      ]);
    default:
      return Uint8Array.from([...bytes.subarray(0, i), ...bytes.subarray(i + count)]);
  }
}

const arbEdit = fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 4 }));

/** Length headers announcing far more than follows (or exactly the maximum), per format. */
const HUGE_HEADS: Record<string, readonly number[][]> = {
  msgpack: [
    [0xdc, 0xff, 0xff],
    [0xdd, 0xff, 0xff, 0xff, 0xff],
    [0xde, 0xff, 0xff],
    [0xdf, 0x7f, 0xff, 0xff, 0xff],
    [0xc6, 0xff, 0xff, 0xff, 0xff],
    [0xdb, 0xff, 0xff, 0xff, 0xff],
    [0xc9, 0xff, 0xff, 0xff, 0xff, 0x01],
    [0xdd, 0, 0, 0, 3],
  ],
  cbor: [
    [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    [0x9a, 0xff, 0xff, 0xff, 0xff],
    [0xbb, 0, 0, 0, 1, 0, 0, 0, 0],
    [0x5b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    [0x7a, 0xff, 0xff, 0xff, 0xff],
    [0x9f],
    [0xbf],
    [0x5f, 0x41],
    [0xc2, 0x5f],
  ],
};

/** The bytes with a huge length header written over (or into) them at `at`. */
function corruptHeader(format: string, bytes: Uint8Array, pick: number, at: number, overwrite: boolean): Uint8Array {
  const heads = HUGE_HEADS[format]!;
  const head = heads[pick % heads.length]!;
  const i = bytes.length === 0 ? 0 : at % bytes.length;
  const rest = bytes.subarray(overwrite ? Math.min(bytes.length, i + head.length) : i);
  return Uint8Array.from([...bytes.subarray(0, i), ...head, ...rest]);
}

/** Nested containers `depth` deep, closed or not: the same opening item over and over. */
function nested(format: string, depth: number, kind: number, closed: boolean): Uint8Array {
  const open: Record<string, readonly number[][]> = {
    msgpack: [[0x91], [0x81, 0xa1, 0x61], [0xdc, 0x00, 0x01]],
    cbor: [[0x81], [0xa1, 0x61, 0x61], [0x9f], [0xc6]],
  };
  const unit = open[format]![kind % open[format]!.length]!;
  const out: number[] = [];
  for (let i = 0; i < depth; i++) out.push(...unit);
  if (closed) {
    out.push(0x01);
    // Indefinite arrays need their breaks; the rest are complete once the innermost item is there.
    if (format === 'cbor' && unit[0] === 0x9f) for (let i = 0; i < depth; i++) out.push(0xff);
  }
  return Uint8Array.from(out);
}

const BINARY = [
  { codec: msgpack, encodeTree: toMsgpack },
  { codec: cbor, encodeTree: toCbor },
];

for (const { codec, encodeTree } of BINARY) {
  describe(`codecs/${codec.name}: fuzz (seeded, bounded)`, () => {
    it('mutated and truncated encodings of valid values', () => {
      fc.assert(
        fc.property(arbTyped, arbOptions, arbEdit, ({ type, value }, opts, [edit, at, byte, count]) => {
          const bytes = codec.encode(type, value as never) as Uint8Array;
          decodeOrReadError(codec, type, mutate(bytes, edit, at, byte, count), opts);
        }),
        { numRuns: 600, seed: 101 },
      );
    });

    it('hand-made wire (repeated keys, non-string keys, indefinite lengths, tags), mutated', () => {
      const arb = arbDescriptor.chain((type) => fc.tuple(fc.constant(type), arbWireTree([...fieldNames(type)])));
      fc.assert(
        fc.property(arb, arbOptions, arbEdit, fc.boolean(), ([type, tree], opts, [edit, at, byte, count], intact) => {
          const bytes = encodeTree(tree);
          decodeOrReadError(codec, type, intact ? bytes : mutate(bytes, edit, at, byte, count), opts);
        }),
        { numRuns: 600, seed: 202 },
      );
    });

    it('corrupted length headers', () => {
      fc.assert(
        fc.property(
          arbTyped,
          arbOptions,
          fc.nat(),
          fc.nat(),
          fc.boolean(),
          ({ type, value }, opts, pick, at, overwrite) => {
            const bytes = codec.encode(type, value as never) as Uint8Array;
            decodeOrReadError(codec, type, corruptHeader(codec.name, bytes, pick, at, overwrite), opts);
          },
        ),
        { numRuns: 500, seed: 303 },
      );
    });

    it('deep nesting, closed or cut short', () => {
      const arbType = fc.oneof(arbDescriptor, fc.constant(t.u64()), fc.constant(t.array(t.array(t.u8()))));
      fc.assert(
        fc.property(
          arbType,
          arbOptions,
          fc.integer({ min: 1, max: 20_000 }),
          fc.nat(),
          fc.boolean(),
          (type, opts, depth, kind, closed) => {
            decodeOrReadError(codec, type, nested(codec.name, depth, kind, closed), opts);
          },
        ),
        { numRuns: 300, seed: 404 },
      );
    });
  });
}

/** JSON text near a descriptor, as lacquer writes it or as `JSON.stringify` writes a near value. */
function arbJsonText(): fc.Arbitrary<{ type: Type; text: string }> {
  return fc.oneof(
    arbTyped.map(({ type, value }) => ({ type, text: json.encode(type, value as never) })),
    arbDescriptor.chain((type) => arbJsonNear(type).map((near) => ({ type, text: JSON.stringify(near) ?? 'null' }))),
  );
}

/** A text with one edit: cut short, a character changed, characters inserted or removed. */
function mutateText(text: string, edit: number, at: number, c: string, count: number): string {
  if (text.length === 0) return c;
  const i = at % text.length;
  switch (edit % 4) {
    case 0:
      return text.slice(0, i);
    case 1:
      return text.slice(0, i) + c + text.slice(i + 1);
    case 2:
      return text.slice(0, i) + c.repeat(count) + text.slice(i);
    default:
      return text.slice(0, i) + text.slice(i + count);
  }
}

const arbJsonChar = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    '"',
    '\\',
    ',',
    ':',
    '0',
    '-',
    'e',
    '.',
    ' ',
    'n',
    't',
    '\u0000',
    '\ud800',
    '\udc00',
  ),
  fc.string({ minLength: 1, maxLength: 1 }),
);

describe('codecs/json: fuzz (seeded, bounded)', () => {
  it('mutated and truncated texts, as strings and as UTF-8 bytes', () => {
    fc.assert(
      fc.property(
        arbJsonText(),
        arbOptions,
        arbEdit,
        arbJsonChar,
        fc.boolean(),
        ({ type, text }, opts, [edit, at, , count], c, asBytes) => {
          const mutated = mutateText(text, edit, at, c, count);
          decodeOrReadError(json, type, asBytes ? new TextEncoder().encode(mutated) : mutated, opts);
        },
      ),
      { numRuns: 900, seed: 505 },
    );
  });

  it('mutated UTF-8 bytes (invalid sequences, overlong forms, encoded surrogates)', () => {
    fc.assert(
      fc.property(arbJsonText(), arbOptions, arbEdit, ({ type, text }, opts, [edit, at, byte, count]) => {
        decodeOrReadError(json, type, mutate(new TextEncoder().encode(text), edit, at, byte, count), opts);
      }),
      { numRuns: 500, seed: 606 },
    );
  });

  it('deep nesting, closed or cut short', () => {
    const arbType = fc.oneof(
      arbDescriptor,
      fc.constant(t.object({ id: t.u64(), rest: t.array(t.string()) })),
      fc.constant(t.u64()),
    );
    fc.assert(
      fc.property(
        arbType,
        arbOptions,
        fc.integer({ min: 1, max: 20_000 }),
        fc.boolean(),
        fc.boolean(),
        (type, opts, depth, objects, closed) => {
          const open = objects ? '{"id":' : '[';
          const close = objects ? '}' : ']';
          const text = open.repeat(depth) + (closed ? '18446744073709551615' + close.repeat(depth) : '');
          decodeOrReadError(json, type, text, opts);
        },
      ),
      { numRuns: 300, seed: 707 },
    );
  });

  it('strings with lone surrogates, escaped or raw: a ReadError, or a value holding Unicode text only', () => {
    // Every codec reads Unicode text only (unicode-text.spec.ts): a value that comes back holds no
    // lone surrogate, in a string or a key.
    const arbSurrogate = fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => `\\u${u.toString(16)}`),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)),
      fc.constant('\\ud83d\\ude00'),
    );
    const arbText = fc.tuple(
      fc.array(fc.oneof(arbSurrogate, fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
    );
    const types: Type[] = [t.string(), t.object({ a: t.string() }), t.map(t.string()), t.array(t.string()), t.bytes()];
    fc.assert(
      fc.property(arbText, fc.constantFrom(...types.keys()), fc.boolean(), ([parts, inKey], which, asBytes) => {
        const s = `"${parts.join('').replace(/"/g, '')}"`;
        const type = types[which]!;
        const text =
          type.kind === 'object'
            ? `{"a":${s}}`
            : type.kind === 'map'
              ? inKey
                ? `{${s}:"x"}`
                : `{"k":${s}}`
              : type.kind === 'array'
                ? `[${s}]`
                : s;
        const outcome = decodeOrReadError(json, type, asBytes ? new TextEncoder().encode(text) : text, {}) as {
          value?: unknown;
          error?: string;
        };
        if ('value' in outcome) expect(onlyUnicodeText(outcome.value), JSON.stringify(text)).to.equal(true);
      }),
      { numRuns: 300, seed: 808 },
    );
  });
});

/** Whether every string in `v`, keys included, is Unicode text (no lone surrogate). */
function onlyUnicodeText(v: unknown): boolean {
  if (typeof v === 'string') return v.isWellFormed();
  if (Array.isArray(v)) return v.every(onlyUnicodeText);
  if (typeof v === 'object' && v !== null && !(v instanceof Uint8Array)) {
    return Object.entries(v).every(([k, x]) => k.isWellFormed() && onlyUnicodeText(x));
  }
  return true;
}
