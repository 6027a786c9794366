// fast-check arbitraries shared by the property tests: descriptors, valid values of a descriptor
// (for round trips), and JSON values near a descriptor (for schema agreement).
import fc from 'fast-check';
import { t, type Type, type AnyType, type RequiresKey } from '../../core/index.ts';
import { BIGINT_RANGES, INT_RANGES, MAX_F32 } from '../../core/types/ranges.ts';

/** Member names, including ones that `Object.prototype` also has and ones that need escaping in a JSON Pointer. */
const arbKey = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__') },
  { weight: 1, arbitrary: fc.constantFrom('id', 'constructor', 'toString', 'a/b', '~0', '') },
);

/** Map keys may be anything, `__proto__` included: it must stay a plain own key. */
const arbMapKey = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 6 }) }, fc.constantFrom('__proto__', 'constructor'));

const REQUIRES_KEY: readonly RequiresKey[] = [
  (_key, isNullable) => !isNullable,
  () => true,
  () => false,
  (key) => !key.startsWith('_'),
];

const arbLeaf: fc.Arbitrary<Type> = fc.oneof(
  fc.constantFrom<() => Type>(
    t.string, t.bool, t.i8, t.i16, t.i32, t.u8, t.u16, t.u32, t.i64, t.u64, t.f32, t.f64, t.bytes,
  ).map((make) => make()),
  fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null)).map((v) => t.literal(v)),
  fc.uniqueArray(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 })), { minLength: 1, maxLength: 4 }).map((v) => t.enum(v)),
);

/** `t.optional(t.literal(null))` could never hold its `null`: wrappers take other types. */
const admitsNull = (inner: Type) => !(inner.kind === 'literal' && (inner as AnyType & { kind: 'literal' }).value === null);

/** Descriptors of every kind but `void`, nested a few levels deep. Optional and nullable never wrap each other. */
export const arbDescriptor: fc.Arbitrary<Type> = fc.letrec<{ type: Type; plain: Type }>((tie) => ({
  type: fc.oneof(
    { weight: 4, arbitrary: tie('plain') },
    { weight: 1, arbitrary: tie('plain').filter(admitsNull).map((inner) => t.optional(inner)) },
    { weight: 1, arbitrary: tie('plain').filter(admitsNull).map((inner) => t.nullable(inner)) },
  ),
  plain: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: arbLeaf },
    { weight: 1, arbitrary: tie('type').map((e) => t.array(e)) },
    { weight: 1, arbitrary: tie('type').map((v) => t.map(v)) },
    { weight: 1, arbitrary: fc.array(tie('type'), { minLength: 1, maxLength: 3 }).map((e) => t.tuple(e)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.dictionary(arbKey, tie('type'), { maxKeys: 4 }), fc.option(fc.constantFrom(...REQUIRES_KEY), { nil: undefined }))
        .map(([fields, requiresKey]) => (requiresKey ? t.object(fields, { requiresKey }) : t.object(fields))),
    },
  ),
})).type;

/** Valid values of `type`, in the form reading gives them back (f32 already rounded, optional members absent, not `undefined`). */
export function arbValueOf(type: Type): fc.Arbitrary<unknown> {
  const d = type as AnyType;
  switch (d.kind) {
    case 'string': return fc.string({ unit: 'binary', maxLength: 8 });
    case 'bool': return fc.boolean();
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': {
      const [min, max] = INT_RANGES[d.kind];
      return fc.integer({ min, max });
    }
    case 'i64': case 'u64': {
      const [min, max] = BIGINT_RANGES[d.kind];
      return fc.bigInt({ min, max });
    }
    case 'f32': return fc.float({ noNaN: true, noDefaultInfinity: true });
    case 'f64': return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'bytes': return fc.uint8Array({ maxLength: 12 });
    case 'void': return fc.constant(undefined);
    case 'literal': return fc.constant(d.value);
    case 'enum': return fc.constantFrom(...d.values);
    case 'timestamp': case 'unknown': case 'variant': case 'lazy': throw new TypeError(`lacquer: ${d.kind} is not supported here yet`);
    case 'optional': return fc.option(arbValueOf(d.inner), { nil: undefined });
    case 'nullable': return fc.option(arbValueOf(d.inner), { nil: null });
    case 'array': return fc.array(arbValueOf(d.element), { maxLength: 4 });
    case 'map': return fc.dictionary(arbMapKey, arbValueOf(presentForm(d.values)), { maxKeys: 4 });
    case 'tuple': return fc.tuple(...d.elements.map(arbValueOf));
    case 'object': {
      const entries = Object.entries(d.fields);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of entries) model[key] = arbValueOf(presentForm(field));
      const requiredKeys = entries.filter(([, f]) => f.kind !== 'optional').map(([k]) => k);
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

/** Any small JSON value, for the places where input is plain wrong. */
const arbAnyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1.5, '', 'x', 'AA==', [], {}, 2 ** 53, 1e21, 300, -129),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Numbers around every bound a descriptor has, as doubles (what a JSON document can hold). */
const arbBoundaryNumber: fc.Arbitrary<number> = fc.constantFrom(
  -129, -128, 127, 128, 255, 256, -32769, -32768, 32767, 65535, 65536, -2147483649, -2147483648, 2147483647,
  4294967295, 4294967296, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), -(2 ** 63 - 1024), 2 ** 63 - 1024, 2 ** 63,
  2 ** 64 - 2048, 2 ** 64, 1e300, MAX_F32, 3.4028235677973366e38, -MAX_F32, 0.5, -0,
);

/**
 * JSON values close to what `type` accepts: mostly the right shape, with members left out, unknown
 * members added, nulls, numbers at and past every bound, and now and then something else entirely.
 */
export function arbJsonNear(type: Type): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: arbAnyJson }, { weight: 6, arbitrary: shapedLike(type) });
}

function shapedLike(type: Type): fc.Arbitrary<unknown> {
  const d = type as AnyType;
  const numbers = fc.oneof(arbBoundaryNumber, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  switch (d.kind) {
    case 'string': return fc.string({ maxLength: 20 });
    case 'bool': return fc.boolean();
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32':
    case 'i64': case 'u64': case 'f32': case 'f64':
      return numbers;
    case 'bytes': return fc.oneof(fc.uint8Array({ maxLength: 7 }).map((b) => btoa(String.fromCharCode(...b))), fc.string({ maxLength: 6 }));
    case 'void': return fc.constant(null);
    case 'literal': return fc.constant(d.value);
    case 'enum': return fc.constantFrom(...d.values);
    case 'timestamp': case 'unknown': case 'variant': case 'lazy': throw new TypeError(`lacquer: ${d.kind} is not supported here yet`);
    case 'optional': case 'nullable': return fc.oneof(fc.constant(null), arbJsonNear(d.inner));
    case 'array': return fc.array(arbJsonNear(d.element), { maxLength: 3 });
    case 'map': return fc.dictionary(arbMapKey, arbJsonNear(d.values), { maxKeys: 3 });
    case 'tuple': {
      const exact = fc.tuple(...d.elements.map(arbJsonNear));
      return fc.oneof({ weight: 4, arbitrary: exact }, exact.map((a) => a.slice(1)), exact.map((a) => [...a, 0]));
    }
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(d.fields)) model[key] = arbJsonNear(field);
      return fc
        .tuple(fc.record(model, { requiredKeys: [] }), fc.option(fc.tuple(arbKey, arbAnyJson), { freq: 5 }))
        .map(([record, extra]) => (extra === null ? record : { ...record, [extra[0]]: extra[1] }));
    }
  }
}
