// fast-check arbitraries shared by the property tests: descriptors, valid values of a descriptor
// (for round trips), and JSON values near a descriptor (for schema agreement). The descriptors
// cover every kind but `void`: constraints, variants, recursion through `t.lazy`, timestamps,
// `t.unknown`, and empty and one-member objects and tuples at every depth included.
import fc from 'fast-check';
import { t, type Type, type AnyType, type RequiresKey } from '../../index.ts';
import { numberRule, stringRule } from '../../core/kinds/constraints.ts';
import { DATE_TIME_RANGE, FORMATS } from '../../core/kinds/formats.ts';
import { BIGINT_RANGES, INT_RANGES, MAX_F32 } from '../../core/kinds/ranges.ts';
import type { StringConstraints, StringFormat } from '../../core/kinds/constraint-options.ts';
import type { MissingKeys } from '../../core/options.ts';

/** Member names, including ones that `Object.prototype` also has and ones that need escaping in a JSON Pointer. */
const arbKey = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__') },
  { weight: 1, arbitrary: fc.constantFrom('id', 'constructor', 'toString', 'a/b', '~0', '') },
);

/** Map keys may be anything, `__proto__` included: it must stay a plain own key. */
const arbMapKey = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 6 }) },
  fc.constantFrom('__proto__', 'constructor'),
);

const REQUIRES_KEY: readonly RequiresKey[] = [
  (_key, isNullable) => !isNullable,
  () => true,
  () => false,
  (key) => !key.startsWith('_'),
];

/** Every setting of `errorOnMissingKeys`. */
export const arbMissingKeys: fc.Arbitrary<MissingKeys> = fc.constantFrom<MissingKeys>(false, true, 'unless-default');

// ---- Constrained scalars ------------------------------------------------------------------------

/** Patterns with a generator of strings that match them. */
const PATTERNS: readonly string[] = ['^[a-z]{1,5}$', '[0-9]', '^ab', 'x?y*z$', '^\\p{Lu}'];

const arbStringConstraints: fc.Arbitrary<StringConstraints> = fc.oneof(
  fc.record(
    { minLength: fc.integer({ min: 0, max: 3 }), maxLength: fc.integer({ min: 3, max: 8 }) },
    { requiredKeys: [] },
  ),
  fc
    .record({ pattern: fc.constantFrom(...PATTERNS), maxLength: fc.constantFrom(undefined, 12) })
    .map(({ pattern, maxLength }) => (maxLength === undefined ? { pattern } : { pattern, maxLength })),
  fc.constantFrom<StringFormat>('email', 'uuid', 'uri', 'date-time').map((format) => ({ format })),
);

/** Bounds inside `[low, high]`: some of minimum, maximum, exclusiveMinimum, exclusiveMaximum. */
function arbBounds(low: number, high: number) {
  const arbIn = fc.integer({ min: Math.max(low, -1000), max: Math.min(high, 1000) });
  return fc.tuple(arbIn, arbIn, fc.boolean(), fc.boolean()).map(([a, b, exclusiveLow, exclusiveHigh]) => {
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    // Some integer always lies within: one bound exclusive needs a gap of 1, both a gap of 2.
    const low = exclusiveLow && hi - lo >= 1;
    const high = exclusiveHigh && hi - lo >= (low ? 2 : 1);
    return {
      ...(low ? { exclusiveMinimum: lo } : { minimum: lo }),
      ...(high ? { exclusiveMaximum: hi } : { maximum: hi }),
    };
  });
}

const INT_KINDS = ['i8', 'i16', 'i32', 'u8', 'u16', 'u32'] as const;

const arbConstrained: fc.Arbitrary<Type> = fc.oneof(
  arbStringConstraints.map((c) => t.string(c)),
  fc.constantFrom(...INT_KINDS).chain((kind) => arbBounds(...INT_RANGES[kind]).map((c) => t[kind](c))),
  fc
    .constantFrom<'i64' | 'u64'>('i64', 'u64')
    .chain((kind) =>
      fc
        .tuple(arbBounds(kind === 'u64' ? 0 : -1000, 1000), fc.constantFrom<'number' | 'string'>('number', 'string'))
        .map(([c, json]) => t[kind]({ ...c, json })),
    ),
  fc.constantFrom<'f32' | 'f64'>('f32', 'f64').chain((kind) => arbBounds(-1000, 1000).map((c) => t[kind](c))),
  fc.constantFrom<'i64' | 'u64'>('i64', 'u64').map((kind) => t[kind]({ json: 'string' })),
);

