// What t.timestamp() reads, its writer writes, in every codec: each instant a reader accepts is
// written and read back as the same instant, so an echo never fails on a timestamp it was sent.
import { expect } from 'chai';
import fc from 'fast-check';
import { ReadError, t } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import type { Codec } from '../../core/codec.ts';
import { textReader, textWriter } from '../../transports/protocol/params/index.ts';

const T = t.timestamp();
const Stamped = t.object({ at: T });

/** The instant `input` reads as, or the read error; then the same through the codec's writer and reader. */
function echoes(codec: Codec, input: Uint8Array | string): void {
  let read: Date;
  try {
    read = codec.decode(Stamped, input).at as Date;
  } catch (e) {
    expect(e).to.be.instanceOf(ReadError);
    return;
  }
  const written = codec.encode(Stamped, { at: read });
  expect((codec.decode(Stamped, written).at as Date).getTime()).to.equal(read.getTime());
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** RFC 3339 texts around the ends of years 0000-9999: leap seconds, offsets up to ±23:59, fractions. */
const arbText = fc
  .record({
    year: fc.oneof(fc.constantFrom(0, 1, 9998, 9999), fc.integer({ min: 0, max: 9999 })),
    month: fc.oneof(fc.constantFrom(1, 12), fc.integer({ min: 1, max: 12 })),
    day: fc.oneof(fc.constantFrom(1, 28, 31), fc.integer({ min: 1, max: 31 })),
    hour: fc.oneof(fc.constantFrom(0, 23), fc.integer({ min: 0, max: 23 })),
    minute: fc.oneof(fc.constantFrom(0, 59), fc.integer({ min: 0, max: 59 })),
    second: fc.oneof(fc.constantFrom(0, 59, 60), fc.integer({ min: 0, max: 60 })),
    fraction: fc.constantFrom('', '.5', '.999', '.9999999', '.000001'),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+23:59', '-23:59', '+01', '-0530'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([s, h, m]) => `${s}${pad(h, 2)}:${pad(m, 2)}`),
    ),
  })
  .map(
    (p) =>
      `${pad(p.year, 4)}-${pad(p.month, 2)}-${pad(p.day, 2)}T${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}${p.fraction}${p.zone}`,
  );

const EDGE_TEXTS = [
  '9999-12-31T23:59:60Z',
  '9999-12-31T23:59:60.999Z',
  '9999-12-31T23:59:59.999-23:59',
  '9999-12-31T23:00:00-05:00',
  '0000-01-01T00:00:00+00:01',
  '0000-01-01T00:00:00.000+23:59',
  '0000-01-01T05:00:00+05:00',
  '0000-01-01T00:00:00Z',
];

describe('codecs: t.timestamp() writes what it reads', () => {
  it('JSON: every RFC 3339 text read is written and read back as the same instant (property)', () => {
    for (const text of EDGE_TEXTS) echoes(json, JSON.stringify({ at: text }));
    fc.assert(
      fc.property(arbText, (text) => echoes(json, JSON.stringify({ at: text }))),
      { numRuns: 3_000 },
    );
  });

  it('JSON: the instants past 9999 and before 0000 in UTC that an offset reaches are written at an offset', () => {
    expect(json.encode(T, new Date('9999-12-31T23:59:60Z'.replace(':60Z', ':59.999Z')))).to.equal(
      '"9999-12-31T23:59:59.999Z"',
    );
    expect(json.encode(T, json.decode(T, '"9999-12-31T23:59:60Z"'))).to.equal('"9999-12-31T23:59:00.000-00:01"');
    expect(json.encode(T, json.decode(T, '"9999-12-31T23:59:59.999-23:59"'))).to.equal(
      '"9999-12-31T23:59:59.999-23:59"',
    );
    expect(json.encode(T, json.decode(T, '"0000-01-01T00:00:00+00:01"'))).to.equal('"0000-01-01T00:00:00.000+00:01"');
  });

  it('path and query text: what the reader reads, the client writes', () => {
    const read = textReader([], [{ name: 'at', type: T }]);
    const write = textWriter([], [{ name: 'at', type: T }]);
    for (const text of EDGE_TEXTS) {
      const at = read({}, `at=${encodeURIComponent(text)}`).at as Date;
      expect((read({}, write.query({ at })).at as Date).getTime(), text).to.equal(at.getTime());
    }
  });

  it('MessagePack: every timestamp32, 64 and 96 read is written and read back as the same instant (property)', () => {
    const ext = (body: number[]) => Uint8Array.of(0x81, 0xa2, 0x61, 0x74, ...body);
    const be = (n: bigint, bytes: number) =>
      Array.from({ length: bytes }, (_, i) => Number((n >> BigInt(8 * (bytes - 1 - i))) & 0xffn));
    const arbStamp = fc.oneof(
      fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((s) => ext([0xd6, 0xff, ...be(BigInt(s), 4)])),
      fc
        .tuple(fc.integer({ min: 0, max: 2 ** 30 - 1 }), fc.bigInt({ min: 0n, max: 2n ** 34n - 1n }))
        .map(([ns, s]) => ext([0xd7, 0xff, ...be((BigInt(ns) << 34n) | s, 8)])),
      fc
        .tuple(
          fc.integer({ min: 0, max: 2 ** 32 - 1 }),
          fc.oneof(
            fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
            fc.bigInt({ min: -8_640_000_000_000n, max: 8_640_000_000_000n }),
          ),
        )
        .map(([ns, s]) => ext([0xc7, 0x0c, 0xff, ...be(BigInt(ns), 4), ...be(BigInt.asUintN(64, s), 8)])),
    );
    fc.assert(
      fc.property(arbStamp, (bytes) => echoes(msgpack, bytes)),
      { numRuns: 3_000 },
    );
  });

  it('CBOR: every tag 1 (integer or float seconds) and tag 0 (text) read is written and read back as the same instant (property)', () => {
    const f64 = (n: number) => {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, n);
      return [...new Uint8Array(view.buffer)];
    };
    const inMap = (item: number[]) => Uint8Array.of(0xa1, 0x62, 0x61, 0x74, ...item);
    const arbStamp = fc.oneof(
      fc.double({ min: -8.64e12 - 1, max: 8.64e12 + 1, noNaN: true }).map((s) => inMap([0xc1, 0xfb, ...f64(s)])),
      fc.integer({ min: -(2 ** 32), max: 2 ** 32 - 1 }).map((s) => inMap([0xc1, 0xfb, ...f64(s + 0.001 * (s % 1000))])),
      arbText.map((text) => inMap([0xc0, ...cbor.encode(t.string(), text)])),
    );
    for (const text of EDGE_TEXTS) echoes(cbor, inMap([0xc0, ...cbor.encode(t.string(), text)]));
    fc.assert(
      fc.property(arbStamp, (bytes) => echoes(cbor, bytes)),
      { numRuns: 3_000 },
    );
  });
});
