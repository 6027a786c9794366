// Reading t.timestamp(), t.unknown() and t.i64({ json: 'string' }): from JSON text, and from a
// binary tree (what the MessagePack and CBOR parsers build, or plain JavaScript values).
import { expect } from 'chai';
import fc from 'fast-check';
import { t, standardSchema, type Type } from '../../../index.ts';
import { WireTimestamp } from '../../../core/kinds/timestamp.ts';
import { json } from '../../../codecs/json/index.ts';
import { readTree } from '../../../core/read/read.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { closureOutcome, generatedOutcome } from '../../support/read-outcome.ts';

const failure = (read: () => unknown) => {
  const e = readErrorOf(read);
  return [e.code, e.path, e.message];
};
const binary = <T extends Type>(type: T, tree: unknown): T['~out'] => readTree(type, tree, undefined, 'binary');

describe('core/read: t.timestamp()', () => {
  const Event = t.object({ at: t.timestamp() });

  describe('from JSON: RFC 3339 text', () => {
    it('reads a date-time as a Date, keeping milliseconds and dropping finer digits', () => {
      const { at } = json.decode(Event, '{"at":"2024-05-01T12:00:00.123456Z"}');
      expect(at).to.be.instanceOf(Date);
      expect(at.toISOString()).to.equal('2024-05-01T12:00:00.123Z');
    });

    it("takes what ajv-formats' date-time takes: offsets, a space or a lowercase t, a leap second", () => {
      const ms = (text: string) => json.decode(t.timestamp(), JSON.stringify(text)).getTime();
      expect(ms('2024-05-01T14:00:00+02:00')).to.equal(Date.UTC(2024, 4, 1, 12));
      expect(ms('2024-05-01 12:00:00z')).to.equal(Date.UTC(2024, 4, 1, 12));
      expect(ms('2024-05-01t12:00:00.5-0130')).to.equal(Date.UTC(2024, 4, 1, 13, 30, 0, 500));
      expect(ms('2015-06-30T23:59:60Z')).to.equal(Date.UTC(2015, 6, 1));
      expect(ms('0000-01-01T00:00:00Z')).to.equal(-62167219200000);
    });

    it('refuses anything else as a type_mismatch quoting the text', () => {
      for (const text of ['2024-05-01', '2024-02-30T00:00:00Z', '2024-05-01T24:00:00Z', 'yesterday', '']) {
        expect(failure(() => json.decode(Event, JSON.stringify({ at: text })))).to.deep.equal([
          'type_mismatch',
          '/at',
          `expected an RFC 3339 date-time, got ${JSON.stringify(text)} at /at`,
        ]);
      }
      expect(failure(() => json.decode(Event, '{"at":1714564800000}'))).to.deep.equal([
        'type_mismatch',
        '/at',
        'expected an RFC 3339 date-time, got the integer 1714564800000 at /at',
      ]);
      expect(
        readErrorOf(() => json.decode(Event, JSON.stringify({ at: `2024-05-01T12:00:00.${'1'.repeat(100)}` }))).message,
      ).to.equal(`expected an RFC 3339 date-time, got "2024-05-01T12:00:00.11111111111111111111"… at /at`);
    });

    it('an absent timestamp reads as the epoch, a fresh Date each time', () => {
      const a = json.decode(Event, '{}');
      const b = json.decode(Event, '{}');
      expect(a.at.getTime()).to.equal(0);
      expect(a.at).to.not.equal(b.at);
      expect(failure(() => json.decode(Event, '{}', { errorOnMissingKeys: true }))).to.deep.equal([
        'missing_key',
        '/at',
        "missing required key 'at' at the root",
      ]);
    });
  });

  describe('from a binary tree', () => {
    it('turns a WireTimestamp into a Date', () => {
      expect(binary(Event, { at: new WireTimestamp(1500, '1.5 seconds') }).at.getTime()).to.equal(1500);
      expect(binary(Event, { at: new WireTimestamp(-8.64e15, 'min') }).at.getTime()).to.equal(-8.64e15);
    });

    it('a WireTimestamp outside what a Date holds is out_of_range, shown as the parser found it', () => {
      expect(
        failure(() =>
          binary(Event, { at: new WireTimestamp(8.64e15 + 1, '8640000000000.001 seconds from the epoch') }),
        ),
      ).to.deep.equal([
        'out_of_range',
        '/at',
        '8640000000000.001 seconds from the epoch is outside the range of a Date (±8.64e15 ms from the epoch) at /at',
      ]);
    });

    it('takes a valid Date as a new Date; refuses an Invalid Date and text', () => {
      const date = new Date(42);
      const read = binary(Event, { at: date }).at;
      expect(read.getTime()).to.equal(42);
      expect(read).to.not.equal(date);
      expect(failure(() => binary(Event, { at: new Date(NaN) }))).to.deep.equal([
        'type_mismatch',
        '/at',
        'expected a timestamp (a valid Date), got an Invalid Date at /at',
      ]);
      expect(failure(() => binary(Event, { at: '2024-05-01T12:00:00Z' }))).to.deep.equal([
        'type_mismatch',
        '/at',
        'expected a timestamp (a valid Date), got a string at /at',
      ]);
    });

    it('a timestamp where something else is expected is a type_mismatch naming it, never an object', () => {
      const wire = new WireTimestamp(0, '0 seconds');
      expect(failure(() => binary(t.string(), wire))).to.deep.equal([
        'type_mismatch',
        '',
        'expected a string, got a timestamp at the root',
      ]);
      expect(failure(() => binary(t.i64(), new Date(0)))).to.deep.equal([
        'type_mismatch',
        '',
        'expected an integer (i64), got a timestamp at the root',
      ]);
      for (const opts of [{ errorOnUnknownKeys: false }, {}]) {
        const Loose = t.object({ a: t.optional(t.string()) });
        expect(failure(() => readTree(Loose, wire, opts, 'binary'))).to.deep.equal([
          'type_mismatch',
          '',
          'expected an object, got a timestamp at the root',
        ]);
        expect(failure(() => readTree(Loose, new Date(0), opts, 'binary'))).to.deep.equal([
          'type_mismatch',
          '',
          'expected an object, got a timestamp at the root',
        ]);
        expect(failure(() => readTree(t.map(t.u8()), wire, opts, 'binary'))).to.deep.equal([
          'type_mismatch',
          '',
          'expected an object (map), got a timestamp at the root',
        ]);
      }
    });

    it('Standard Schema validates Dates', () => {
      expect(standardSchema(Event)['~standard'].validate({ at: new Date(7) })).to.deep.equal({
        value: { at: new Date(7) },
      });
    });
  });
});