export const arbLeaf: fc.Arbitrary<Type> = fc.oneof(
  fc
    .constantFrom<() => Type>(
      t.string,
      t.bool,
      t.i8,
      t.i16,
      t.i32,
      t.u8,
      t.u16,
      t.u32,
      t.i64,
      t.u64,
      t.f32,
      t.f64,
      t.bytes,
      t.timestamp,
      t.unknown,
    )
    .map((make) => make()),
  fc
    .oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null))
    .map((v) => t.literal(v)),
  fc
    .uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 })), { minLength: 1, maxLength: 4 })
    .map((v) => t.enum(v)),
  arbConstrained,
);

/**
 * `t.optional(t.literal(null))` could never hold its `null`, and `t.unknown()` takes `null` itself:
 * wrappers take other types.
 */
function admitsNull(inner: Type): boolean {
  const d = inner as AnyType;
  if (d.kind === 'lazy') return admitsNull(d.target);
  return d.kind !== 'unknown' && !(d.kind === 'literal' && d.value === null);
}

// ---- Variants and recursion ---------------------------------------------------------------------

/** Names of recursive objects: JSON Schema refers to them by name, so each is unique. */
let named = 0;

/** A variant of one to three objects on the key `kind`, the discriminant first or last in each. */
function arbVariant(member: fc.Arbitrary<Type>): fc.Arbitrary<Type> {
  const arbTags = fc.oneof(fc.constant(['a', 'b', 'c']), fc.constant([1, 2, 3]), fc.constant([true, false]));
  const arbFields = fc.dictionary(
    arbKey.filter((k) => k !== 'kind'),
    member,
    { maxKeys: 3 },
  );
  return fc
    .tuple(arbTags, fc.array(fc.tuple(arbFields, fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 3 }))
    .map(([tags, specs]) => {
      const members = specs.slice(0, tags.length).map(([fields, first, name], i) => {
        const tag = t.literal(tags[i]!);
        const all = first ? { kind: tag, ...fields } : { ...fields, kind: tag };
        return t.object(all, name ? { name: `V${named++}` } : {});
      });
      return t.variant('kind', members);
    });
}

/** Recursive descriptors through `t.lazy`, with a leaf of the given kinds in each level. */
function arbRecursive(leaf: fc.Arbitrary<Type>): fc.Arbitrary<Type> {
  return fc.tuple(leaf, fc.constantFrom('tree', 'list', 'expression')).map(([value, shape]) => {
    const n = named++;
    if (shape === 'tree') {
      const Tree: Type = t.object({ value, children: t.array(t.lazy(() => Tree)) }, { name: `Tree${n}` });
      return Tree;
    }
    if (shape === 'list') {
      const List: Type = t.object({ value, next: t.nullable(t.lazy(() => List)) }, { name: `List${n}` });
      return List;
    }
    const Expr: Type = t.variant('op', [
      t.object({ op: t.literal('leaf'), value }, { name: `Leaf${n}` }),
      t.object({ op: t.literal('all'), args: t.array(t.lazy(() => Expr)) }, { name: `All${n}` }),
      t.object({ op: t.literal('not'), arg: t.lazy(() => Expr) }, { name: `Not${n}` }),
    ]);
    return Expr;
  });
}

/**
 * Descriptors of every kind but `void`, nested a few levels deep. Optional and nullable wrap each
 * other only as an optional value that holds null (`t.optional(t.nullable(T))`, either way round).
 */
