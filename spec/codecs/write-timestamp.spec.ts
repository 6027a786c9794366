// t.timestamp() on write: RFC 3339 text in JSON, the timestamp extension (-1) in MessagePack in its
// smallest form, tag 1 in CBOR; the bytes are what msgpackr, @msgpack/msgpack, cbor-x and the cbor
// package read as the same instant.
import { expect } from 'chai';
import fc from 'fast-check';
import { decode as msgpackDecode } from '@msgpack/msgpack';
import { unpack } from 'msgpackr';
import { decode as cborxDecode } from 'cbor-x';
import cborPackage from 'cbor';
import { t } from '../../index.ts';
import { DATE_TIME_RANGE, DATE_TIME_TEXT_RANGE } from '../../core/kinds/formats.ts';
import { TIMESTAMP } from '../../core/kinds/timestamp.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { expectGeneratedWrites, expectWriteError, expectWritten, hex, writeEveryWay } from '../support/write-paths.ts';

const T = t.timestamp();
const at = (ms: number) => new Date(ms);
const TWO_32 = 2 ** 32;
const TWO_34 = 2 ** 34;

/** Instants around every boundary of the wire forms, before 1970, after 2106 and 2514, with and without milliseconds. */
const EDGES = [
  0,
  1,
  -1,
  999,
  -999,
  -1000,
  1000,
  1_700_000_000_000,
  1_700_000_000_123,
  -1_700_000_000_123,
  (TWO_32 - 1) * 1000,
  TWO_32 * 1000,
  TWO_32 * 1000 + 1,
  (TWO_34 - 1) * 1000 + 999,
  TWO_34 * 1000,
  TWO_34 * 1000 + 1,
  -TWO_32 * 1000,
  -TWO_32 * 1000 - 1000,
  Date.UTC(2600, 0, 1, 0, 0, 0, 7),
  Date.UTC(-2000, 0, 1, 0, 0, 0, 7),
  DATE_TIME_RANGE[0],
  DATE_TIME_RANGE[1],
  8.64e15,
  -8.64e15,
  8.64e15 - 1000,
  -8.64e15 + 1000,
];