describe('core/read: t.unknown()', () => {
  const Envelope = t.object({ id: t.u8(), data: t.unknown() });

  describe('from JSON', () => {
    it('reads any JSON value as a copy, objects as plain objects with __proto__ as an own key', () => {
      const value = json.decode(
        Envelope,
        '{"id":1,"data":{"a":[1,"x",null,true,{"b":2.5}],"__proto__":{"polluted":true}}}',
      );
      expect(value.data).to.deep.equal({ a: [1, 'x', null, true, { b: 2.5 }], ['__proto__']: { polluted: true } });
      expect(Object.getPrototypeOf(value.data)).to.equal(Object.prototype);
      expect(Object.keys(value.data as object)).to.deep.equal(['a', '__proto__']);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('reads numbers as numbers, also where the exact parser ran for a 64-bit member', () => {
      const T = t.object({ big: t.i64(), data: t.unknown() });
      const value = json.decode(T, '{"big":9007199254740993,"data":[9007199254740993,1e400,2.0e20]}');
      expect(value.big).to.equal(9007199254740993n);
      expect(value.data).to.deep.equal([9007199254740992, Infinity, 2e20]);
      expect(json.decode(t.unknown(), '123456789012345678901234567890')).to.equal(1.2345678901234568e29);
    });

    it('refuses lone surrogates in strings and keys, at their path', () => {
      expect(failure(() => json.decode(Envelope, '{"id":1,"data":{"a":["\\ud800"]}}'))).to.deep.equal([
        'type_mismatch',
        '/data/a/0',
        'expected Unicode text, got a string holding a lone surrogate (U+D800 at index 0) at /data/a/0',
      ]);
      expect(failure(() => json.decode(Envelope, '{"id":1,"data":{"a":{"\\udc00":1}}}'))).to.deep.equal([
        'type_mismatch',
        '/data/a',
        'expected Unicode text as a key, got a string holding a lone surrogate (U+DC00 at index 0) at /data/a',
      ]);
    });

    it('its arrays and objects count toward maxDepth', () => {
      expect(json.decode(Envelope, '{"id":1,"data":[[1]]}', { maxDepth: 3 })).to.deep.equal({ id: 1, data: [[1]] });
      expect(failure(() => json.decode(Envelope, '{"id":1,"data":[[[1]]]}', { maxDepth: 3 }))).to.deep.equal([
        'limit_exceeded',
        '/data/0/0',
        'nesting deeper than maxDepth (3) at /data/0/0',
      ]);
      expect(json.decode(Envelope, '{"id":1,"data":"flat"}', { maxDepth: 1 })).to.deep.equal({ id: 1, data: 'flat' });
    });

    it('is nullable: null reads as null, an absent key is left out and never required', () => {
      expect(json.decode(Envelope, '{"id":1,"data":null}')).to.deep.equal({ id: 1, data: null });
      for (const errorOnMissingKeys of [false, true]) {
        const value = json.decode(Envelope, '{"id":1}', { errorOnMissingKeys });
        expect(Object.keys(value)).to.deep.equal(['id']);
      }
      expect(json.decode(t.object({ data: t.unknown().default('none') }), '{}')).to.deep.equal({ data: 'none' });
      expect(json.decode(t.tuple([t.unknown(), t.u8()]), '[{"x":1},2]')).to.deep.equal([{ x: 1 }, 2]);
    });
  });

  describe('from a binary tree', () => {
    it('keeps bigints, copies bytes, turns timestamps into Dates', () => {
      const bytes = new Uint8Array([1, 2]);
      const tree = {
        id: 1,
        data: {
          n: 2n ** 63n,
          b: bytes,
          at: new WireTimestamp(5, '0.005 seconds'),
          d: new Date(6),
          u: undefined,
          l: [undefined, NaN],
        },
      };
      const { data } = binary(Envelope, tree) as { data: Record<string, unknown> };
      expect(data).to.deep.equal({
        n: 2n ** 63n,
        b: new Uint8Array([1, 2]),
        at: new Date(5),
        d: new Date(6),
        l: [undefined, NaN],
      });
      expect(data.b).to.not.equal(bytes);
      expect(data.d).to.not.equal(tree.data.d);
    });

    it('refuses what no wire carries: functions, symbols, instances of classes, Invalid Dates', () => {
      expect(failure(() => binary(Envelope, { id: 1, data: { f: () => 1 } }))).to.deep.equal([
        'type_mismatch',
        '/data/f',
        'expected a value a codec carries (null, a boolean, a number, a string, bytes, a timestamp, an array or a plain object), got function at /data/f',
      ]);
      expect(readErrorOf(() => binary(Envelope, { id: 1, data: [Symbol('s')] })).path).to.equal('/data/0');
      expect(readErrorOf(() => binary(Envelope, { id: 1, data: new Map() })).message).to.match(
        /got an object \(Map\) at \/data$/,
      );
      expect(readErrorOf(() => binary(Envelope, { id: 1, data: new Date(NaN) })).message).to.match(
        /got an Invalid Date at \/data$/,
      );
      expect(failure(() => binary(Envelope, { id: 1, data: new WireTimestamp(1e16, 'far') }))).to.deep.equal([
        'out_of_range',
        '/data',
        'far is outside the range of a Date (±8.64e15 ms from the epoch) at /data',
      ]);
    });

    it('takes objects without a prototype', () => {
      const o = Object.create(null) as Record<string, unknown>;
      o.a = 1;
      expect(binary(t.unknown(), o)).to.deep.equal({ a: 1 });
    });
  });

  it('the generated path and the closure path agree', () => {
    const types: Type[] = [
      t.unknown(),
      Envelope,
      t.array(t.unknown()),
      t.object({ m: t.map(t.unknown()), o: t.optional(t.unknown()) }),
    ];
    const arbTree = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ id: fc.integer({ min: 0, max: 300 }), data: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        arbTree,
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom('json', 'binary' as const),
        (type, tree, maxDepth, source) => {
          expect(generatedOutcome(type, tree, { maxDepth }, source)).to.deep.equal(
            closureOutcome(type, tree, { maxDepth }, source),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("core/read: t.i64({ json: 'string' }) and t.u64", () => {
  const Id = t.object({ id: t.u64({ json: 'string' }) });

  it('takes the number or a string of decimal digits in JSON, range-checked', () => {
    expect(json.decode(Id, '{"id":"18446744073709551615"}')).to.deep.equal({ id: 2n ** 64n - 1n });
    expect(json.decode(Id, '{"id":42}')).to.deep.equal({ id: 42n });
    expect(json.decode(Id, '{"id":"0"}')).to.deep.equal({ id: 0n });
    expect(json.decode(t.i64({ json: 'string' }), '"-9223372036854775808"')).to.equal(-(2n ** 63n));
    expect(failure(() => json.decode(Id, '{"id":"18446744073709551616"}'))).to.deep.equal([
      'out_of_range',
      '/id',
      '"18446744073709551616" is outside u64 (0..18446744073709551615) at /id',
    ]);
    expect(failure(() => json.decode(Id, '{"id":"-1"}'))).to.deep.equal([
      'out_of_range',
      '/id',
      '"-1" is outside u64 (0..18446744073709551615) at /id',
    ]);
    expect(readErrorOf(() => json.decode(Id, JSON.stringify({ id: '9'.repeat(10_000) }))).message).to.equal(
      `"${'9'.repeat(40)}"… (10000 characters) is outside u64 (0..18446744073709551615) at /id`,
    );
  });

  it('refuses other text: signs, spaces, leading zeros, exponents, fractions', () => {
    for (const text of ['+1', ' 1', '1 ', '01', '1e3', '1.0', '', '-', '0x10', '١']) {
      expect(failure(() => json.decode(Id, JSON.stringify({ id: text })))).to.deep.equal([
        'type_mismatch',
        '/id',
        'expected an integer (u64), as a number or a string of decimal digits, got a string at /id',
      ]);
    }
  });

  it('checks its bounds on either form', () => {
    const T = t.i64({ json: 'string', minimum: -5, maximum: 5 });
    expect(json.decode(T, '"-5"')).to.equal(-5n);
    expect(failure(() => json.decode(T, '"6"'))).to.deep.equal([
      'out_of_range',
      '',
      '6 is above the maximum (5) at the root',
    ]);
    expect(failure(() => json.decode(T, '-6'))).to.deep.equal([
      'out_of_range',
      '',
      '-6 is below the minimum (-5) at the root',
    ]);
  });

  it('a binary tree holds native integers only: a string is a type_mismatch', () => {
    expect(binary(Id, { id: 5n })).to.deep.equal({ id: 5n });
    expect(failure(() => binary(Id, { id: '5' }))).to.deep.equal([
      'type_mismatch',
      '/id',
      'expected an integer (u64), got a string at /id',
    ]);
  });

  it('a JSON-number 64-bit member still refuses a string', () => {
    expect(failure(() => json.decode(t.u64(), '"5"'))).to.deep.equal([
      'type_mismatch',
      '',
      'expected an integer (u64), got a string at the root',
    ]);
  });
});
