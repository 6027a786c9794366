import { arrayRule, mapRule, numberRule, stringRule } from '../kinds/constraints.ts';
import { unwrapLazy } from '../descriptors/unwrap-lazy.ts';
import type { ObjectType } from '../descriptors/object.ts';
import type { Type } from '../descriptors/type.ts';
import type { MissingKeys } from '../options.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';

/** The kind of `type` once `t.lazy` is followed. */
const kindOf = (type: Type): Type['kind'] => unwrapLazy(type).kind;

/** `t.optional`, `t.nullable` and `t.unknown` (also behind `t.lazy`) are the nullable kinds of the specification. */
export function isNullableKind(type: Type): boolean {
  const kind = kindOf(type);
  return kind === 'optional' || kind === 'nullable' || kind === 'unknown';
}

/**
 * Whether an object member of this descriptor is left out of the result when it reads as
 * `undefined` (`t.optional` given `null`, `t.unknown` given CBOR's `undefined`): `t.optional` and
 * `t.unknown`, also behind `t.lazy`.
 */
export function isLeftOutWhenUndefined(type: Type): boolean {
  const kind = kindOf(type);
  return kind === 'optional' || kind === 'unknown';
}

/**
 * Whether an absent member of this descriptor is left out of the result: an optional or unknown
 * member (also behind `t.lazy`) without a `.default()`, or with `.default(undefined)`, which is no
 * default (`t.optional(T).default(undefined)` is `t.optional(T)`).
 */
export function isLeftOutWhenAbsent(field: Type): boolean {
  const resolved = unwrapLazy(field, true);
  return isLeftOutWhenUndefined(resolved) && (!resolved.hasDefault || resolved.defaultValue === undefined);
}

/** Whether an absent member reads as a `.default()` of its own (also behind `t.lazy`). */
function readsAsOwnDefault(field: Type): boolean {
  return unwrapLazy(field, true).hasDefault && !isLeftOutWhenAbsent(field);
}

/**
 * Whether reading rejects an absent `key` as `missing_key`. Shared by the reader and the JSON
 * Schema writer, so `required` lists exactly what reading enforces; decided once per key when a
 * reader is compiled. A key whose default would break its member's constraints
 * (`t.string({ minLength: 1 })` defaults to `''`) is required whatever the options say: reading
 * never makes a value that writing would refuse. Under `'unless-default'`, a member an absent key
 * reads as a `.default()` of (see `readsAsOwnDefault`) is optional whatever `requiresKey` says, and
 * the others follow the rule of `true`.
 */
export function isRequiredKey(object: ObjectType, key: string, errorOnMissingKeys: MissingKeys): boolean {
  const field = Object.hasOwn(object.fields, key) ? object.fields[key] : undefined;
  if (field === undefined) return false;
  if (!isLeftOutWhenUndefined(field) && defaultBreaksConstraints(field)) return true;
  if (!errorOnMissingKeys) return false;
  if (errorOnMissingKeys === 'unless-default' && readsAsOwnDefault(field)) return false;
  const nullable = isNullableKind(field);
  return object.requiresKey ? object.requiresKey(key, nullable) : !nullable;
}

const breaks = new WeakMap<Type, boolean>();

/**
 * Whether the value an absent member of this descriptor becomes fails the descriptor's own
 * constraints: a kind's default (`''`, `0`, `[]`, `{}`, each member's for an object, the first
 * member's for a variant) or a `.default()`, checked against the bounds, lengths, patterns and
 * formats of the descriptor (not of what nests deeper in a `.default()` value).
 */
export function defaultBreaksConstraints(type: Type): boolean {
  let answer = breaks.get(type);
  if (answer === undefined) breaks.set(type, (answer = breaksAt(type, new Set())));
  return answer;
}

function breaksAt(type: Type, seen: Set<Type>): boolean {
  // A descriptor met again on the way down makes no default of its own (t.lazy stops there).
  if (seen.has(type)) return false;
  seen.add(type);
  if (type.hasDefault) return visit(type, valueBreaks, type.defaultValue);
  return visit(type, kindDefaultBreaks, seen);
}

const no = () => false;

/** Whether the default of each form (a descriptor without `.default()`) fails its constraints. */
const kindDefaultBreaks: Visitor<boolean, [seen: Set<Type>]> = {
  string: (d) => valueBreaks.string(d, ''),
  int: (d) => valueBreaks.int(d, 0),
  float: (d) => valueBreaks.float(d, 0),
  bigint: (d) => valueBreaks.bigint(d, 0n),
  array: (d) => valueBreaks.array(d, []),
  map: (d) => valueBreaks.map(d, {}),
  tuple: (d, seen) => d.elements.some((e) => breaksAt(e, seen)),
  object: (d, seen) => Object.values(d.fields).some((f) => !isLeftOutWhenUndefined(f) && breaksAt(f, seen)),
  variant: (d, seen) => breaksAt(d.members[0]!, seen),
  lazy: (d, seen) => breaksAt(d.target, seen),
  bool: no,
  bytes: no,
  timestamp: no,
  unknown: no,
  void: no,
  literal: no,
  enum: no,
  optional: no,
  nullable: no,
};

/** Whether a value fails the constraints of the descriptor itself. */
const valueBreaks: Visitor<boolean, [value: unknown]> = {
  string: (d, value) =>
    d.constraints !== undefined && typeof value === 'string' && stringRule(d.constraints).failure(value) !== undefined,
  int: (d, value) =>
    d.constraints !== undefined && typeof value === 'number' && numberRule(d.constraints).failure(value) !== undefined,
  float: (d, value) =>
    d.constraints !== undefined &&
    typeof value === 'number' &&
    numberRule(d.constraints).failure(d.kind === 'f32' ? Math.fround(value) : value) !== undefined,
  bigint: (d, value) =>
    d.constraints !== undefined &&
    (typeof value === 'bigint' || typeof value === 'number') &&
    numberRule(d.constraints).failure(BigInt(value)) !== undefined,
  array: (d, value) =>
    d.constraints !== undefined && Array.isArray(value) && arrayRule(d.constraints).failure(value.length) !== undefined,
  map: (d, value) =>
    d.constraints !== undefined &&
    typeof value === 'object' &&
    value !== null &&
    mapRule(d.constraints).failure(Object.keys(value).length) !== undefined,
  bool: no,
  bytes: no,
  timestamp: no,
  unknown: no,
  void: no,
  literal: no,
  enum: no,
  tuple: no,
  object: no,
  variant: no,
  lazy: no,
  optional: no,
  nullable: no,
};
