// JSON Schema of t.variant, t.lazy, t.timestamp, t.unknown, constraints, descriptions and 64-bit
// integers as JSON strings. The rule of spec/core/read-write-properties.spec.ts holds for each: an independent
// validator (ajv, with ajv-formats asserting `format`) accepts a JSON value exactly when
// `json.decode` does, under the same reading options.
import { expect } from 'chai';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { jsonSchema, ReadError, t, type JsonSchema, type Opts, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { decimalRangePattern } from '../../../core/schema/decimal-range.ts';
import { MAX_F32 } from '../../../core/kinds/ranges.ts';

// ownProperties: a key like `constructor` counts only when the document has it, as in lacquer.
const ajv = new Ajv2020({ strict: false, ownProperties: true, validateFormats: true });
addFormats.default(ajv);

/** Whether json.decode reads the JSON text of `value`. */
function lacquerAccepts(type: Type, value: unknown, opts: Opts): boolean {
  try {
    json.decode(type, JSON.stringify(value), opts);
    return true;
  } catch (e) {
    if (!(e instanceof ReadError)) throw e;
    return false;
  }
}

/** Checks the rule for one value; returns whether it was accepted. */
function agrees(type: Type, value: unknown, opts: Opts = {}): boolean {
  const schema = jsonSchema(type, opts);
  const validatorAccepts = ajv.validate(schema, value);
  const accepted = lacquerAccepts(type, value, opts);
  expect(
    accepted,
    `${JSON.stringify(value)} against ${JSON.stringify(schema)}: ${JSON.stringify(ajv.errors)}`,
  ).to.equal(validatorAccepts);
  return accepted;
}

/** Runs `agrees` over `cases`, and checks both answers were seen often enough to mean something. */
function assertAgreement(cases: fc.Arbitrary<{ type: Type; value: unknown; opts?: Opts }>, numRuns = 400): void {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(cases, ({ type, value, opts }) => {
      if (agrees(type, value, opts)) accepted++;
      else refused++;
      // Seeded: the counts below are of one sample, and a random one now and then holds too few of a side.
    }),
    { numRuns, seed: 20261123 },
  );
  expect(accepted, 'values accepted').to.be.greaterThan(numRuns / 20);
  expect(refused, 'values refused').to.be.greaterThan(numRuns / 20);
}

const arbOpts: fc.Arbitrary<Opts> = fc.record({ errorOnMissingKeys: fc.boolean(), errorOnUnknownKeys: fc.boolean() });

/** Any small JSON value, for the places where input is plain wrong. */
const arbAnyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'x', [], {}, '2024-05-01T12:00:00Z'),
  fc.jsonValue({ maxDepth: 2 }),
);

// ---- Doubles and float32s next to a number --------------------------------------------------------

const f64 = new Float64Array(1);
const f64Bits = new BigInt64Array(f64.buffer);
const f32 = new Float32Array(1);
const f32Bits = new Int32Array(f32.buffer);

/** The double `steps` doubles away from `x` (finite, non-zero). */
function doubleStep(x: number, steps: number): number {
  if (x === 0) return steps * Number.MIN_VALUE;
  f64[0] = x;
  f64Bits[0]! += BigInt(x > 0 ? steps : -steps);
  return f64[0];
}

/** The float32 `steps` float32s away from the float32 nearest `x`. */
function float32Step(x: number, steps: number): number {
  f32[0] = x;
  if (f32[0] === 0) return steps * 2 ** -149;
  f32Bits[0]! += f32[0] > 0 ? steps : -steps;
  return f32[0];
}

/** Numbers at and around `b`: itself, neighbouring doubles, neighbouring float32s and the midpoints between them. */
function numbersNear(b: number): fc.Arbitrary<number> {
  return fc
    .oneof(
      fc.constant(b),
      fc.integer({ min: -3, max: 3 }).map((k) => doubleStep(b, k)),
      fc.integer({ min: -2, max: 2 }).map((k) => float32Step(b, k)),
      fc.integer({ min: -2, max: 1 }).map((k) => (float32Step(b, k) + float32Step(b, k + 1)) / 2),
      fc
        .tuple(fc.integer({ min: -2, max: 1 }), fc.integer({ min: -1, max: 1 }))
        .map(([k, d]) => doubleStep((float32Step(b, k) + float32Step(b, k + 1)) / 2, d)),
    )
    .filter(Number.isFinite);
}

