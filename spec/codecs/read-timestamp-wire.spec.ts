// Timestamps on the binary wires: MessagePack's extension -1 (timestamp32, timestamp64,
// timestamp96) and CBOR's tag 1 (epoch seconds: an integer of any size, bignums included, or a
// float) and tag 0 (RFC 3339 text). The tree parsers turn them into `WireTimestamp`s, malformed
// payloads into `syntax_error`s; the read pass turns a `WireTimestamp` into a `Date`, or an
// `out_of_range` naming the instant when a `Date` cannot hold it. Other extension types and tags
// keep their meaning.
import { expect } from 'chai';
import fc from 'fast-check';
import { encode as msgpackJsEncode } from '@msgpack/msgpack';
import { nodeCborEncode as cborLibEncode } from '../support/node-cbor.ts';
import { Encoder as CborXEncoder } from 'cbor-x';
import { t, type Type } from '../../index.ts';
import { WireTimestamp } from '../../core/kinds/timestamp.ts';
import { readTree } from '../../core/read/read.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { parseCbor } from '../../codecs/cbor/parse.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { parseMsgpack } from '../../codecs/msgpack/parse.ts';
import { readErrorOf } from '../support/read-error.ts';
import { decodeOutcome } from '../support/read-outcome.ts';

/** Bytes from hex, spaces optional. */
const bytes = (text: string) => Uint8Array.from(text.replace(/ /g, '').match(/../g) ?? [], (h) => parseInt(h, 16));
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join(' ');
const u32 = (n: number) => hex(Uint8Array.of(n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff));
const i64 = (n: bigint) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigInt64(0, n);
  return hex(new Uint8Array(view.buffer));
};
const f64 = (n: number) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, n);
  return hex(new Uint8Array(view.buffer));
};

/** MessagePack's three forms, written by hand. */
const ts32 = (seconds: number) => `d6 ff ${u32(seconds)}`;
const ts64 = (seconds: number, nanos: number) =>
  `d7 ff ${u32(nanos * 4 + Math.floor(seconds / 2 ** 32))} ${u32(seconds % 2 ** 32)}`;
const ts96 = (seconds: bigint, nanos: number) => `c7 0c ff ${u32(nanos)} ${i64(seconds)}`;

const MAX_MS = 8.64e15;
const Stamped = t.object({ at: t.timestamp() });
/** `{ "at": <item> }` in each format. */
const inMsgpack = (item: string) => bytes(`81 a2 61 74 ${item}`);
const inCbor = (item: string) => bytes(`a1 62 61 74 ${item}`);

