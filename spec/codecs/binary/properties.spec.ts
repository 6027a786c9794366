import { expect } from 'chai';
import fc from 'fast-check';
import { decode as cborLibDecode } from 'cbor';
import { Packr } from 'msgpackr';
import { ReadError, t, type Codec } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { arbTyped } from '../../support/arbitraries.ts';

const msgpackr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });
const independent: Record<string, (bytes: Uint8Array) => unknown> = {
  msgpack: (bytes) => msgpackr.unpack(bytes),
  cbor: (bytes) => cborLibDecode(bytes),
};

/** Decoding either succeeds or throws a ReadError; anything else (a crash, a RangeError) fails. */
function decodesOrReadError(codec: Codec, bytes: Uint8Array): void {
  try {
    codec.decode(t.map(t.array(t.nullable(t.string()))), bytes);
  } catch (e) {
    if (!(e instanceof ReadError)) throw e;
  }
}

for (const codec of [msgpack, cbor]) {
  describe(`codecs/${codec.name}: properties`, () => {
    it('decode(encode(v)) deep-equals v for generated descriptors and values', () => {
      fc.assert(
        fc.property(arbTyped, ({ type, value }) => {
          expect(codec.decode(type, codec.encode(type, value as never))).to.deep.equal(value);
        }),
        { numRuns: 500 },
      );
    });

    it('every strict prefix of an encoding fails as syntax_error', () => {
      fc.assert(
        fc.property(arbTyped, fc.nat(), ({ type, value }, cut) => {
          const bytes = codec.encode(type, value as never) as Uint8Array;
          const prefix = bytes.subarray(0, cut % bytes.length);
          let code: string | undefined;
          try {
            codec.decode(type, prefix);
          } catch (e) {
            if (!(e instanceof ReadError)) throw e;
            code = e.code;
          }
          expect(code).to.equal('syntax_error');
        }),
        { numRuns: 300 },
      );
    });

    it('random bytes decode or fail with a ReadError, never anything else', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => decodesOrReadError(codec, bytes)),
        { numRuns: 3000 },
      );
    });

    it('mutated valid encodings decode or fail with a ReadError', () => {
      fc.assert(
        fc.property(arbTyped, fc.nat(), fc.integer({ min: 0, max: 255 }), ({ type, value }, at, byte) => {
          const bytes = (codec.encode(type, value as never) as Uint8Array).slice();
          bytes[at % bytes.length] = byte;
          try {
            codec.decode(type, bytes);
          } catch (e) {
            if (!(e instanceof ReadError)) throw e;
          }
        }),
        { numRuns: 1000 },
      );
    });

    it('an independent decoder reads every u64 and i64 we write', () => {
      const read = independent[codec.name]!;
      const Pair = t.object({ u: t.u64(), i: t.i64() });
      fc.assert(
        fc.property(
          fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
          (u, i) => {
            const back = read(codec.encode(Pair, { u, i }) as Uint8Array) as { u: number | bigint; i: number | bigint };
            expect(BigInt(back.u)).to.equal(u);
            expect(BigInt(back.i)).to.equal(i);
          },
        ),
      );
    });

    it('an independent decoder reads every float32 we write to the same float32', () => {
      const read = independent[codec.name]!;
      fc.assert(
        fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (f) => {
          // Object.is: -0 must come back as -0, which `===` would not tell from 0.
          expect(Object.is(Math.fround(read(codec.encode(t.f32(), f) as Uint8Array) as number), f)).to.equal(true);
        }),
      );
    });

    it('an independent decoder reads every string we write', () => {
      const read = independent[codec.name]!;
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
          expect(read(codec.encode(t.string(), s) as Uint8Array)).to.equal(s);
        }),
      );
    });
  });
}
