// Random descriptors mixing the kinds and options of real data (variants, t.lazy, timestamps,
// t.unknown, constraints, defaults, 64-bit integers as JSON strings) with values near them: every
// codec's generated and closure writers agree, and writing only ever throws a WriteError.
import { expect } from 'chai';
import fc from 'fast-check';
import { onGeneratedCodeError, t, type Type } from '../../index.ts';
import { expectWritten, writeEveryWay } from '../support/write-paths.ts';

const leaf: fc.Arbitrary<Type> = fc.oneof(
  fc
    .record(
      {
        minLength: fc.integer({ min: 0, max: 2 }),
        maxLength: fc.integer({ min: 2, max: 4 }),
        pattern: fc.constant('^[ab]*$'),
      },
      { requiredKeys: [] },
    )
    .map((c) => t.string(c)),
  fc
    .record(
      { minimum: fc.integer({ min: -3, max: 0 }), exclusiveMaximum: fc.integer({ min: 1, max: 3 }) },
      { requiredKeys: [] },
    )
    .map((c) => t.i32(c)),
  fc.record({ maximum: fc.constantFrom(0.1, 1, 2) }, { requiredKeys: [] }).map((c) => t.f32(c)),
  fc.record({ minimum: fc.constantFrom(-1, 0.5) }, { requiredKeys: [] }).map((c) => t.f64(c)),
  fc
    .record(
      { json: fc.constantFrom('number' as const, 'string' as const), maximum: fc.constantFrom(2n ** 62n, 5n) },
      { requiredKeys: [] },
    )
    .map((o) => t.i64(o)),
  fc.constant(t.u64({ json: 'string' })),
  fc.constant(t.timestamp()),
  fc.constant(t.unknown()),
  fc.constant(t.bytes()),
  fc.constant(t.bool()),
);

const withDefault = (type: Type): fc.Arbitrary<Type> => {
  const defaults: Record<string, unknown> = {
    string: 'ab',
    i32: 0,
    f32: 0.5,
    f64: 1,
    i64: 1n,
    u64: 1n,
    timestamp: new Date(5),
    bytes: new Uint8Array(1),
    bool: true,
  };
  return type.kind in defaults ? fc.constantFrom(type, type.default(defaults[type.kind] as never)) : fc.constant(type);
};

const arbType: fc.Arbitrary<Type> = fc.letrec<{ type: Type }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leaf },
    {
      weight: 1,
      arbitrary: fc
        .tuple(tie('type'), fc.record({ minItems: fc.constant(1), maxItems: fc.constant(2) }, { requiredKeys: [] }))
        .map(([e, c]) => t.array(e, c)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(tie('type'), fc.record({ maxProperties: fc.constant(1) }, { requiredKeys: [] }))
        .map(([v, c]) => t.map(v, c)),
    },
    { weight: 1, arbitrary: tie('type').map((inner) => t.optional(inner)) },
    { weight: 1, arbitrary: tie('type').map((inner) => t.lazy(() => inner)) },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(fc.constantFrom('a', 'b', 'c'), tie('type').chain(withDefault), { maxKeys: 3 })
        .map((fields) => t.object(fields)),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.dictionary(fc.constantFrom('a', 'b'), tie('type'), { maxKeys: 2 }), { minLength: 1, maxLength: 3 })
        .map((list) =>
          t.variant(
            'k',
            list.map((fields, i) => t.object({ ...fields, k: t.literal(i === 1 ? 1 : `m${i}`) })),
          ),
        ),
    },
  ),
})).type;

/** Values that often fit the descriptors above, and often almost do. */
const arbNear: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      '',
      'a',
      'ab',
      'abc',
      'abz',
      0,
      1,
      -1,
      2,
      0.1,
      0.5,
      1.5,
      -0,
      Number.NaN,
      3n,
      2n ** 62n,
      2n ** 64n,
      -1n,
      true,
      null,
      undefined,
      'm0',
      'm2',
    ),
    fc.constantFrom(new Date(0), new Date(-1), new Date(8.64e15), new Date(Number.NaN), new Uint8Array([1]), () => 1),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'k'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('codecs: writing random descriptors of real data', () => {
  let restore: Parameters<typeof onGeneratedCodeError>[0];
  const problems: unknown[] = [];
  beforeEach(() => {
    problems.length = 0;
    restore = onGeneratedCodeError((problem) => problems.push(problem));
  });
  afterEach(() => {
    onGeneratedCodeError(restore);
    expect(problems).to.deep.equal([]);
  });

  it('generated and closure writers agree on values near the descriptor, and fail only with WriteError (property)', () => {
    let written = 0;
    let runs = 0;
    fc.assert(
      fc.property(arbType, arbNear, (type, value) => {
        runs++;
        if ('out' in writeEveryWay(type, value).msgpack) written++;
      }),
      { numRuns: 600 },
    );
    // The values are near enough for a good share to be written: some 0.115 of 600 random runs,
    // give or take 0.013 (one standard deviation), so the bounds stay well clear of it.
    expect(written / runs).to.be.within(0.05, 0.9);
  });

  it('writes a variant member with every kind of member', () => {
    const Event = t.variant('type', [
      t.object({ type: t.literal('created'), at: t.timestamp(), by: t.u64({ json: 'string' }), meta: t.unknown() }),
      t.object({
        type: t.literal('renamed'),
        name: t.string({ minLength: 1, maxLength: 40 }),
        tags: t.array(t.string(), { maxItems: 3 }).default([]),
      }),
    ]);
    const written = expectWritten(t.array(Event), [
      { type: 'created', at: new Date(0), by: 2n ** 63n, meta: { source: 'api', n: [1, 2n] } },
      { type: 'renamed', name: 'New name' },
    ]);
    expect(written.json).to.equal(
      '[{"type":"created","at":"1970-01-01T00:00:00.000Z","by":"9223372036854775808","meta":{"source":"api","n":[1,2]}},{"type":"renamed","name":"New name","tags":[]}]',
    );
  });
});