describe('codecs/msgpack: timestamps (extension -1)', () => {
  const reads = (item: string) => msgpack.decode(t.timestamp(), bytes(item));
  const fails = (item: string, type: Type = t.timestamp()) => readErrorOf(() => msgpack.decode(type, bytes(item)));

  it('reads timestamp32: seconds since the epoch, unsigned', () => {
    expect(reads(ts32(0))).to.deep.equal(new Date(0));
    expect(reads(ts32(1363896240))).to.deep.equal(new Date('2013-03-21T20:04:00Z'));
    expect(reads(ts32(2 ** 32 - 1))).to.deep.equal(new Date('2106-02-07T06:28:15Z'));
  });

  it('reads timestamp64: 30 bits of nanoseconds, 34 of seconds, keeping milliseconds', () => {
    expect(reads(ts64(0, 1_000_000))).to.deep.equal(new Date(1));
    expect(reads(ts64(1714566896, 123_000_000))).to.deep.equal(new Date('2024-05-01T12:34:56.123Z'));
    // After 2106 (past 32 bits of seconds), up to 2514 (34 bits).
    expect(reads(ts64(2 ** 32, 500_000_000))).to.deep.equal(new Date('2106-02-07T06:28:16.500Z'));
    expect(reads(ts64(2 ** 34 - 1, 999_999_999))).to.deep.equal(new Date((2 ** 34 - 1) * 1000 + 999));
  });

  it('reads timestamp96: 32 bits of nanoseconds, then signed 64-bit seconds', () => {
    expect(reads(ts96(-1n, 0))).to.deep.equal(new Date(-1000));
    // Nanoseconds are added to the (negative) seconds: -1 s + 0.5 s.
    expect(reads(ts96(-1n, 500_000_000))).to.deep.equal(new Date(-500));
    expect(reads(ts96(-14182940n, 1_000_000))).to.deep.equal(new Date('1969-07-20T20:17:40.001Z'));
    expect(reads(ts96(2n ** 34n, 0))).to.deep.equal(new Date('2514-05-30T01:53:04Z'));
    expect(reads(ts96(253402300799n, 999_000_000))).to.deep.equal(new Date('9999-12-31T23:59:59.999Z'));
    expect(reads(ts96(-62135596800n, 0))).to.deep.equal(new Date('0001-01-01T00:00:00Z'));
  });

  it('drops what is finer than a millisecond, towards the past', () => {
    expect(reads(ts64(1, 999_999))).to.deep.equal(new Date(1000));
    expect(reads(ts64(1, 1_999_999))).to.deep.equal(new Date(1001));
    expect(reads(ts96(-2n, 999_999_999))).to.deep.equal(new Date(-1001));
  });

  it('takes any extension head whose payload has one of the three lengths', () => {
    expect(reads(`c7 04 ff ${u32(7)}`)).to.deep.equal(new Date(7000)); // ext 8 of 4 bytes
    expect(reads(`c8 00 08 ${ts64(1, 1_000_000).slice(3)}`)).to.deep.equal(new Date(1001)); // ext 16 of 8 bytes
    expect(reads(`c9 00 00 00 0c ff ${u32(0)} ${i64(3n)}`)).to.deep.equal(new Date(3000)); // ext 32 of 12 bytes
  });

  it('reads what @msgpack/msgpack writes, in each of its forms (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(-MAX_MS), max: new Date(MAX_MS), noInvalidDate: true }), (date) => {
        expect(msgpack.decode(Stamped, msgpackJsEncode({ at: date }))).to.deep.equal({ at: date });
      }),
      { numRuns: 300 },
    );
  });

  it('a payload of another length is a syntax_error', () => {
    for (const item of [
      'd4 ff 00',
      'd5 ff 00 00',
      `d8 ff ${u32(0)} ${u32(0)} ${u32(0)} ${u32(0)}`,
      'c7 00 ff',
      `c7 05 ff ${u32(0)} 00`,
      `c7 0b ff ${'00 '.repeat(11)}`,
    ]) {
      const e = fails(item);
      expect(e.code, item).to.equal('syntax_error');
      expect(e.message, item).to.match(/timestamp \(extension -1\) holds 4, 8 or 12 bytes/);
      expect(e.errors, item).to.have.length(1);
    }
  });

  it('nanoseconds above 999999999 are a syntax_error, in both forms that carry them', () => {
    for (const item of [ts64(0, 1_000_000_000), ts64(5, 2 ** 30 - 1), ts96(0n, 1_000_000_000), ts96(0n, 2 ** 32 - 1)]) {
      const e = fails(item);
      expect(e.code, item).to.equal('syntax_error');
      expect(e.message, item).to.contain('nanoseconds');
    }
    expect(reads(ts96(0n, 999_999_999))).to.deep.equal(new Date(999));
  });

  it('a truncated timestamp is a syntax_error at its place', () => {
    for (const cut of ['d6 ff 00 00 00', 'd7 ff 00', 'c7 0c ff 00 00 00 00', 'd6', 'c7 0c']) {
      const e = readErrorOf(() => msgpack.decode(Stamped, inMsgpack(cut)));
      expect([e.code, e.path], cut).to.deep.equal(['syntax_error', '/at']);
    }
  });

  it('a malformed timestamp is a syntax_error also where nothing reads it', () => {
    const Pair = t.object({ a: t.i32() });
    const input = bytes('82 a1 61 01 a4 6a 75 6e 6b d4 ff 00'); // { a: 1, junk: <fixext 1 of type -1> }
    const e = readErrorOf(() => msgpack.decode(Pair, input, { errorOnUnknownKeys: false }));
    expect([e.code, e.path]).to.deep.equal(['syntax_error', '/junk']);
    // The same entry well formed is dropped, as any unknown member is.
    expect(
      msgpack.decode(Pair, bytes(`82 a1 61 01 a4 6a 75 6e 6b ${ts32(1)}`), { errorOnUnknownKeys: false }),
    ).to.deep.equal({ a: 1 });
  });

  it('an instant a Date cannot hold is out_of_range at its path, naming the seconds', () => {
    const edge = 8_640_000_000_000n; // ±8.64e15 ms: the edges are Dates
    expect(reads(ts96(edge, 0))).to.deep.equal(new Date(MAX_MS));
    expect(reads(ts96(-edge, 0))).to.deep.equal(new Date(-MAX_MS));
    expect(reads(ts96(edge, 999_999))).to.deep.equal(new Date(MAX_MS));
    for (const [seconds, nanos] of [
      [edge + 1n, 0],
      [edge, 1_000_000],
      [-edge - 1n, 999_999_999],
      [2n ** 62n, 0],
      [-(2n ** 63n), 0],
      [2n ** 63n - 1n, 5],
    ] as const) {
      const e = readErrorOf(() => msgpack.decode(Stamped, inMsgpack(ts96(seconds, nanos))));
      expect([e.code, e.path], String(seconds)).to.deep.equal(['out_of_range', '/at']);
      expect(e.message).to.contain(`${seconds} seconds`);
      expect(e.message).to.contain('outside the range of a Date');
    }
  });

  it('an out-of-range timestamp in an array is reported at its index, with every other one', () => {
    const e = readErrorOf(() =>
      msgpack.decode(t.array(t.timestamp()), bytes(`93 ${ts32(1)} ${ts96(2n ** 60n, 0)} ${ts96(-(2n ** 60n), 0)}`)),
    );
    expect([e.code, e.path]).to.deep.equal(['out_of_range', '/1']);
    expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([
      ['out_of_range', '/1'],
      ['out_of_range', '/2'],
    ]);
  });

  it('other extension types stay a type_mismatch', () => {
    for (const item of ['d4 01 00', 'd6 05 00 00 00 00', `c7 0c 02 ${'00 '.repeat(12)}`]) {
      const e = fails(item);
      expect(e.code, item).to.equal('type_mismatch');
      expect(e.message).to.contain('extension type');
    }
  });

  it('a timestamp where another kind is expected is a type_mismatch naming a timestamp', () => {
    for (const type of [t.string(), t.i64(), t.f64(), t.bytes(), t.array(t.i32()), t.map(t.i32()), t.object({})]) {
      const e = readErrorOf(() => msgpack.decode(t.object({ at: type }), inMsgpack(ts32(1))));
      expect([e.code, e.path], type.kind).to.deep.equal(['type_mismatch', '/at']);
      expect(e.message, type.kind).to.contain('a timestamp');
    }
  });

  it('a timestamp as a map key is a type_mismatch', () => {
    const e = readErrorOf(() => msgpack.decode(t.map(t.i32()), bytes(`81 ${ts32(1)} 01`)));
    expect(e.code).to.equal('type_mismatch');
  });

  it('t.unknown reads a timestamp as a Date, and an out-of-range one as out_of_range', () => {
    expect(msgpack.decode(t.unknown(), bytes(`92 ${ts32(1)} ${ts96(-1n, 0)}`))).to.deep.equal([
      new Date(1000),
      new Date(-1000),
    ]);
    const e = readErrorOf(() => msgpack.decode(t.unknown(), bytes(`81 a1 78 ${ts96(2n ** 62n, 0)}`)));
    expect([e.code, e.path]).to.deep.equal(['out_of_range', '/x']);
  });

  it('the parser builds a WireTimestamp, with milliseconds outside a Date kept', () => {
    expect(parseMsgpack(bytes(ts32(2)), 64)).to.deep.equal(new WireTimestamp(2000, '2 seconds from the epoch'));
    const far = parseMsgpack(bytes(ts96(2n ** 62n, 0)), 64) as WireTimestamp;
    expect(far).to.be.instanceOf(WireTimestamp);
    expect(far.ms).to.equal(2 ** 62 * 1000);
  });
});

