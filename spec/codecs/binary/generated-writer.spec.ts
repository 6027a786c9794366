// The generated binary writer is a fast path: for every value it must give the closure writer's
// bytes, and on a bad value the encoder must still throw the closure writer's exact WriteError.
import { expect } from 'chai';
import { decode as cborDecode } from 'cbor-x';
import fc from 'fast-check';
import { Packr } from 'msgpackr';
import { t, type Type } from '../../../index.ts';
import { asWriteError } from '../../../core/errors/write-error.ts';
import { BAIL } from '../../../core/codegen/codegen.ts';
import { compileBinaryWriter } from '../../../codecs/binary/compile-writer.ts';
import { generateBinaryWriter } from '../../../codecs/binary/generate-writer.ts';
import { Sink } from '../../../codecs/binary/sink.ts';
import type { Wire } from '../../../codecs/binary/wire.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { cborWire } from '../../../codecs/cbor/wire.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { msgpackWire } from '../../../codecs/msgpack/wire.ts';
import { PAYLOADS } from '../../../bench/payloads.ts';
import { arbDescriptor, arbJsonNear, arbTyped } from '../../support/arbitraries.ts';

/** Runs a writer into a fresh sink (small, so that it grows); returns the bytes or what was thrown. */
function run(write: (s: Sink, v: unknown) => void, value: unknown): { bytes: Uint8Array } | { thrown: unknown } {
  const s = new Sink(16);
  try {
    write(s, value);
    return { bytes: s.buf.slice(s.start, s.pos) };
  } catch (e) {
    return { thrown: e };
  }
}

/** The closure writer alone, as `encode` would report it. */
function closureOutcome(type: Type, wire: Wire, value: unknown): unknown {
  const outcome = run(compileBinaryWriter(type, wire), value);
  return 'bytes' in outcome ? outcome : { error: details(asWriteError(outcome.thrown)) };
}

function encodeOutcome(encode: () => Uint8Array): unknown {
  try {
    return { bytes: encode().slice() };
  } catch (e) {
    return { error: details(e) };
  }
}

function details(e: unknown): unknown {
  const { name, code, path, key, message } = e as Record<string, unknown>;
  return { name, code, path, key, message };
}

const packr = new Packr({ useRecords: false });
const subjects = [
  // `fix` is the longest byte length a one-byte string head holds.
  { codec: msgpack, wire: msgpackWire, fix: 31, decode: (b: Uint8Array) => packr.unpack(b) },
  { codec: cbor, wire: cborWire, fix: 23, decode: (b: Uint8Array) => cborDecode(b) },
];

