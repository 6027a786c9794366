// Constraints on reading: strings, every number kind, array lengths and map entry counts, each
// with its code and message, on the generated path and the closure path alike.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { readTree } from '../../../core/read/read.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { closureOutcome, generatedOutcome } from '../../support/read-outcome.ts';

const failure = (read: () => unknown) => {
  const e = readErrorOf(read);
  return [e.code, e.path, e.message];
};
const decode = (type: Type, value: unknown) => json.decode(type, JSON.stringify(value));

describe('core/read: constraints', () => {
  describe('strings', () => {
    it('minLength and maxLength count code points: out_of_range', () => {
      const Name = t.string({ minLength: 2, maxLength: 3 });
      expect(decode(Name, 'ab')).to.equal('ab');
      expect(decode(Name, '😀😀😀')).to.equal('😀😀😀'); // 6 UTF-16 units, 3 characters
      expect(failure(() => decode(Name, 'a'))).to.deep.equal([
        'out_of_range',
        '',
        'a string of 1 character is shorter than minLength (2) at the root',
      ]);
      expect(failure(() => decode(t.object({ n: Name }), { n: 'abcd' }))).to.deep.equal([
        'out_of_range',
        '/n',
        'a string of 4 characters is longer than maxLength (3) at /n',
      ]);
      expect(failure(() => decode(Name, '😀'))).to.deep.equal([
        'out_of_range',
        '',
        'a string of 1 character is shorter than minLength (2) at the root',
      ]);
    });

    it('a pattern that does not match is invalid_format; it matches anywhere unless anchored', () => {
      const Code = t.string({ pattern: '[0-9]{3}' });
      expect(decode(Code, 'ab123')).to.equal('ab123');
      expect(failure(() => decode(Code, 'ab12'))).to.deep.equal([
        'invalid_format',
        '',
        'the string does not match the pattern "[0-9]{3}" at the root',
      ]);
      expect(decode(t.string({ pattern: '^\\p{Lu}' }), 'Éa')).to.equal('Éa');
    });

    it('each format is checked: invalid_format naming it', () => {
      const cases: [string, string, string, string][] = [
        ['email', 'ann@example.com', 'ann@', 'expected an email address (format email)'],
        ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567', 'expected a UUID (format uuid)'],
        ['uri', 'https://example.com/a?b#c', '/relative', 'expected an absolute URI (format uri)'],
        ['date-time', '2024-05-01T12:00:00Z', '2024-05-01', 'expected an RFC 3339 date-time (format date-time)'],
      ];
      for (const [format, good, bad, message] of cases) {
        const T = t.string({ format: format as 'email' });
        expect(decode(T, good)).to.equal(good);
        expect(failure(() => decode(T, bad))).to.deep.equal(['invalid_format', '', `${message} at the root`]);
      }
    });

    it('checks the lengths first, then the format, then the pattern', () => {
      const T = t.string({ maxLength: 5, format: 'email', pattern: '^z' });
      expect(readErrorOf(() => decode(T, 'a@b.co.uk')).message).to.match(/longer than maxLength/);
      expect(readErrorOf(() => decode(T, 'a@b')).message).to.match(/format email/);
      expect(readErrorOf(() => decode(T, 'a@b.c')).message).to.match(/pattern/);
    });

    it('the kind comes first: a number where a constrained string is expected is a type_mismatch', () => {
      expect(failure(() => decode(t.string({ minLength: 1 }), 5))).to.deep.equal([
        'type_mismatch',
        '',
        'expected a string, got the integer 5 at the root',
      ]);
    });
  });

  describe('numbers', () => {
    it('integers: each bound, inclusive or exclusive, out_of_range with the bound in the message', () => {
      const T = t.i32({ minimum: -5, exclusiveMaximum: 10 });
      expect(decode(T, -5)).to.equal(-5);
      expect(decode(T, 9)).to.equal(9);
      expect(failure(() => decode(T, -6))).to.deep.equal([
        'out_of_range',
        '',
        '-6 is below the minimum (-5) at the root',
      ]);
      expect(failure(() => decode(T, 10))).to.deep.equal([
        'out_of_range',
        '',
        '10 is not below exclusiveMaximum (10) at the root',
      ]);
      const U = t.u8({ exclusiveMinimum: 1, maximum: 3 });
      expect(failure(() => decode(U, 1))).to.deep.equal([
        'out_of_range',
        '',
        '1 is not above exclusiveMinimum (1) at the root',
      ]);
      expect(failure(() => decode(U, 4))).to.deep.equal(['out_of_range', '', '4 is above the maximum (3) at the root']);
    });

    it("the kind's own range comes first", () => {
      expect(failure(() => decode(t.u8({ maximum: 3 }), 300))).to.deep.equal([
        'out_of_range',
        '',
        '300 is outside u8 (0..255) at the root',
      ]);
      expect(failure(() => decode(t.u8({ maximum: 3 }), 1.5))).to.deep.equal([
        'type_mismatch',
        '',
        'expected an integer (u8), got the number 1.5 at the root',
      ]);
    });

    it('f32 is checked after rounding to float32', () => {
      // 0.1 rounds up to 0.10000000149011612 in float32.
      expect(failure(() => decode(t.f32({ maximum: 0.1 }), 0.1))).to.deep.equal([
        'out_of_range',
        '',
        '0.10000000149011612 is above the maximum (0.1) at the root',
      ]);
      expect(decode(t.f32({ maximum: Math.fround(0.1) }), 0.1)).to.equal(Math.fround(0.1));
      expect(decode(t.f64({ maximum: 0.1 }), 0.1)).to.equal(0.1);
      expect(failure(() => decode(t.f64({ exclusiveMinimum: 0 }), 0))).to.deep.equal([
        'out_of_range',
        '',
        '0 is not above exclusiveMinimum (0) at the root',
      ]);
    });

    it('i64 and u64 compare as bigints, exactly, beyond 2^53', () => {
      const T = t.i64({ maximum: 2n ** 60n + 1n });
      expect(json.decode(T, String(2n ** 60n + 1n))).to.equal(2n ** 60n + 1n);
      expect(failure(() => json.decode(T, String(2n ** 60n + 2n)))).to.deep.equal([
        'out_of_range',
        '',
        `${2n ** 60n + 2n} is above the maximum (${2n ** 60n + 1n}) at the root`,
      ]);
      expect(readTree(t.u64({ minimum: 10 }), 10n, undefined, 'binary')).to.equal(10n);
      expect(failure(() => readTree(t.u64({ minimum: 10 }), 9, undefined, 'binary'))).to.deep.equal([
        'out_of_range',
        '',
        '9 is below the minimum (10) at the root',
      ]);
    });
  });

  describe('arrays and maps', () => {
    it("an array's length is checked before any element is read", () => {
      const T = t.array(t.u8(), { minItems: 1, maxItems: 2 });
      expect(decode(T, [1, 2])).to.deep.equal([1, 2]);
      expect(failure(() => decode(T, []))).to.deep.equal([
        'out_of_range',
        '',
        'an array of 0 items has fewer than minItems (1) at the root',
      ]);
      expect(failure(() => decode(T, [1, 'x', 3]))).to.deep.equal([
        'out_of_range',
        '',
        'an array of 3 items has more than maxItems (2) at the root',
      ]);
    });

    it("a map's entry count is checked before any entry is read", () => {
      const T = t.object({ tags: t.map(t.string(), { minProperties: 1, maxProperties: 2 }) });
      expect(decode(T, { tags: { a: 'x' } })).to.deep.equal({ tags: { a: 'x' } });
      expect(failure(() => decode(T, { tags: {} }))).to.deep.equal([
        'out_of_range',
        '/tags',
        'a map of 0 entries has fewer than minProperties (1) at /tags',
      ]);
      expect(failure(() => decode(T, { tags: { a: 1, b: 2, c: 3 } }))).to.deep.equal([
        'out_of_range',
        '/tags',
        'a map of 3 entries has more than maxProperties (2) at /tags',
      ]);
    });
  });

  it('the generated path and the closure path give the same value or the same error', () => {
    const types: Type[] = [
      t.string({ minLength: 1, maxLength: 4 }),
      t.string({ pattern: '^[a-z]+$', maxLength: 6 }),
      t.string({ format: 'email' }),
      t.i8({ minimum: -3, exclusiveMaximum: 4 }),
      t.u32({ exclusiveMinimum: 7 }),
      t.f32({ minimum: -1.5, maximum: 0.1 }),
      t.f64({ exclusiveMinimum: 0, exclusiveMaximum: 1 }),
      t.i64({ minimum: -3, maximum: 2n ** 62n }),
      t.u64({ json: 'string', maximum: 1000 }),
      t.array(t.u8({ maximum: 9 }), { minItems: 1, maxItems: 3 }),
      t.map(t.string({ maxLength: 2 }), { maxProperties: 2 }),
      t.object({ a: t.array(t.i16({ minimum: 0 }), { maxItems: 2 }), b: t.optional(t.string({ minLength: 2 })) }),
    ];
    const arbScalar = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom('a@b.co', 'x@', 'abc', 'ABC', '', '😀', '12', '-1', '1001'),
      fc.integer({ min: -10, max: 20 }),
      fc.double({ min: -3, max: 3, noNaN: true }),
      fc.constantFrom(0.1, -0, 2 ** 62, 2 ** 53 + 2, 1e300),
      fc.constant(null),
      fc.boolean(),
    );
    const arbTree = fc.oneof(
      arbScalar,
      fc.array(arbScalar, { maxLength: 4 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), arbScalar, { maxKeys: 3 }),
      fc.record({ a: fc.array(arbScalar, { maxLength: 3 }), b: arbScalar }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        arbTree,
        fc.constantFrom('json', 'binary' as const),
        (type, tree, source) => {
          expect(generatedOutcome(type, tree, undefined, source)).to.deep.equal(
            closureOutcome(type, tree, undefined, source),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});