describe('codecs/cbor: timestamps (tags 1 and 0)', () => {
  const reads = (item: string) => cbor.decode(t.timestamp(), bytes(item));
  const fails = (item: string) => readErrorOf(() => cbor.decode(t.timestamp(), bytes(item)));

  it('reads tag 1 over an integer of every width, positive and negative', () => {
    expect(reads('c1 00')).to.deep.equal(new Date(0));
    expect(reads('c1 1a 51 4b 67 b0')).to.deep.equal(new Date('2013-03-21T20:04:00Z'));
    expect(reads('c1 20')).to.deep.equal(new Date(-1000));
    expect(reads('c1 3a 00 d8 6a 1b')).to.deep.equal(new Date(-14182940000)); // 1969-07-20T20:17:40Z
    expect(reads('c1 1b 00 00 00 04 00 00 00 00')).to.deep.equal(new Date(2 ** 34 * 1000)); // 2514
    expect(reads('c1 3b 00 00 00 0e 77 91 f6 ff')).to.deep.equal(new Date('0001-01-01T00:00:00Z'));
  });

  it('reads tag 1 over a float of every width, to the nearest millisecond', () => {
    expect(reads('c1 fb 41 d4 52 d9 ec 20 00 00')).to.deep.equal(new Date(1363896240500));
    expect(reads(`c1 fb ${f64(-1.0015)}`)).to.deep.equal(new Date(-1001)); // -1001.4999…
    expect(reads(`c1 fb ${f64(1714566896.123)}`)).to.deep.equal(new Date('2024-05-01T12:34:56.123Z'));
    expect(reads('c1 fa 3f c0 00 00')).to.deep.equal(new Date(1500)); // binary32 1.5
    expect(reads('c1 f9 3c 00')).to.deep.equal(new Date(1000)); // binary16 1.0
    expect(reads('c1 f9 80 00')).to.deep.equal(new Date(0)); // -0
  });

  it('reads tag 1 over a bignum (tags 2 and 3)', () => {
    expect(reads('c1 c2 41 05')).to.deep.equal(new Date(5000));
    expect(reads('c1 c3 41 05')).to.deep.equal(new Date(-6000));
    expect(reads('c1 c2 5f 41 05 ff')).to.deep.equal(new Date(5000)); // in chunks
  });

  it('reads tag 0 over RFC 3339 text, dropping what is finer than a millisecond', () => {
    expect(reads('c0 74 32 30 31 33 2d 30 33 2d 32 31 54 32 30 3a 30 34 3a 30 30 5a')).to.deep.equal(
      new Date('2013-03-21T20:04:00Z'),
    );
    const text = (s: string) => `c0 ${hex(cbor.encode(t.string(), s))}`;
    expect(reads(text('2024-05-01T12:34:56.123456+02:00'))).to.deep.equal(new Date('2024-05-01T10:34:56.123Z'));
    expect(reads(text('1900-01-01T00:00:00.001Z'))).to.deep.equal(new Date('1900-01-01T00:00:00.001Z'));
    expect(reads(text('9999-12-31T23:59:59.999Z'))).to.deep.equal(new Date('9999-12-31T23:59:59.999Z'));
  });

  it('a tag before the timestamp tag changes nothing (self-described CBOR)', () => {
    expect(reads('d9 d9 f7 c1 01')).to.deep.equal(new Date(1000));
    expect(reads('c1 d8 37 01')).to.deep.equal(new Date(1000));
  });

  it('reads what node-cbor and cbor-x write for Dates (property)', () => {
    const cborX = new CborXEncoder({ useRecords: false, mapsAsObjects: true });
    // Both write seconds as a float64, which holds every millisecond of years -9999 to 9999 (not
    // of all 275760 years a Date reaches).
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('-009999-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59.999Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(cbor.decode(Stamped, cborLibEncode({ at: date }))).to.deep.equal({ at: date });
          expect(cbor.decode(Stamped, cborX.encode({ at: date }))).to.deep.equal({ at: date });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tag 1 over anything but a finite number is a syntax_error', () => {
    for (const item of [
      'c1 60',
      'c1 41 00',
      'c1 80',
      'c1 a0',
      'c1 f6',
      'c1 f7',
      'c1 f5',
      'c1 f9 7e 00',
      'c1 f9 7c 00',
      'c1 fb 7f f0 00 00 00 00 00 00',
      'c1 fa ff 80 00 00',
    ]) {
      const e = fails(item);
      expect(e.code, item).to.equal('syntax_error');
      expect(e.message, item).to.contain('tag 1');
      expect(e.errors, item).to.have.length(1);
    }
  });

  it('tag 0 over anything but RFC 3339 text is a syntax_error', () => {
    const text = (s: string) => `c0 ${hex(cbor.encode(t.string(), s))}`;
    for (const item of [
      'c0 00',
      'c0 41 00',
      'c0 f6',
      text(''),
      text('2024-05-01'),
      text('2024-05-01T25:00:00Z'),
      text('2024-02-30T00:00:00Z'),
      text('1714566896'),
    ]) {
      const e = fails(item);
      expect(e.code, item).to.equal('syntax_error');
      expect(e.message, item).to.contain('tag 0');
    }
  });

  it('a timestamp tag inside a timestamp tag is a syntax_error, at once however long the chain', () => {
    for (const item of ['c1 c1 00', 'c0 c1 00', 'c1 d8 37 c0 60'])
      expect(fails(item).code, item).to.equal('syntax_error');
    expect(fails('c1 '.repeat(100_000) + '00').code).to.equal('syntax_error');
  });

  it('a truncated timestamp is a syntax_error at its place', () => {
    for (const cut of ['c1', 'c1 1a 00', 'c1 fb 00 00', 'c0 62 61']) {
      const e = readErrorOf(() => cbor.decode(Stamped, inCbor(cut)));
      expect([e.code, e.path], cut).to.deep.equal(['syntax_error', '/at']);
    }
  });

  it('an instant a Date cannot hold is out_of_range at its path', () => {
    expect(reads('c1 1b 00 00 07 db a8 21 80 00')).to.deep.equal(new Date(MAX_MS)); // 8.64e12 s
    const cases = [
      'c1 1b 00 00 07 db a8 21 80 01', // 8.64e12 + 1 s
      'c1 3b 00 00 07 db a8 21 80 00', // -8.64e12 - 1 s
      'c1 1b ff ff ff ff ff ff ff ff', // 2^64 - 1 s: a bigint
      `c1 fb ${f64(1e13)}`,
      `c1 fb ${f64(-1e300)}`,
      'c1 c2 49 01 00 00 00 00 00 00 00 00', // 2^64 s
      `c1 c3 58 81 01 ${'00 '.repeat(128)}`, // a bignum beyond every double
    ];
    for (const item of cases) {
      const e = readErrorOf(() => cbor.decode(Stamped, inCbor(item)));
      expect([e.code, e.path], item).to.deep.equal(['out_of_range', '/at']);
      expect(e.message, item).to.contain('seconds from the epoch');
    }
  });

  it('a timestamp where another kind is expected is a type_mismatch, tag 0 included', () => {
    for (const item of ['c1 01', 'c0 74 32 30 31 33 2d 30 33 2d 32 31 54 32 30 3a 30 34 3a 30 30 5a']) {
      for (const type of [t.string(), t.i64(), t.f64()]) {
        const e = readErrorOf(() => cbor.decode(t.object({ at: type }), inCbor(item)));
        expect([e.code, e.path], `${type.kind} ${item}`).to.deep.equal(['type_mismatch', '/at']);
        expect(e.message).to.contain('a timestamp');
      }
    }
    expect(readErrorOf(() => cbor.decode(t.map(t.i32()), bytes('a1 c1 01 01'))).code).to.equal('type_mismatch');
  });

  it('other tags stay transparent', () => {
    expect(cbor.decode(t.string(), bytes('d8 20 61 61'))).to.equal('a'); // tag 32 (URI)
    expect(cbor.decode(t.u8(), bytes('c6 01'))).to.equal(1);
  });

  it('t.unknown reads tags 1 and 0 as Dates', () => {
    expect(
      cbor.decode(t.unknown(), bytes('82 c1 01 c0 74 32 30 31 33 2d 30 33 2d 32 31 54 32 30 3a 30 34 3a 30 30 5a')),
    ).to.deep.equal([new Date(1000), new Date('2013-03-21T20:04:00Z')]);
  });

  it('the parser builds a WireTimestamp', () => {
    expect(parseCbor(bytes('c1 fb 3f f8 00 00 00 00 00 00'), 64)).to.deep.equal(
      new WireTimestamp(1500, '1.5 seconds from the epoch'),
    );
    expect(parseCbor(bytes('c0 74 32 30 31 33 2d 30 33 2d 32 31 54 32 30 3a 30 34 3a 30 30 5a'), 64)).to.deep.equal(
      new WireTimestamp(Date.UTC(2013, 2, 21, 20, 4), '2013-03-21T20:04:00Z'),
    );
  });
});

describe('codecs/msgpack and cbor: the tree guided by a descriptor with timestamps', () => {
  const outcome = (read: () => unknown) => decodeOutcome(read);
  const Row = t.object({ at: t.timestamp(), seen: t.array(t.timestamp()), any: t.optional(t.unknown()) });
  const types: Type[] = [t.timestamp(), t.array(t.timestamp()), Row, t.unknown(), t.object({ n: t.i32() })];
  const inputs = [
    {
      parse: parseMsgpack,
      items: [ts32(1), ts64(5, 1_000_000), ts96(-5n, 0), ts96(2n ** 62n, 0), 'd4 ff 00', '92 c0 d6 ff 00 00 00 01'],
    },
    {
      parse: parseCbor,
      items: [
        'c1 01',
        'c1 fb 3f f8 00 00 00 00 00 00',
        'c1 60',
        'c1 c2 49 01 00 00 00 00 00 00 00 00',
        '82 c1 00 c0 00',
      ],
    },
  ];

  it('gives what the whole tree gives, in every place', () => {
    for (const { parse, items } of inputs) {
      const wrap =
        parse === parseMsgpack
          ? (item: string) => [
              item,
              `91 ${item}`,
              `83 a2 61 74 ${item} a4 73 65 65 6e 91 ${item} a3 61 6e 79 ${item}`,
              `81 a1 6e ${item}`,
            ]
          : (item: string) => [
              item,
              `81 ${item}`,
              `a3 62 61 74 ${item} 64 73 65 65 6e 81 ${item} 63 61 6e 79 ${item}`,
              `a1 61 6e ${item}`,
            ];
      for (const item of items) {
        for (const input of wrap(item)) {
          for (const type of types) {
            for (const opts of [{}, { errorOnUnknownKeys: false }]) {
              const whole = outcome(() => readTree(type, parse(bytes(input), 64, undefined, Infinity), opts, 'binary'));
              const guided = outcome(() => readTree(type, parse(bytes(input), 64, type, Infinity), opts, 'binary'));
              expect(guided, `${type.kind} ${input}`).to.deep.equal(whole);
            }
          }
        }
      }
    }
  });
});
