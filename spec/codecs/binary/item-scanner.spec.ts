// The codecs' item scanners (`Codec.itemScanner`), which find where each value of a MessagePack or
// CBOR sequence ends: on values written by encoders we did not write (msgpackr, cbor-x, the cbor
// package's indefinite lengths), cut into chunks anywhere, and on malformed input.
import { expect } from 'chai';
import fc from 'fast-check';
import { encode as cborEncode } from 'cbor-x';
import { Encoder as IndefiniteEncoder } from 'cbor';
import { nodeCborEncode } from '../../support/node-cbor.ts';
import { pack } from 'msgpackr';
import { ReadError, type Codec } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';

/** Values of every wire family: maps, arrays, strings, bytes, integers of every size, floats, booleans, null. */
const arbValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 255, 65536, -2147483649, 2 ** 40, 1.5, -0.25, Number.MAX_VALUE),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ minLength: 300, maxLength: 400 }),
    fc.uint8Array({ maxLength: 300 }),
    fc.array(tie('value'), { maxLength: 20 }),
    fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 20, noNullPrototype: true }),
  ),
})).value;

/** `value` marked for the cbor package to write every string, array and map in it with an indefinite length (strings in chunks of 7). */
function indefinite(value: unknown): unknown {
  const marked = <T extends object>(o: T): T =>
    Object.defineProperty(o, 'encodeCBOR', { value: IndefiniteEncoder.encodeIndefinite });
  if (typeof value === 'string' || value instanceof Uint8Array) {
    return {
      encodeCBOR: (gen: unknown) =>
        IndefiniteEncoder.encodeIndefinite(gen as never, value as never, { chunkSize: 7 } as never),
    };
  }
  if (Array.isArray(value)) return marked(value.map(indefinite));
  if (typeof value === 'object' && value !== null)
    return marked(new Map(Object.entries(value).map(([k, v]) => [k, indefinite(v)])));
  return value;
}

/** The ends `scanner` finds in `bytes` given in growing prefixes ending at `cuts`. */
function ends(codec: Codec, bytes: Uint8Array, cuts: readonly number[]): number[] {
  const scanner = codec.itemScanner!(64);
  const found: number[] = [];
  let start = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    for (;;) {
      if (start >= cut) break;
      const end = scanner.scan(bytes.subarray(0, cut), start, cut);
      if (end === undefined) {
        expect(scanner.needed).to.be.greaterThan(0);
        break;
      }
      found.push(end);
      start = end;
    }
  }
  return found;
}

function boundaries(parts: readonly Uint8Array[]): { bytes: Uint8Array; ends: number[] } {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const at: number[] = [];
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    at.push((o += p.length));
  }
  return { bytes: out, ends: at };
}

describe('item scanners', () => {
  const encoders = [
    { codec: msgpack, name: 'msgpackr', encode: (v: unknown) => pack(v) as Uint8Array },
    { codec: cbor, name: 'cbor-x', encode: (v: unknown) => cborEncode(v) as Uint8Array },
    { codec: cbor, name: 'cbor (indefinite lengths)', encode: (v: unknown) => nodeCborEncode(indefinite(v)) },
  ];
  for (const { codec, name, encode } of encoders) {
    it(`finds the end of each value ${name} writes, however the bytes are cut (property)`, () => {
      fc.assert(
        fc.property(
          fc.array(arbValue, { minLength: 1, maxLength: 6 }),
          fc.array(fc.nat(), { maxLength: 10 }),
          (values, cuts) => {
            const { bytes, ends: expected } = boundaries(values.map(encode));
            expect(ends(codec, bytes, cuts)).to.deep.equal(expected);
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('says how many bytes an unfinished value needs at least, from its heads', () => {
    const scanner = cbor.itemScanner!(64);
    // An array of 3, then a text string of 1000 bytes of which 2 have come.
    expect(scanner.scan(Uint8Array.of(0x83, 0x79, 0x03, 0xe8, 0x61, 0x62), 0, 6)).to.equal(undefined);
    expect(scanner.needed).to.equal(1 + 3 + 1000 + 2);
  });

  const malformed: [Codec, number[], RegExp][] = [
    [msgpack, [0xc1], /invalid MessagePack: 0xc1 starts no value \(offset 0\)/],
    [msgpack, [0x92, 0x01, 0xc1], /0xc1 starts no value \(offset 2\)/],
    [cbor, [0x1c], /0x1c starts no value/],
    [cbor, [0xff], /unexpected break/],
    [cbor, [0x82, 0x01, 0xff], /unexpected break/],
    [cbor, [0x5f, 0x01, 0xff], /a chunk of an indefinite-length string must be a definite string/],
    [cbor, [0x7f, 0x9f, 0xff, 0xff], /a chunk of an indefinite-length string/],
    [cbor, [0x1f], /starts no value/],
  ];
  for (const [codec, input, message] of malformed) {
    it(`${codec.name}: refuses ${input.map((b) => b.toString(16)).join(' ')} with a ReadError`, () => {
      const bytes = Uint8Array.from(input);
      expect(() => codec.itemScanner!(64).scan(bytes, 0, bytes.length)).to.throw(ReadError, message);
    });
  }

  it('refuses nesting past its maxDepth, and takes it up to there', () => {
    for (const [codec, open] of [
      [msgpack, 0x91],
      [cbor, 0x81],
    ] as const) {
      const at = (depth: number) => Uint8Array.from([...new Array(depth).fill(open), 0x01]);
      expect(codec.itemScanner!(3).scan(at(3), 0, 4)).to.equal(4);
      expect(() => codec.itemScanner!(3).scan(at(4), 0, 5)).to.throw(ReadError, /nesting deeper than maxDepth \(3\)/);
      // An empty container counts as one level too, as when reading.
      expect(() => codec.itemScanner!(0).scan(Uint8Array.of(codec === cbor ? 0x80 : 0x90), 0, 1)).to.throw(ReadError);
    }
  });

  it('goes on with the next value after a failure', () => {
    const scanner = msgpack.itemScanner!(64);
    expect(() => scanner.scan(Uint8Array.of(0xc1), 0, 1)).to.throw(ReadError);
    expect(scanner.scan(Uint8Array.of(0x92, 1, 2), 0, 3)).to.equal(3);
  });
});