describe('core/schema: JSON Schema of variants, recursion, timestamps, unknown values, constraints and descriptions', () => {
  describe('decimalRangePattern', () => {
    /** The texts json.decode takes for a 64-bit integer in a string, in range. */
    const reference = (s: string, min: bigint, max: bigint) =>
      /^-?(?:0|[1-9][0-9]*)$/.test(s) && BigInt(s) >= min && BigInt(s) <= max;
    const arbBound = fc.oneof(
      fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
      fc.bigInt({ min: -1000n, max: 1000n }),
      fc.constantFrom(
        0n,
        -1n,
        1n,
        9n,
        10n,
        99n,
        100n,
        2n ** 63n - 1n,
        -(2n ** 63n),
        2n ** 64n - 1n,
        10n ** 18n,
        10n ** 19n - 1n,
      ),
    );
    /** Texts around the bounds and elsewhere, well-formed or not. */
    const arbText = (min: bigint, max: bigint) =>
      fc.oneof(
        fc.tuple(fc.constantFrom(min, max, 0n), fc.bigInt({ min: -12n, max: 12n })).map(([b, d]) => String(b + d)),
        fc.bigInt({ min: min - 5n, max: max + 5n }).map(String),
        fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String),
        fc
          .tuple(fc.constantFrom(min, max), fc.constantFrom('0', '+', ' ', '-0', ''))
          .map(([b, p]) => p + String(b < 0n ? -b : b)),
        fc.constantFrom('-0', '0', '00', '-', '', '1e3', '1.0', '+1', ' 1', '1 ', '0x10', '１'),
        fc.stringMatching(/^-?[0-9]{1,21}$/),
      );

    it('matches exactly the decimal texts of the integers in range, for any range', () => {
      fc.assert(
        fc.property(
          fc
            .tuple(arbBound, arbBound)
            .map(([a, b]): [bigint, bigint] => (a <= b ? [a, b] : [b, a]))
            .chain(([min, max]) =>
              fc.record({
                min: fc.constant(min),
                max: fc.constant(max),
                texts: fc.array(arbText(min, max), { minLength: 1, maxLength: 20 }),
              }),
            ),
          ({ min, max, texts }) => {
            const pattern = new RegExp(decimalRangePattern(min, max), 'u');
            for (const s of texts)
              expect(pattern.test(s), `${JSON.stringify(s)} in ${min}..${max}: ${pattern.source}`).to.equal(
                reference(s, min, max),
              );
          },
        ),
        { numRuns: 1000 },
      );
    });

    it('takes -0 exactly when 0 is in range, and matches nothing for an empty range', () => {
      expect(new RegExp(decimalRangePattern(0n, 5n)).test('-0')).to.equal(true);
      expect(new RegExp(decimalRangePattern(1n, 5n)).test('-0')).to.equal(false);
      expect(new RegExp(decimalRangePattern(-5n, -1n)).test('-0')).to.equal(false);
      for (const s of ['', '0', '5', '-5']) expect(new RegExp(decimalRangePattern(5n, 4n)).test(s)).to.equal(false);
      expect(decimalRangePattern(0n, 2n ** 64n - 1n).length, 'u64 pattern length').to.be.lessThan(600);
    });
  });

  describe('t.variant', () => {
    const Circle = t.object({ type: t.literal('circle'), r: t.f64() }, { name: 'Circle' });
    const Square = t.object({ type: t.literal('square'), side: t.f64() }, { name: 'Square' });
    const Shape = t.variant('type', [Circle, Square]);

    it('is one of its members, the discriminant required', () => {
      const schema = jsonSchema(Shape);
      expect(schema).to.deep.include({
        type: 'object',
        required: ['type'],
        oneOf: [{ $ref: '#/$defs/Circle' }, { $ref: '#/$defs/Square' }],
      });
      const defs = schema.$defs as Record<string, JsonSchema>;
      expect((defs.Circle!.properties as JsonSchema).type).to.deep.equal({ const: 'circle' });
      const inline = jsonSchema(
        t.variant('k', [t.object({ k: t.literal(1) }), t.object({ k: t.literal(true), x: t.string() })]),
      );
      expect(inline.oneOf).to.deep.equal([
        { type: 'object', properties: { k: { const: 1 } }, additionalProperties: false },
        { type: 'object', properties: { k: { const: true }, x: { type: 'string' } }, additionalProperties: false },
      ]);
    });

    it('agrees with reading: members, unknown and absent discriminants, other values, both options', () => {
      const discriminants = fc.uniqueArray(
        fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -2, max: 2 }), fc.boolean()),
        { minLength: 1, maxLength: 3 },
      );
      const arbVariant = discriminants.chain((values) =>
        fc
          .tuple(
            ...values.map((v) =>
              fc
                .record({
                  x: fc.constantFrom<Type>(t.i32(), t.string(), t.optional(t.bool()), t.nullable(t.u8())),
                  y: fc.option(fc.constantFrom<Type>(t.f64(), t.array(t.i8())), { nil: undefined }),
                })
                .map(({ x, y }) => t.object({ kind: t.literal(v), x, ...(y === undefined ? {} : { y }) })),
            ),
          )
          .map((members) => t.variant('kind', members)),
      );
      const near = (values: readonly unknown[]) => {
        const member = fc
          .tuple(
            fc.record(
              {
                kind: fc.oneof(
                  { weight: 5, arbitrary: fc.constantFrom(...values) },
                  { weight: 1, arbitrary: arbAnyJson },
                ),
                x: fc.oneof(
                  fc.integer({ min: -5, max: 300 }),
                  fc.string({ maxLength: 3 }),
                  fc.boolean(),
                  fc.constant(null),
                ),
                y: fc.oneof(
                  fc.double({ noNaN: true, noDefaultInfinity: true }),
                  fc.array(fc.integer({ min: -200, max: 200 }), { maxLength: 3 }),
                ),
              },
              { requiredKeys: [] },
            ),
            fc.oneof({ weight: 5, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ extra: 1 }) }),
          )
          .map(([m, extra]) => ({ ...m, ...extra }));
        return fc.oneof({ weight: 8, arbitrary: member }, { weight: 1, arbitrary: arbAnyJson });
      };
      assertAgreement(
        fc
          .tuple(arbVariant, arbOpts)
          .chain(([type, opts]) => near(type.values).map((value) => ({ type: type as Type, value, opts }))),
        600,
      );
    });

    it('agrees with reading for named members behind $ref', () => {
      const value = fc.record(
        {
          type: fc.constantFrom('circle', 'square', 'triangle', 1),
          r: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant('1')),
          side: fc.double({ noNaN: true, noDefaultInfinity: true }),
        },
        { requiredKeys: [] },
      );
      assertAgreement(fc.record({ type: fc.constant<Type>(Shape), value, opts: arbOpts }));
    });
  });

  describe('t.lazy', () => {
    const Tree: Type = t.object({ value: t.i32(), children: t.array(t.lazy(() => Tree)) }, { name: 'Tree' });

    it('writes a recursive named object once, in $defs, referring to itself', () => {
      const schema = jsonSchema(t.object({ root: Tree }));
      expect(schema.properties).to.deep.equal({ root: { $ref: '#/$defs/Tree' } });
      expect((schema.$defs as Record<string, JsonSchema>).Tree).to.deep.equal({
        type: 'object',
        title: 'Tree',
        additionalProperties: false,
        properties: {
          value: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
          children: { type: 'array', items: { $ref: '#/$defs/Tree' } },
        },
      });
      // Through a variant too, and a lazy target that is not recursive is its target's schema.
      const Expr: Type = t.variant('op', [
        t.object({ op: t.literal('num'), value: t.f64() }, { name: 'Num' }),
        t.object({ op: t.literal('add'), left: t.lazy(() => Expr), right: t.lazy(() => Expr) }, { name: 'Add' }),
      ]);
      const defs = jsonSchema(Expr).$defs as Record<string, JsonSchema>;
      expect((defs.Add!.properties as JsonSchema).left).to.deep.equal({
        type: 'object',
        required: ['op'],
        oneOf: [{ $ref: '#/$defs/Num' }, { $ref: '#/$defs/Add' }],
      });
      expect(jsonSchema(t.lazy(() => t.u8()))).to.deep.include({ type: 'integer', minimum: 0, maximum: 255 });
    });

    it('refuses a recursive descriptor without a named object in its cycle, saying what to do', () => {
      const Unnamed: Type = t.object({ children: t.array(t.lazy(() => Unnamed)) });
      expect(() => jsonSchema(Unnamed)).to.throw(
        TypeError,
        /refers to itself through t\.lazy.*give the recursive object a name/,
      );
      const Nested: Type = t.array(t.lazy(() => Nested));
      expect(() => jsonSchema(Nested)).to.throw(TypeError, /\/items/);
      // A named object anywhere in the cycle is enough.
      const Outer: Type = t.object({ inner: t.object({ back: t.optional(t.lazy(() => Outer)) }, { name: 'Inner' }) });
      expect(jsonSchema(Outer).$defs).to.have.property('Inner');
    });

    it('agrees with reading, for trees of any shape', () => {
      const arbTree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
        node: fc.oneof(
          { depthSize: 'small', withCrossShrink: true },
          { weight: 1, arbitrary: arbAnyJson },
          {
            weight: 4,
            arbitrary: fc.record(
              {
                value: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(2 ** 31), fc.constant('1')),
                children: fc.oneof(
                  { weight: 5, arbitrary: fc.array(tie('node'), { maxLength: 3 }) },
                  { weight: 1, arbitrary: arbAnyJson },
                ),
                other: fc.constant(true),
              },
              { requiredKeys: [] },
            ),
          },
        ),
      })).node;
      assertAgreement(fc.record({ type: fc.constant(Tree), value: arbTree, opts: arbOpts }));
    });
  });

  describe('t.timestamp', () => {
    it('is an RFC 3339 date-time string', () => {
      expect(jsonSchema(t.timestamp())).to.deep.include({ type: 'string', format: 'date-time' });
    });

    /** RFC 3339 texts and near misses: separators and zones in any case, offsets, fractions, leap seconds, impossible dates. */
    const arbDateTimeText = fc.oneof(
      fc
        .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
        .chain((d) => {
          const iso = d.toISOString();
          return fc
            .record({
              sep: fc.constantFrom('T', 't', ' ', '_'),
              fraction: fc.constantFrom('', '.5', `.${iso.slice(20, 23)}`, '.123456789', '.'),
              zone: fc.constantFrom('Z', 'z', '+01:00', '-23:59', '+0530', '+05', '+24:00', '-00:60', ''),
            })
            .map(({ sep, fraction, zone }) => `${iso.slice(0, 10)}${sep}${iso.slice(11, 19)}${fraction}${zone}`);
        }),
      fc.constantFrom(
        '2016-12-31T23:59:60Z',
        '2016-12-31T22:59:60-01:00',
        '2016-12-31T23:58:60Z',
        '2024-02-29T00:00:00Z',
        '2023-02-29T00:00:00Z',
        '2024-04-31T00:00:00Z',
        '2024-13-01T00:00:00Z',
        '2024-00-10T00:00:00Z',
        '2024-01-01T24:00:00Z',
        '2024-01-01',
        '0000-01-01T00:00:00Z',
        '9999-12-31T23:59:59.999Z',
        '+002024-01-01T00:00:00Z',
        '2024-01-01T00:00:00.000Z ',
      ),
      fc.string({ maxLength: 25 }),
    );

    it('agrees with reading: texts that ajv-formats takes and those it refuses, and other values', () => {
      const value = fc.oneof({ weight: 5, arbitrary: arbDateTimeText }, { weight: 1, arbitrary: arbAnyJson });
      assertAgreement(fc.record({ type: fc.constant<Type>(t.timestamp()), value }), 800);
      const member = fc.record({ at: value, n: fc.constant(1) }, { requiredKeys: ['n'] });
      assertAgreement(
        fc.record({
          type: fc.constant<Type>(t.object({ at: t.timestamp(), n: t.i8() })),
          value: member,
          opts: arbOpts,
        }),
      );
    });
  });

  describe('t.unknown', () => {
    it('is the schema that takes anything, and an absent member is never missing', () => {
      expect(jsonSchema(t.unknown())).to.deep.equal({ $schema: 'https://json-schema.org/draft/2020-12/schema' });
      expect(jsonSchema(t.object({ a: t.unknown(), b: t.i8() }), { errorOnMissingKeys: true }).required).to.deep.equal([
        'b',
      ]);
    });

    it('agrees with reading: any JSON value, as a member present or absent', () => {
      const type = t.object({ data: t.unknown(), n: t.u8() });
      const value = fc.oneof(
        fc.record(
          { data: fc.jsonValue({ maxDepth: 4 }), n: fc.integer({ min: -1, max: 256 }), other: fc.constant(0) },
          { requiredKeys: [] },
        ),
        arbAnyJson,
      );
      assertAgreement(fc.record({ type: fc.constant<Type>(type), value, opts: arbOpts }));
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
          expect(agrees(t.unknown(), v)).to.equal(true);
        }),
        { numRuns: 200 },
      );
    });
  });

  describe('constraints', () => {
    it("are their keywords, beside the kind's own", () => {
      expect(
        jsonSchema(t.string({ minLength: 1, maxLength: 5, pattern: '^[a-z]+$', format: 'email' })),
      ).to.deep.include({
        type: 'string',
        minLength: 1,
        maxLength: 5,
        pattern: '^[a-z]+$',
        format: 'email',
      });
      expect(jsonSchema(t.u8({ minimum: 1, exclusiveMaximum: 300 }))).to.deep.include({
        type: 'integer',
        minimum: 1,
        maximum: 255,
        exclusiveMaximum: 300,
      });
      expect(jsonSchema(t.i32({ maximum: 10 }))).to.deep.include({ minimum: -2147483648, maximum: 10 });
      expect(jsonSchema(t.f64({ exclusiveMinimum: 0 }))).to.deep.include({ type: 'number', exclusiveMinimum: 0 });
      expect(jsonSchema(t.array(t.bool(), { minItems: 1, maxItems: 3 }))).to.deep.include({
        type: 'array',
        minItems: 1,
        maxItems: 3,
      });
      expect(jsonSchema(t.map(t.bool(), { maxProperties: 2 }))).to.deep.include({ type: 'object', maxProperties: 2 });
      expect(jsonSchema(t.u64({ maximum: 100n }))).to.deep.include({ type: 'integer', minimum: 0, maximum: 100 });
    });

    it('bound f32 where rounding to float32 crosses the bound, since reading compares the rounded value', () => {
      // 0.1 reads as 0.10000000149011612, above maximum 0.1: the schema's bound is below 0.1.
      const schema = jsonSchema(t.f32({ maximum: 0.1 }));
      expect(ajv.validate(schema, 0.1)).to.equal(false);
      expect(ajv.validate(schema, Math.fround(0.1) - 2 ** -30)).to.equal(false);
      expect(ajv.validate(schema, 0.09999999)).to.equal(true);
      expect(agrees(t.f32({ maximum: 0.1 }), 0.1)).to.equal(false);
      expect(agrees(t.f32({ minimum: 0.1 }), 0.1)).to.equal(true);
      expect(agrees(t.f32({ maximum: MAX_F32 }), 3.4028235677973362e38)).to.equal(true);
    });

    it('agree with reading for strings: lengths in code points, patterns, formats', () => {
      const arbConstraints = fc
        .record({
          minLength: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
          maxLength: fc.option(fc.integer({ min: 4, max: 8 }), { nil: undefined }),
          pattern: fc.option(fc.constantFrom('^[a-z]*$', 'b', '^.?.?.?.?.?$', '\\p{L}'), { nil: undefined, freq: 2 }),
          format: fc.option(fc.constantFrom('email', 'uuid', 'uri', 'date-time'), { nil: undefined, freq: 2 }),
        })
        .map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)));
      const arbText = fc.oneof(
        fc.string({ maxLength: 9 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.constantFrom(
          '😀😀😀😀',
          '😀😀😀😀😀',
          'a@b.co',
          'A@B',
          'http://x.y/z',
          'x:y',
          '/relative',
          '2024-01-01T00:00:00Z',
          '123e4567-e89b-12d3-a456-426614174000',
          'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
          'abcd',
          'bbbb',
        ),
        fc.emailAddress(),
        fc.uuid(),
        fc.webUrl(),
      );
      assertAgreement(
        fc.record({
          type: arbConstraints.map((c) => t.string(c) as Type),
          value: fc.oneof({ weight: 6, arbitrary: arbText }, { weight: 1, arbitrary: arbAnyJson }),
        }),
        800,
      );
    });

    it('agree with reading for every number kind, at and around each bound (f32 after rounding)', () => {
      const kinds = ['i8', 'i16', 'i32', 'u8', 'u16', 'u32', 'f32', 'f64'] as const;
      const arbBound = fc
        .oneof(
          fc.integer({ min: -300, max: 300 }),
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          fc.constantFrom(0.1, -0.1, 0.5, 1e-40, -1e-45, 2 ** -149, 16777217, MAX_F32, -MAX_F32, 3.4e38, 2 ** 31 - 0.5),
        )
        .filter((b) => !Object.is(b, -0));
      const arbCase = fc
        .record({
          kind: fc.constantFrom(...kinds),
          key: fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'),
          bound: arbBound,
          second: fc.option(
            fc.record({
              key: fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'),
              bound: arbBound,
            }),
            { nil: undefined },
          ),
        })
        .filter(({ key, bound, second }) => {
          if (second === undefined || second.key === key) return second === undefined;
          const low = key.includes('inimum') ? bound : second.bound;
          const high = key.includes('inimum') ? second.bound : bound;
          return key.includes('inimum') === second.key.includes('inimum') || low <= high;
        })
        .chain(({ kind, key, bound, second }) => {
          const c = { [key]: bound, ...(second === undefined ? {} : { [second.key]: second.bound }) };
          const type = t[kind](c) as Type;
          const value = fc.oneof(
            numbersNear(bound),
            second === undefined ? numbersNear(bound) : numbersNear(second.bound),
            fc.integer({ min: -300, max: 300 }),
          );
          return value.map((v) => ({ type, value: v }));
        });
      assertAgreement(arbCase, 2000);
    });

    it('agree with reading for i64 and u64 bounds anywhere in their range, numbers compared by their JSON text', () => {
      const arbBig = fc.oneof(
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }),
        fc.bigInt({ min: -100n, max: 100n }),
      );
      const arbCase = fc
        .record({
          kind: fc.constantFrom('i64', 'u64'),
          key: fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'),
          bound: arbBig,
          json: fc.constantFrom('number', 'string'),
        })
        .chain(({ kind, key, bound, json: form }) => {
          const b = kind === 'u64' && bound < 0n ? -bound : bound;
          const type = t[kind as 'i64']({ [key]: b, json: form as 'number' }) as Type;
          const value = fc.oneof(
            numbersNear(Number(b)),
            fc.bigInt({ min: -3n, max: 3n }).map((d) => String(b + d)),
            fc.constantFrom(String(b).replace(/^/, '+'), `0${b}`, '-0', '0', `${b}.0`),
          );
          return value.map((v) => ({ type, value: v }));
        });
      assertAgreement(arbCase, 1500);
    });

    it('agree with reading for array and map counts', () => {
      const arbCase = fc
        .record({
          min: fc.integer({ min: 0, max: 3 }),
          extra: fc.integer({ min: 0, max: 2 }),
          map: fc.boolean(),
        })
        .chain(({ min, extra, map }) => {
          const type = map
            ? t.map(t.u8(), { minProperties: min, maxProperties: min + extra })
            : t.array(t.u8(), { minItems: min, maxItems: min + extra });
          const elements = fc.array(
            fc.oneof(
              { weight: 9, arbitrary: fc.integer({ min: 0, max: 255 }) },
              { weight: 1, arbitrary: fc.constant(-1) },
            ),
            { maxLength: 6 },
          );
          const value = map ? elements.map((a) => Object.fromEntries(a.map((v, i) => [`k${i}`, v]))) : elements;
          return fc
            .oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: arbAnyJson })
            .map((v) => ({ type: type as Type, value: v }));
        });
      assertAgreement(arbCase, 600);
    });
  });

  describe('64-bit integers as JSON strings', () => {
    it('are an integer or a string of its digits, both within the range', () => {
      const schema = jsonSchema(t.u64({ json: 'string', maximum: 500n }));
      expect(schema.anyOf).to.deep.equal([
        { type: 'integer', minimum: 0, maximum: 500 },
        { type: 'string', pattern: decimalRangePattern(0n, 500n) },
      ]);
      const i64 = jsonSchema(t.i64({ json: 'string' })).anyOf as JsonSchema[];
      expect(i64[0]).to.deep.equal({ type: 'integer', minimum: -(2 ** 63 - 1024), maximum: 2 ** 63 - 1024 });
      expect(new RegExp(i64[1]!.pattern as string).test('-9223372036854775808')).to.equal(true);
      expect(new RegExp(i64[1]!.pattern as string).test('9223372036854775808')).to.equal(false);
    });

    it("agree with reading, every text and number near the kind's bounds", () => {
      const arbCase = fc.record({ kind: fc.constantFrom('i64', 'u64') }).chain(({ kind }) => {
        const type = t[kind as 'i64']({ json: 'string' }) as Type;
        const bounds = kind === 'i64' ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
        const value = fc.oneof(
          fc
            .tuple(fc.constantFrom(...bounds, 0n, 2n ** 53n), fc.bigInt({ min: -3n, max: 3n }))
            .map(([b, d]) => String(b + d)),
          fc.constantFrom('-0', '00', '+1', ' 1', '1e3', '', '-', '0x1', '1.5'),
          fc.constantFrom(...bounds.map(Number), 0, -1, 1.5, 2 ** 64, -(2 ** 63), 2 ** 63),
          fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String),
        );
        return value.map((v) => ({ type, value: v }));
      });
      assertAgreement(arbCase, 800);
    });
  });

  describe('descriptions and defaults', () => {
    it("writes .describe() and t.object(…, { description }) as description, a named object's in $defs", () => {
      const User = t.object({ id: t.u64().describe('The user id.') }, { name: 'User', description: 'A user.' });
      const schema = jsonSchema(
        t.object(
          {
            owner: User,
            friend: User.describe('Another user.'),
            note: t.optional(t.string()).describe('Free text.'),
            when: t.timestamp().describe('When.'),
            shape: t.variant('k', [t.object({ k: t.literal('a') })]).describe('A shape.'),
            next: t.lazy(() => User).describe('Through lazy.'),
          },
          { description: 'The root.' },
        ),
      );
      expect(schema.description).to.equal('The root.');
      expect(schema.properties).to.deep.include({
        owner: { $ref: '#/$defs/User' },
        friend: { $ref: '#/$defs/User', description: 'Another user.' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Free text.' },
        when: { type: 'string', format: 'date-time', description: 'When.' },
        next: { $ref: '#/$defs/User', description: 'Through lazy.' },
      });
      expect((schema.properties as Record<string, JsonSchema>).shape!.description).to.equal('A shape.');
      const def = (schema.$defs as Record<string, JsonSchema>).User!;
      expect(def.description).to.equal('A user.');
      expect((def.properties as Record<string, JsonSchema>).id!.description).to.equal('The user id.');
    });

    it('writes defaults as JSON carries them, and leaves out one that no JSON number states exactly', () => {
      const props = jsonSchema(
        t.object({
          max: t.u64().default(2n ** 64n - 1n),
          maxText: t.u64({ json: 'string' }).default(2n ** 64n - 1n),
          big: t.i64().default(10n ** 18n),
          at: t.timestamp().default(new Date(Date.UTC(2024, 4, 1))),
          any: t.unknown().default({ n: 1n, raw: new Uint8Array([255]), list: [true] }),
          shape: t.variant('k', [t.object({ k: t.literal('a'), n: t.i8().default(3) })]).default({ k: 'a', n: 3 }),
          short: t.string({ minLength: 3 }).default(''),
        }),
      ).properties as Record<string, JsonSchema>;
      expect(props.max).not.to.have.property('default');
      expect(props.maxText!.default).to.equal('18446744073709551615');
      expect(props.big!.default).to.equal(1e18);
      expect(props.at!.default).to.equal('2024-05-01T00:00:00.000Z');
      expect(props.any!.default).to.deep.equal({ n: 1, raw: '/w==', list: [true] });
      expect(props.shape!.default).to.deep.equal({ k: 'a', n: 3 });
      expect(props.short, 'a default its constraints refuse').not.to.have.property('default');
      // Every default written is valid against its own schema.
      for (const [key, s] of Object.entries(props))
        if ('default' in s) expect(ajv.validate(s, s.default), key).to.equal(true);
    });
  });
});