describe('codecs: t.timestamp() on write', () => {
  describe('JSON', () => {
    it('writes RFC 3339 text in UTC with three fraction digits', () => {
      expect(expectWritten(T, at(Date.UTC(2024, 4, 1, 12, 0, 0, 5))).json).to.equal('"2024-05-01T12:00:00.005Z"');
      expect(expectWritten(T, at(0)).json).to.equal('"1970-01-01T00:00:00.000Z"');
      expect(expectWritten(T, at(DATE_TIME_RANGE[0])).json).to.equal('"0000-01-01T00:00:00.000Z"');
      expect(expectWritten(T, at(DATE_TIME_RANGE[1])).json).to.equal('"9999-12-31T23:59:59.999Z"');
      expect(expectWritten(t.object({ at: T }), { at: at(-1) }, { prettify: true }).json).to.equal(
        '{\n  "at": "1969-12-31T23:59:59.999Z"\n}',
      );
    });

    it('writes text that the RFC 3339 rule reads back to the same instant (property)', () => {
      fc.assert(
        fc.property(
          fc.date({ min: at(DATE_TIME_RANGE[0]), max: at(DATE_TIME_RANGE[1]), noInvalidDate: true }),
          (date) => {
            const text = expectWritten(T, date).json;
            expect(TIMESTAMP.fromText(JSON.parse(text))).to.equal(date.getTime());
          },
        ),
        { numRuns: 200 },
      );
    });

    it('refuses a Date no RFC 3339 text holds, outside years 0000-9999 at every offset (out_of_range); the binary formats write it', () => {
      for (const ms of [DATE_TIME_TEXT_RANGE[0] - 1, DATE_TIME_TEXT_RANGE[1] + 1, 8.64e15, -8.64e15]) {
        const date = at(ms);
        const all = writeEveryWay(t.object({ at: T }), { at: date });
        expect(all.json).to.deep.equal({
          error: {
            code: 'out_of_range',
            path: '/at',
            message: `${TIMESTAMP.textOutOfRange(date)} at /at`,
            key: undefined,
          },
        });
        expect(all.msgpack).to.have.property('out');
        expect(all.cbor).to.have.property('out');
      }
    });
  });

  it('refuses what is not a valid Date, in every codec (type_mismatch)', () => {
    const type = t.object({ at: T });
    expect(expectWriteError(type, { at: new Date(Number.NaN) }, 'type_mismatch', '/at')).to.equal(
      'cannot write an Invalid Date as a timestamp (a valid Date) at /at',
    );
    for (const bad of ['2024-05-01T12:00:00.000Z', 1_700_000_000_000, null, {}, { getTime: () => 0 }]) {
      expect(expectWriteError(type, { at: bad }, 'type_mismatch', '/at')).to.contain('as a timestamp (a valid Date)');
    }
    expectWriteError(type, {}, 'missing_key', '/at');
  });

  it('takes the generated path for valid Dates', () => {
    const type = t.object({ at: T, list: t.array(T), maybe: t.optional(T) });
    const value = { at: at(1_700_000_000_123), list: [at(0), at(-1), at(8.64e15)], maybe: at(TWO_34 * 1000) };
    expectGeneratedWrites(type, { ...value, list: [at(0), at(-1)] });
    // Every path writes the same bytes (expectWritten compares them); 8.64e15 is no RFC 3339 text.
    expect(msgpack.encode(type, value).length).to.be.greaterThan(0);
  });

  describe('MessagePack: the timestamp extension (-1), smallest form', () => {
    const bytes = (ms: number) => expectWritten(T, at(ms)).msgpack;

    it('timestamp 32 for whole seconds from 1970 to 2106', () => {
      expect(bytes(0)).to.equal('d6ff00000000');
      expect(bytes(1000)).to.equal('d6ff00000001');
      expect(bytes((TWO_32 - 1) * 1000)).to.equal('d6ffffffffff');
    });

    it('timestamp 64 for other instants from 1970 to 2514: nanoseconds << 34 | seconds', () => {
      expect(bytes(1)).to.equal('d7ff' + (1e6 * 4).toString(16).padStart(8, '0') + '00000000');
      expect(bytes(TWO_32 * 1000)).to.equal('d7ff0000000100000000');
      expect(bytes((TWO_34 - 1) * 1000 + 999)).to.equal('d7ff' + (999e6 * 4 + 3).toString(16) + 'ffffffff');
    });

    it('timestamp 96 before 1970 and from 2514: u32 nanoseconds, i64 seconds (floored)', () => {
      expect(bytes(TWO_34 * 1000)).to.equal('c70cff' + '00000000' + '0000000400000000');
      expect(bytes(-1000)).to.equal('c70cff' + '00000000' + 'ffffffffffffffff');
      // -1 ms is 999 ms after the second -1: the nanoseconds count forwards.
      expect(bytes(-1)).to.equal('c70cff' + (999e6).toString(16).padStart(8, '0') + 'ffffffffffffffff');
      expect(hex(msgpack.encode(T, at(-8.64e15)))).to.equal('c70cff00000000fffff82457de8000'); // no RFC 3339 text: JSON refuses it
    });

    it('is read as the same instant by msgpackr and @msgpack/msgpack', () => {
      const check = (ms: number) => {
        const b = msgpack.encode(T, at(ms));
        expect((unpack(b) as Date).getTime(), `msgpackr ${ms}`).to.equal(ms);
        expect((msgpackDecode(b) as Date).getTime(), `@msgpack/msgpack ${ms}`).to.equal(ms);
      };
      EDGES.forEach(check);
      fc.assert(
        fc.property(fc.date({ noInvalidDate: true }), (date) => check(date.getTime())),
        { numRuns: 500 },
      );
    });
  });

  describe('CBOR: tag 1, epoch seconds', () => {
    const bytes = (ms: number) => hex(cbor.encode(T, at(ms)));

    it('an integer for whole seconds within a 4-byte argument, else a float64', () => {
      expect(bytes(0)).to.equal('c100');
      expect(bytes(1000)).to.equal('c101');
      expect(bytes(-1000)).to.equal('c120');
      expect(bytes((TWO_32 - 1) * 1000)).to.equal('c11affffffff');
      expect(bytes(-TWO_32 * 1000)).to.equal('c13affffffff');
      // Beyond, and with milliseconds, the seconds are a float64 (exact for whole seconds).
      expect(bytes(TWO_32 * 1000)).to.equal('c1fb41f0000000000000');
      expect(bytes(-TWO_32 * 1000 - 1000)).to.equal('c1fbc1f0000000100000');
      expect(bytes(1500)).to.equal('c1fb3ff8000000000000');
      expect(bytes(-500)).to.equal('c1fbbfe0000000000000');
    });

    it('is read as the same instant by cbor-x and the cbor package, before 1970, after 2106 and 2514', () => {
      const check = (ms: number) => {
        const b = cbor.encode(T, at(ms));
        expect((cborxDecode(b) as Date).getTime(), `cbor-x ${ms}`).to.equal(ms);
        expect((cborPackage.decodeFirstSync(b) as Date).getTime(), `cbor ${ms}`).to.equal(ms);
      };
      EDGES.forEach(check);
      // Years -100,000 to 100,000: within them a float64 holds the seconds to well under a millisecond.
      const span = 100_000 * 365.25 * 86_400_000;
      fc.assert(
        fc.property(fc.date({ min: at(-span), max: at(span), noInvalidDate: true }), (date) => check(date.getTime())),
        { numRuns: 500 },
      );
    });
  });

  it('writes as the default of an absent member: the epoch only when given', () => {
    const type = t.object({ at: T.default(at(5)) });
    expect(expectWritten(type, {}).json).to.equal('{"at":"1970-01-01T00:00:00.005Z"}');
  });
});