export const arbDescriptor: fc.Arbitrary<Type> = fc.letrec<{ type: Type; plain: Type }>((tie) => ({
  type: fc.oneof(
    { weight: 4, arbitrary: tie('plain') },
    {
      weight: 1,
      arbitrary: tie('plain')
        .filter(admitsNull)
        .map((inner) => t.optional(inner)),
    },
    {
      weight: 1,
      arbitrary: tie('plain')
        .filter(admitsNull)
        .map((inner) => t.nullable(inner)),
    },
    // Presence is presence: a null present reads as null, an absent key as absent.
    {
      weight: 1,
      arbitrary: tie('plain')
        .filter(admitsNull)
        .map((inner) => t.optional(t.nullable(inner))),
    },
    {
      weight: 1,
      arbitrary: tie('plain')
        .filter(admitsNull)
        .map((inner) => t.nullable(t.optional(inner))),
    },
    // A default of `undefined` is no default: an absent member stays absent.
    {
      weight: 1,
      arbitrary: tie('plain')
        .filter(admitsNull)
        .map((inner) => t.optional(inner).default(undefined)),
    },
    // A `.default()` of one of the descriptor's own values (optional ones too): an absent member
    // reads as it, and `errorOnMissingKeys: 'unless-default'` lets it be left out.
    {
      weight: 1,
      arbitrary: tie('type').chain((type) => arbValueOf(type).map((value) => type.default(value as never))),
    },
  ),
  plain: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: arbLeaf },
    { weight: 1, arbitrary: tie('type').map((e) => t.array(e)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(tie('type'), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 2, max: 4 }))
        .map(([e, minItems, maxItems]) => t.array(e, { minItems, maxItems })),
    },
    { weight: 1, arbitrary: tie('type').map((v) => t.map(v)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(tie('type'), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 3 }))
        .map(([v, minProperties, maxProperties]) => t.map(v, { minProperties, maxProperties })),
    },
    { weight: 1, arbitrary: fc.array(tie('type'), { minLength: 0, maxLength: 3 }).map((e) => t.tuple(e)) },
    // Empty and one-member containers, at every depth and in every container: generated code
    // writes a separator or a declaration per member, and must still be valid with none or one.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<() => Type>(
          () => t.object({}),
          () => t.tuple([]),
        )
        .map((make) => make()),
    },
    { weight: 1, arbitrary: tie('type').map((e) => t.tuple([e])) },
    {
      weight: 1,
      arbitrary: fc.tuple(arbKey, tie('type')).map(([key, field]) => t.object(Object.fromEntries([[key, field]]))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.dictionary(arbKey, tie('type'), { maxKeys: 4 }),
          fc.option(fc.constantFrom(...REQUIRES_KEY), { nil: undefined }),
        )
        .map(([fields, requiresKey]) => (requiresKey ? t.object(fields, { requiresKey }) : t.object(fields))),
    },
    { weight: 1, arbitrary: arbVariant(tie('type')) },
    { weight: 1, arbitrary: tie('plain').map((inner) => t.lazy(() => inner)) },
    { weight: 1, arbitrary: arbRecursive(arbLeaf) },
    {
      weight: 1,
      arbitrary: fc.tuple(tie('plain'), fc.string({ maxLength: 12 })).map(([type, text]) => type.describe(text)),
    },
  ),
})).type;

// ---- Valid values -------------------------------------------------------------------------------

/** How many more times a value may go through `t.lazy`: past it, recursive places get their smallest value. */
const LAZY_BUDGET = 3;

/** The descriptor under `t.optional`, `t.nullable` and `t.lazy` wrappers. */
function unwrap(type: Type): Type {
  const d = type as AnyType;
  return d.kind === 'optional' || d.kind === 'nullable' ? unwrap(d.inner) : type;
}

const arbDateInRange = fc.date({
  min: new Date(DATE_TIME_RANGE[0]),
  max: new Date(DATE_TIME_RANGE[1]),
  noInvalidDate: true,
});

/** JSON values every codec writes and reads back unchanged (no -0, which JSON writes as 0). */
const arbPlainValue: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map(function noNegativeZero(
  v: unknown,
): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(noNegativeZero);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: noNegativeZero(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
});

const FORMAT_VALUES: { readonly [F in StringFormat]: fc.Arbitrary<string> } = {
  email: fc
    .tuple(fc.stringMatching(/^[a-z0-9]{1,6}$/), fc.stringMatching(/^[a-z]{1,6}$/))
    .map(([user, host]) => `${user}@${host}.com`),
  uuid: fc.uuid(),
  uri: fc.webUrl().filter((s) => FORMATS.uri(s)),
  'date-time': arbDateInRange.map((d) => d.toISOString()),
};

