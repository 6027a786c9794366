// Constraints on write: every writer refuses what reading refuses, with the constraint rule's code
// and message, at the value's JSON Pointer; generated and closure writers agree.
import { expect } from 'chai';
import fc from 'fast-check';
import { t } from '../../../index.ts';
import { arrayRule, mapRule, numberRule, stringRule } from '../../../core/kinds/constraints.ts';
import { expectGeneratedWrites, expectWriteError, expectWritten, writeEveryWay } from '../../support/write-paths.ts';

describe('core/write: constraints', () => {
  describe('strings', () => {
    it('counts code points for minLength and maxLength', () => {
      const type = t.object({ s: t.string({ minLength: 2, maxLength: 3 }) });
      expect(expectWritten(type, { s: '😀😀' }).json).to.equal('{"s":"😀😀"}');
      expect(expectWritten(type, { s: 'abc' }).json).to.equal('{"s":"abc"}');
      expect(expectWriteError(type, { s: '😀' }, 'out_of_range', '/s')).to.equal(
        'a string of 1 character is shorter than minLength (2) at /s',
      );
      expect(expectWriteError(type, { s: 'abcd' }, 'out_of_range', '/s')).to.equal(
        'a string of 4 characters is longer than maxLength (3) at /s',
      );
      expect(expectWriteError(type, { s: '😀😀😀😀' }, 'out_of_range', '/s')).to.equal(
        'a string of 4 characters is longer than maxLength (3) at /s',
      );
    });

    it('checks each format', () => {
      const cases = [
        ['email', 'ann@example.com', 'ann@'],
        ['uuid', '0f8fad5b-d9cb-469f-a165-70867728950e', '0f8fad5b-d9cb-469f-a165'],
        ['uri', 'https://example.com/a?b#c', '/relative/path'],
        ['date-time', '2024-05-01T12:00:00Z', '2024-02-30T12:00:00Z'],
      ] as const;
      for (const [format, good, bad] of cases) {
        const type = t.object({ s: t.string({ format }) });
        expect(expectWritten(type, { s: good }).json).to.equal(`{"s":${JSON.stringify(good)}}`);
        const message = expectWriteError(type, { s: bad }, 'invalid_format', '/s');
        expect(message).to.equal(`${stringRule({ format }).failure(bad)!.detail} at /s`);
        expect(message).to.contain(`(format ${format})`);
      }
    });

    it('checks the pattern, after the lengths and the format', () => {
      const type = t.array(t.string({ maxLength: 5, format: 'email', pattern: '^a' }));
      expect(expectWritten(type, ['a@b.c']).json).to.equal('["a@b.c"]');
      expect(expectWriteError(type, ['b@b.c'], 'invalid_format', '/0')).to.equal(
        'the string does not match the pattern "^a" at /0',
      );
      // Too long and no email: the length speaks first; no email and not matching: the format.
      expect(expectWriteError(type, ['abcdef'], 'out_of_range', '/0')).to.contain('longer than maxLength (5)');
      expect(expectWriteError(type, ['bcd'], 'invalid_format', '/0')).to.contain('(format email)');
    });

    it('is still a string first: a number is a type_mismatch, a lone surrogate too', () => {
      const type = t.object({ s: t.string({ minLength: 1 }) });
      expectWriteError(type, { s: 5 }, 'type_mismatch', '/s');
      expectWriteError(type, { s: 'a\ud800' }, 'type_mismatch', '/s');
    });

    it('refuses exactly what the rule refuses, with its message (property)', () => {
      const arbConstraints = fc.record(
        {
          minLength: fc.integer({ min: 0, max: 4 }),
          maxLength: fc.integer({ min: 4, max: 8 }),
          pattern: fc.constantFrom('^[a-z]*$', 'b', '^.?.?$'),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(
          arbConstraints,
          fc.string({ maxLength: 10, unit: fc.constantFrom('a', 'b', 'Z', '😀', 'é') }),
          (c, s) => {
            const type = t.object({ s: t.string(c) });
            const failure = stringRule(c).failure(s);
            const all = writeEveryWay(type, { s });
            for (const o of Object.values(all)) {
              if (failure === undefined) expect(o).to.have.property('out');
              else
                expect(o).to.deep.include({
                  error: { code: failure.code, path: '/s', message: `${failure.detail} at /s`, key: undefined },
                });
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('numbers', () => {
    it('checks the bounds of integer kinds', () => {
      const type = t.object({
        n: t.i32({ minimum: -5, exclusiveMaximum: 10 }),
        m: t.u8({ exclusiveMinimum: 0, maximum: 9 }),
      });
      expect(expectWritten(type, { n: -5, m: 9 }).json).to.equal('{"n":-5,"m":9}');
      expect(expectWriteError(type, { n: -6, m: 1 }, 'out_of_range', '/n')).to.equal(
        '-6 is below the minimum (-5) at /n',
      );
      expect(expectWriteError(type, { n: 10, m: 1 }, 'out_of_range', '/n')).to.equal(
        '10 is not below exclusiveMaximum (10) at /n',
      );
      expect(expectWriteError(type, { n: 0, m: 0 }, 'out_of_range', '/m')).to.equal(
        '0 is not above exclusiveMinimum (0) at /m',
      );
      expect(expectWriteError(type, { n: 0, m: 10 }, 'out_of_range', '/m')).to.equal(
        '10 is above the maximum (9) at /m',
      );
      // The kind's own range and type come first.
      expect(expectWriteError(type, { n: 0, m: 300 }, 'out_of_range', '/m')).to.contain('u8');
      expectWriteError(type, { n: 1.5, m: 1 }, 'type_mismatch', '/n');
    });

    it('checks f64 bounds, and f32 bounds on the value rounded to float32, as reading does', () => {
      expect(expectWritten(t.f64({ maximum: 0.1 }), 0.1).json).to.equal('0.1');
      expect(expectWriteError(t.f64({ maximum: 0.1 }), 0.2, 'out_of_range', '')).to.equal(
        '0.2 is above the maximum (0.1) at the root',
      );
      // 0.1 reads as float32 0.10000000149011612, which is above 0.1: the writer refuses it too.
      const f32 = t.f32({ maximum: 0.1 });
      expect(expectWriteError(f32, 0.1, 'out_of_range', '')).to.equal(
        `${numberRule({ maximum: 0.1 }).failure(Math.fround(0.1))!.detail} at the root`,
      );
      expect(expectWritten(t.f32({ maximum: 0.5 }), 0.5).json).to.equal('0.5');
      expect(expectWritten(t.f32({ minimum: 0.1 }), 0.1).json).to.equal('0.1');
      expectWriteError(t.f64({ minimum: 0 }), Number.NaN, 'out_of_range', '');
    });

    it('compares 64-bit bounds as bigints, for bigints and safe-integer numbers', () => {
      const type = t.object({
        id: t.u64({ minimum: 2n ** 60n, maximum: 2n ** 64n - 2n }),
        d: t.i64({ exclusiveMinimum: -3, maximum: 3 }),
      });
      const written = expectWritten(type, { id: 2n ** 60n, d: 3 });
      expect(written.json).to.equal('{"id":1152921504606846976,"d":3}');
      expect(expectWriteError(type, { id: 2n ** 60n - 1n, d: 0n }, 'out_of_range', '/id')).to.equal(
        '1152921504606846975 is below the minimum (1152921504606846976) at /id',
      );
      expect(expectWriteError(type, { id: 2n ** 64n - 1n, d: 0n }, 'out_of_range', '/id')).to.equal(
        '18446744073709551615 is above the maximum (18446744073709551614) at /id',
      );
      expect(expectWriteError(type, { id: 2n ** 60n, d: -3 }, 'out_of_range', '/d')).to.equal(
        '-3 is not above exclusiveMinimum (-3) at /d',
      );
      expect(expectWriteError(type, { id: 2n ** 60n, d: 4n }, 'out_of_range', '/d')).to.equal(
        '4 is above the maximum (3) at /d',
      );
    });

    it('refuses exactly what the rule refuses (property)', () => {
      const arbBounds = fc.record(
        {
          minimum: fc.integer({ min: -100, max: 0 }),
          exclusiveMaximum: fc.integer({ min: 1, max: 100 }),
        },
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(
          arbBounds,
          fc.integer({ min: -150, max: 150 }),
          fc.constantFrom('i16', 'i32', 'i64', 'f32', 'f64'),
          (c, n, kind) => {
            const type = t.array(kind === 'i64' ? t.i64(c) : t[kind](c));
            const failure = numberRule(c).failure(kind === 'i64' ? BigInt(n) : n);
            for (const o of Object.values(writeEveryWay(type, [n]))) {
              if (failure === undefined) expect(o).to.have.property('out');
              else
                expect(o).to.deep.include({
                  error: { code: 'out_of_range', path: '/0', message: `${failure.detail} at /0`, key: undefined },
                });
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  it('generated writers check constraints inline, without handing valid values to the closures', () => {
    const type = t.object({
      s: t.string({ minLength: 1, pattern: '^[a-z]+$' }),
      plain: t.string(),
      n: t.i32({ minimum: 0 }),
      f: t.f32({ maximum: 1 }),
      d: t.f64({ exclusiveMinimum: 0 }),
      id: t.u64({ maximum: 2n ** 63n }),
      list: t.array(t.i8({ maximum: 3 }), { maxItems: 3 }),
    });
    const value = { s: 'abc', plain: 'x', n: 1, f: 0.5, d: 1.5, id: 2n ** 62n, list: [1, 2, 3] };
    expectGeneratedWrites(type, value);
    expect(expectWritten(type, value).json).to.equal(
      '{"s":"abc","plain":"x","n":1,"f":0.5,"d":1.5,"id":4611686018427387904,"list":[1,2,3]}',
    );
  });

  describe('arrays and maps', () => {
    it('checks an array length before its elements', () => {
      const type = t.object({ list: t.array(t.i32(), { minItems: 1, maxItems: 2 }) });
      expect(expectWritten(type, { list: [1, 2] }).json).to.equal('{"list":[1,2]}');
      expect(expectWriteError(type, { list: [] }, 'out_of_range', '/list')).to.equal(
        `${arrayRule({ minItems: 1 }).failure(0)!.detail} at /list`,
      );
      // Three bad elements: the length is what fails.
      expect(expectWriteError(type, { list: ['a', 'b', 'c'] }, 'out_of_range', '/list')).to.equal(
        'an array of 3 items has more than maxItems (2) at /list',
      );
      expectWriteError(type, { list: ['a'] }, 'type_mismatch', '/list/0');
    });

    it('counts the entries a map writes (not those whose value is undefined), before writing them', () => {
      const type = t.map(t.string(), { minProperties: 1, maxProperties: 2 });
      expect(expectWritten(type, { a: 'x', b: 'y', c: undefined }).json).to.equal('{"a":"x","b":"y"}');
      expect(expectWriteError(type, { a: undefined }, 'out_of_range', '')).to.equal(
        `${mapRule({ minProperties: 1 }).failure(0)!.detail} at the root`,
      );
      expect(expectWriteError(type, { a: 1, b: 2, c: 3 }, 'out_of_range', '')).to.equal(
        'a map of 3 entries has more than maxProperties (2) at the root',
      );
      expectWriteError(type, { a: 1 }, 'type_mismatch', '/a');
    });

    it('writes prettified JSON under the same checks', () => {
      const type = t.map(t.array(t.string({ minLength: 1 }), { maxItems: 1 }), { maxProperties: 1 });
      expect(expectWritten(type, { k: ['v'] }, { prettify: true }).json).to.equal('{\n  "k": [\n    "v"\n  ]\n}');
      expectWriteError(type, { k: [''] }, 'out_of_range', '/k/0', { prettify: true });
      expectWriteError(type, { k: ['a', 'b'] }, 'out_of_range', '/k', { prettify: true });
      expectWriteError(type, { k: ['a'], l: [] }, 'out_of_range', '', { prettify: true });
    });
  });
});