for (const { codec, wire, fix, decode } of subjects) {
  describe(`codecs/${codec.name}: the generated writer`, () => {
    it('writes every valid value without bailing, byte for byte as the closure writer', () => {
      fc.assert(
        fc.property(arbTyped, ({ type, value }) => {
          expect(run(generateBinaryWriter(type, wire), value)).to.deep.equal(
            run(compileBinaryWriter(type, wire), value),
          );
        }),
        { numRuns: 500 },
      );
    });

    it('encode gives the closure writer’s bytes or its exact WriteError for values near the descriptor', () => {
      fc.assert(
        fc.property(
          arbDescriptor.chain((type) => arbJsonNear(type).map((value) => ({ type, value }))),
          ({ type, value }) => {
            expect(encodeOutcome(() => codec.encode(type, value as never))).to.deep.equal(
              closureOutcome(type, wire, value),
            );
          },
        ),
        { numRuns: 500 },
      );
    });

    it('writes the benchmark payloads without bailing', () => {
      for (const p of PAYLOADS) {
        const fast = run(generateBinaryWriter(p.type, wire), p.value);
        expect(fast, p.name).to.deep.equal(run(compileBinaryWriter(p.type, wire), p.value));
      }
    });

    it('bails rather than guess on a value it does not know', () => {
      const outcome = run(generateBinaryWriter(t.object({ a: t.i32() }), wire), { a: 1.5 });
      expect(outcome).to.deep.equal({ thrown: BAIL });
    });

    const wellFormed = [
      '',
      'a'.repeat(23),
      'a'.repeat(24),
      'a'.repeat(31),
      'a'.repeat(32),
      'a'.repeat(64),
      'a'.repeat(65),
      'a'.repeat(300),
      'a'.repeat(70000),
      'é',
      'x'.repeat(30) + 'é',
      'ü'.repeat(100),
      '😀'.repeat(40),
    ];
    const strings = [...wellFormed, 'ab\ud800', '\udc00'.repeat(70)];
    it('writes strings of every head size and encoding as the closure writer does', () => {
      const type = t.object({ s: t.string(), list: t.array(t.nullable(t.string())) });
      for (const s of strings) {
        const value = { s, list: [s, null, s] };
        expect(
          encodeOutcome(() => codec.encode(type, value)),
          JSON.stringify(s.slice(0, 8)),
        ).to.deep.equal(closureOutcome(type, wire, value));
      }
    });

    it('writes strings in the smallest head, readable by an independent decoder', () => {
      for (const s of wellFormed) {
        const bytes = codec.encode(t.string(), s);
        const n = new TextEncoder().encode(s).length;
        const head = n <= fix ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
        expect(bytes.length, JSON.stringify(s.slice(0, 8))).to.equal(head + n);
        expect(decode(bytes)).to.equal(s);
      }
    });

    it('writes long and non-ASCII member names as the closure writer does', () => {
      const type = t.object({
        'a member name longer than sixteen bytes': t.u8(),
        ключ: t.optional(t.string()),
        '': t.bool(),
      });
      for (const value of [
        { 'a member name longer than sixteen bytes': 1, ключ: 'é', '': true },
        { 'a member name longer than sixteen bytes': 2, '': false },
      ]) {
        expect(encodeOutcome(() => codec.encode(type, value))).to.deep.equal(closureOutcome(type, wire, value));
      }
    });

    it('names the member a bad value is at, through generated and closure-written levels', () => {
      const type = t.object({ m: t.map(t.array(t.object({ n: t.optional(t.u8()) }))) });
      const value = { m: { k: [{ n: 1 }, { n: 256 }] } };
      expect(encodeOutcome(() => codec.encode(type, value))).to.deep.equal(closureOutcome(type, wire, value));
      expect((encodeOutcome(() => codec.encode(type, value)) as { error: { path: string } }).error.path).to.equal(
        '/m/k/1/n',
      );
    });

    it('keeps every result intact while large and small values share and outgrow chunks', () => {
      const big = PAYLOADS.find((p) => p.name.includes('×1000'))!;
      const small = PAYLOADS[0]!;
      const expected = [big, small].map((p) => run(compileBinaryWriter(p.type, wire), p.value));
      const results: [number, Uint8Array][] = [];
      for (let i = 0; i < 12; i++) {
        const which = i % 3 === 2 ? 1 : 0;
        const p = which === 0 ? big : small;
        results.push([which, codec.encode(p.type, p.value as never)]);
      }
      for (const [which, bytes] of results) expect({ bytes: bytes.slice() }).to.deep.equal(expected[which]);
    });

    it('keeps earlier results intact across a failed write and an encode nested in a getter', () => {
      const type = t.object({ name: t.string(), n: t.u8() });
      const first = codec.encode(type, { name: 'first', n: 1 });
      const copy = first.slice();
      // Fails after the name is written: nothing of it may stay where the next value goes.
      expect(() => codec.encode(type, { name: 'x'.repeat(40), n: 300 })).to.throw();
      let inner: Uint8Array | undefined;
      const outer = codec.encode(type, {
        get name() {
          inner = codec.encode(type, { name: 'inner', n: 2 });
          return 'outer';
        },
        n: 3,
      });
      const second = codec.encode(type, { name: 'second', n: 4 });
      expect(first).to.deep.equal(copy);
      expect(codec.decode(type, first)).to.deep.equal({ name: 'first', n: 1 });
      expect(codec.decode(type, inner!)).to.deep.equal({ name: 'inner', n: 2 });
      expect(codec.decode(type, outer)).to.deep.equal({ name: 'outer', n: 3 });
      expect(codec.decode(type, second)).to.deep.equal({ name: 'second', n: 4 });
    });
  });
}