function arbStringOf(c: StringConstraints | undefined): fc.Arbitrary<string> {
  if (c === undefined) return fc.string({ unit: 'binary', maxLength: 8 });
  const valid = (s: string) => stringRule(c).failure(s) === undefined;
  if (c.format !== undefined) return FORMAT_VALUES[c.format].filter(valid);
  if (c.pattern !== undefined) return fc.stringMatching(new RegExp(c.pattern, 'u')).filter(valid);
  return fc.string({ unit: 'binary', minLength: c.minLength ?? 0, maxLength: c.maxLength ?? 8 }).filter(valid);
}

/**
 * Valid values of `type`, in the form reading gives them back (f32 already rounded, optional
 * members absent, not `undefined`). `budget` bounds recursion through `t.lazy`.
 */
export function arbValueOf(type: Type, budget = LAZY_BUDGET): fc.Arbitrary<unknown> {
  const d = type as AnyType;
  const inner = (x: Type) => arbValueOf(x, budget);
  // Past the budget, a place that recurses holds its smallest value: an empty array, null.
  const recursesHere = (x: Type) => budget <= 0 && unwrap(x).kind === 'lazy';
  switch (d.kind) {
    case 'string':
      return arbStringOf(d.constraints);
    case 'bool':
      return fc.boolean();
    case 'i8':
    case 'i16':
    case 'i32':
    case 'u8':
    case 'u16':
    case 'u32': {
      const [min, max] = INT_RANGES[d.kind];
      const c = d.constraints;
      if (c === undefined) return fc.integer({ min, max });
      const low = Math.max(min, Math.ceil(c.minimum ?? (c.exclusiveMinimum === undefined ? min : c.exclusiveMinimum)));
      const high = Math.min(
        max,
        Math.floor(c.maximum ?? (c.exclusiveMaximum === undefined ? max : c.exclusiveMaximum)),
      );
      return fc.integer({ min: low, max: high }).filter((n) => numberRule(c).failure(n) === undefined);
    }
    case 'i64':
    case 'u64': {
      const [min, max] = BIGINT_RANGES[d.kind];
      const c = d.constraints;
      if (c === undefined) return fc.bigInt({ min, max });
      const low = c.minimum ?? (c.exclusiveMinimum === undefined ? min : c.exclusiveMinimum + 1n);
      const high = c.maximum ?? (c.exclusiveMaximum === undefined ? max : c.exclusiveMaximum - 1n);
      return fc.bigInt({ min: low, max: high }).filter((n) => numberRule(c).failure(n) === undefined);
    }
    case 'f32':
    case 'f64': {
      const c = d.constraints;
      const arb =
        d.kind === 'f32'
          ? fc.float({ noNaN: true, noDefaultInfinity: true })
          : fc.double({ noNaN: true, noDefaultInfinity: true });
      if (c === undefined) return arb;
      const low = Number(c.minimum ?? c.exclusiveMinimum ?? -1e6);
      const high = Number(c.maximum ?? c.exclusiveMaximum ?? 1e6);
      const bounded =
        d.kind === 'f32'
          ? fc.float({ min: Math.fround(low), max: Math.fround(high), noNaN: true })
          : fc.double({ min: low, max: high, noNaN: true });
      return bounded.filter((n) => numberRule(c).failure(d.kind === 'f32' ? Math.fround(n) : n) === undefined);
    }
    case 'bytes':
      return fc.uint8Array({ maxLength: 12 });
    case 'timestamp':
      return arbDateInRange;
    case 'unknown':
      return arbPlainValue;
    case 'void':
      return fc.constant(undefined);
    case 'literal':
      return fc.constant(d.value);
    case 'enum':
      return fc.constantFrom(...d.values);
    case 'variant': {
      // Past the budget, only members that do not recurse straight away (a member `t.lazy` of its own).
      const members =
        budget > 0
          ? d.members
          : d.members.filter((m) => Object.values(m.fields as Record<string, Type>).every((f) => f.kind !== 'lazy'));
      return fc.oneof(...members.map(inner));
    }
    case 'lazy':
      return arbValueOf(d.target, budget - 1);
    // An optional value that holds null writes `undefined` as `null` where no key can be left out
    // (an element, the top level), and reads that back as `null`: its values are the inner's.
    case 'optional':
      return recursesHere(d.inner)
        ? fc.constant(undefined)
        : d.inner.kind === 'nullable'
          ? inner(d.inner)
          : fc.option(inner(d.inner), { nil: undefined });
    case 'nullable':
      return recursesHere(d.inner) ? fc.constant(null) : fc.option(inner(d.inner), { nil: null });
    case 'array': {
      const { minItems = 0, maxItems = 4 } = d.constraints ?? {};
      if (recursesHere(d.element) && minItems === 0) return fc.constant([]);
      return fc.array(inner(d.element), { minLength: minItems, maxLength: Math.min(maxItems, 4) });
    }
    case 'map': {
      const { minProperties = 0, maxProperties = 4 } = d.constraints ?? {};
      if (recursesHere(d.values) && minProperties === 0) return fc.constant({});
      return fc.dictionary(arbMapKey, inner(presentForm(d.values)), {
        minKeys: minProperties,
        maxKeys: Math.min(maxProperties, 4),
      });
    }
    case 'tuple':
      return fc.tuple(...d.elements.map(inner));
    case 'object': {
      const entries = Object.entries(d.fields);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of entries) model[key] = inner(presentForm(field));
      // t.unknown() takes an absent key as t.optional() does; either with a default other than
      // `undefined` reads an absent key as that default, so its key is always there.
      const leftOut = (f: Type) => (f.kind === 'optional' || f.kind === 'unknown') && f.defaultValue === undefined;
      const requiredKeys = entries.filter(([, f]) => !leftOut(f)).map(([k]) => k);
      return fc.record(model, { requiredKeys });
    }
  }
}

/** Writers skip `undefined` members and map entries, so a present optional value is never `undefined`. */
function presentForm(type: Type): Type {
  return type.kind === 'optional' ? (type as AnyType & { kind: 'optional' }).inner : type;
}

/** A descriptor together with one of its valid values. */
export const arbTyped: fc.Arbitrary<{ type: Type; value: unknown }> = arbDescriptor.chain((type) =>
  arbValueOf(type).map((value) => ({ type, value })),
);

// ---- JSON values near a descriptor --------------------------------------------------------------

/** Any small JSON value, for the places where input is plain wrong. */
const arbAnyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1.5, '', 'x', 'AA==', [], {}, 2 ** 53, 1e21, 300, -129),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Numbers around every bound a descriptor has, as doubles (what a JSON document can hold). */
const arbBoundaryNumber: fc.Arbitrary<number> = fc.constantFrom(
  -129,
  -128,
  127,
  128,
  255,
  256,
  -32769,
  -32768,
  32767,
  65535,
  65536,
  -2147483649,
  -2147483648,
  2147483647,
  4294967295,
  4294967296,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  -(2 ** 63 - 1024),
  2 ** 63 - 1024,
  2 ** 63,
  2 ** 64 - 2048,
  2 ** 64,
  1e300,
  MAX_F32,
  3.4028235677973366e38,
  -MAX_F32,
  0.5,
  -0,
);

/** Numbers at, just inside and just outside a descriptor's own bounds. */
function arbNearBounds(c: object | undefined): fc.Arbitrary<number> {
  const bounds = (Object.values(c ?? {}) as (number | bigint | undefined)[]).filter((b) => b !== undefined).map(Number);
  if (bounds.length === 0) return arbBoundaryNumber;
  return fc.oneof(arbBoundaryNumber, fc.constantFrom(...bounds.flatMap((b) => [b - 1, b - 0.5, b, b + 0.5, b + 1])));
}

/** Text near RFC 3339: valid forms (offsets, a space, lower case, leap seconds) and near misses. */
const arbNearDateTime: fc.Arbitrary<string> = fc.oneof(
  arbDateInRange.map((d) => d.toISOString()),
  fc
    .tuple(arbDateInRange, fc.constantFrom('+05:30', '-0800', '+01', 'z', '+24:00', ''))
    .map(([d, zone]) => d.toISOString().slice(0, -1) + zone),
  arbDateInRange.map((d) => d.toISOString().replace('T', ' ').toLowerCase()),
  fc.constantFrom(
    '1990-12-31T23:59:60Z',
    '1990-12-31T15:59:60-08:00',
    '1990-12-30T23:59:60Z',
    '2024-02-29T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:00:00.123456789Z',
    '2024-01-01',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '+010000-01-01T00:00:00Z',
  ),
);

const arbNearFormat: fc.Arbitrary<string> = fc.oneof(
  ...Object.values(FORMAT_VALUES),
  fc.constantFrom(
    'a@b',
    '@b.com',
    'a@@b.com',
    'not-a-uuid',
    '00000000-0000-0000-0000-00000000000g',
    'http://',
    '//host/x',
    'a:b',
    ' x',
  ),
);

/** Decimal integers as strings, in and out of 64-bit range, and strings that are no decimal integer. */
const arbNearIntegerText: fc.Arbitrary<string> = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 65n }).map(String),
  fc.constantFrom('', '-', '+1', '01', '-0', '1e3', ' 1', '1 ', '0x10', '18446744073709551616', '-9223372036854775809'),
);

/**
 * JSON values close to what `type` accepts: mostly the right shape, with members left out, unknown
 * members added, nulls, numbers at and past every bound, and now and then something else entirely.
 */
export function arbJsonNear(type: Type, budget = LAZY_BUDGET): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: arbAnyJson }, { weight: 6, arbitrary: shapedLike(type, budget) });
}

function shapedLike(type: Type, budget: number): fc.Arbitrary<unknown> {
  const d = type as AnyType;
  const near = (x: Type) => arbJsonNear(x, budget);
  const recursesHere = (x: Type) => budget <= 0 && unwrap(x).kind === 'lazy';
  switch (d.kind) {
    case 'string': {
      const c = d.constraints;
      if (c === undefined) return fc.string({ maxLength: 20 });
      return fc.oneof(
        arbStringOf(c),
        fc.string({ unit: 'binary', maxLength: (c.maxLength ?? 8) + 2 }),
        arbNearFormat,
        fc.stringMatching(/^[a-z0-9]{0,6}$/),
      );
    }
    case 'bool':
      return fc.boolean();
    case 'i8':
    case 'i16':
    case 'i32':
    case 'u8':
    case 'u16':
    case 'u32':
    case 'f32':
    case 'f64':
      return fc.oneof(arbNearBounds(d.constraints), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'i64':
    case 'u64': {
      const numbers = fc.oneof(
        arbNearBounds(d.constraints),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
      return d.json === 'string' ? fc.oneof(numbers, arbNearIntegerText) : numbers;
    }
    case 'bytes':
      return fc.oneof(
        fc.uint8Array({ maxLength: 7 }).map((b) => btoa(String.fromCharCode(...b))),
        fc.string({ maxLength: 6 }),
      );
    case 'timestamp':
      return fc.oneof({ weight: 4, arbitrary: arbNearDateTime }, fc.string({ maxLength: 6 }), fc.integer());
    case 'unknown':
      return arbAnyJson;
    case 'void':
      return fc.constant(null);
    case 'literal':
      return fc.constant(d.value);
    case 'enum':
      return fc.constantFrom(...d.values);
    case 'variant': {
      const members = d.members.map((m) => shapedLike(m, budget));
      const wrongTag = fc
        .oneof(...members)
        .map((v) =>
          typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v, [d.key]: 'none-of-these' } : v,
        );
      return fc.oneof({ weight: 4, arbitrary: fc.oneof(...members) }, wrongTag);
    }
    case 'lazy':
      return budget <= 0 ? fc.constant(null) : arbJsonNear(d.target, budget - 1);
    case 'optional':
    case 'nullable':
      return recursesHere(d.inner) ? fc.constant(null) : fc.oneof(fc.constant(null), near(d.inner));
    case 'array': {
      if (recursesHere(d.element)) return fc.constant([]);
      const { maxItems = 2 } = d.constraints ?? {};
      return fc.array(near(d.element), { maxLength: Math.min(maxItems + 1, 4) });
    }
    case 'map': {
      if (recursesHere(d.values)) return fc.constant({});
      const { maxProperties = 2 } = d.constraints ?? {};
      return fc.dictionary(arbMapKey, near(d.values), { maxKeys: Math.min(maxProperties + 1, 4) });
    }
    case 'tuple': {
      const exact = fc.tuple(...d.elements.map(near));
      return fc.oneof(
        { weight: 4, arbitrary: exact },
        exact.map((a) => a.slice(1)),
        exact.map((a) => [...a, 0]),
      );
    }
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(d.fields)) model[key] = near(field);
      return fc
        .tuple(fc.record(model, { requiredKeys: [] }), fc.option(fc.tuple(arbKey, arbAnyJson), { freq: 5 }))
        .map(([record, extra]) => (extra === null ? record : { ...record, [extra[0]]: extra[1] }));
    }
  }
}
