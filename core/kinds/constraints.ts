// The constraints of `t.string`, the number kinds, `t.array` and `t.map`, stated once: how a
// descriptor's options are checked when it is made, the check readers and writers run (closures
// call `failure` and throw what it finds as a `Failure`, generators emit `passCode`), the messages,
// and the JSON Schema keywords. A bound that fails is `out_of_range`; a pattern or a format that
// fails is `invalid_format`.

import type { JsonSchema } from './rule.ts';
import type {
  ArrayConstraints,
  MapConstraints,
  NumberConstraints,
  StringConstraints,
  StringFormat,
} from './constraint-options.ts';
import type { BigIntKind, FloatKind, IntKind } from './ranges.ts';
import { FORMATS, FORMAT_NAMES } from './formats.ts';
import { refuseSlowPattern } from './pattern.ts';

/** What a value breaks of its constraints: the error's code and its message. */
export interface ConstraintFailure {
  readonly code: 'out_of_range' | 'invalid_format';
  readonly detail: string;
}

/**
 * The check of one descriptor's constraints. `V` is what is checked: the string, the number (a
 * bigint for `i64`/`u64`), or the count of an array's items or a map's entries.
 */
export interface ConstraintRule<V> {
  /** `undefined` when `v` passes, else what it breaks (readers and writers throw it as a `Failure`). */
  failure(v: V): ConstraintFailure | undefined;
  /**
   * `failure(x) === undefined` as JavaScript source, for the identifier `x`; `ref` gives the name
   * under which generated code sees a constant (a regular expression, a function).
   */
  passCode(x: string, ref: (value: unknown) => string): string;
  /** The JSON Schema keywords, a new object each call. */
  schema(): JsonSchema;
}

// ---- Checked when a descriptor is made -----------------------------------------------------------

const STRING_KEYS = ['minLength', 'maxLength', 'pattern', 'format'] as const;
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;

/** `t.string(constraints)`'s options, checked; `undefined` when there are none. */
export function validateStringConstraints(c: StringConstraints | undefined): StringConstraints | undefined {
  if (c === undefined) return undefined;
  refuseUnknownOptions('t.string()', c, STRING_KEYS);
  checkCount('t.string()', 'minLength', c.minLength);
  checkCount('t.string()', 'maxLength', c.maxLength);
  checkOrder('t.string()', c, 'minLength', 'maxLength');
  if (c.pattern !== undefined) {
    if (typeof c.pattern !== 'string') throw new TypeError('t.string(): pattern is a regular expression as a string');
    try {
      new RegExp(c.pattern, 'u');
    } catch (e) {
      throw new TypeError(
        `t.string(): pattern ${JSON.stringify(c.pattern)} is not a valid regular expression: ${(e as Error).message}`,
      );
    }
    refuseSlowPattern(c.pattern);
  }
  if (c.format !== undefined && !Object.hasOwn(FORMATS, c.format)) {
    throw new TypeError(
      `t.string(): format is one of ${Object.keys(FORMATS).join(', ')}, got ${JSON.stringify(c.format)}`,
    );
  }
  return isEmpty(c, STRING_KEYS) ? undefined : { ...c };
}

/**
 * A number kind's bounds, checked; `undefined` when there are none. For `i64`/`u64` the bounds
 * may be bigints or safe integers and are kept as bigints.
 */
export function validateNumberConstraints(
  kind: IntKind | BigIntKind | FloatKind,
  c: NumberConstraints<number | bigint> | undefined,
): NumberConstraints<number | bigint> | undefined {
  if (c === undefined) return undefined;
  const where = `t.${kind}()`;
  refuseUnknownOptions(where, c, NUMBER_KEYS);
  const big = kind === 'i64' || kind === 'u64';
  const out: Record<string, number | bigint> = {};
  for (const key of NUMBER_KEYS) {
    const v = c[key];
    if (v === undefined) continue;
    if (big) {
      if (typeof v === 'bigint') out[key] = v;
      else if (Number.isSafeInteger(v)) out[key] = BigInt(v);
      else throw new TypeError(`${where}: ${key} is a bigint or a safe integer, got ${String(v)}`);
    } else {
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw new TypeError(`${where}: ${key} is a finite number, got ${String(v)}`);
      out[key] = v;
    }
  }
  const low = out.minimum ?? out.exclusiveMinimum;
  const high = out.maximum ?? out.exclusiveMaximum;
  if (low !== undefined && high !== undefined && low > high)
    throw new TypeError(`${where}: the lower bound ${low} is above the upper bound ${high}`);
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `t.array`'s or `t.map`'s count bounds, checked; `undefined` when there are none. */
export function validateCountConstraints<C extends ArrayConstraints | MapConstraints>(
  where: string,
  keys: readonly [keyof C & string, keyof C & string],
  c: C | undefined,
): C | undefined {
  if (c === undefined) return undefined;
  refuseUnknownOptions(where, c, keys);
  const record = c as Record<string, unknown>;
  checkCount(where, keys[0], record[keys[0]]);
  checkCount(where, keys[1], record[keys[1]]);
  checkOrder(where, record, keys[0], keys[1]);
  return isEmpty(c, keys) ? undefined : { ...c };
}

function refuseUnknownOptions(where: string, c: object, known: readonly string[]): void {
  if (typeof c !== 'object' || c === null) throw new TypeError(`${where}: the constraints are an object`);
  const other = Object.keys(c).find((key) => !known.includes(key));
  if (other !== undefined)
    throw new TypeError(`${where}: unknown option ${JSON.stringify(other)} (known: ${known.join(', ')})`);
}

function checkCount(where: string, key: string, v: unknown): void {
  if (v !== undefined && !(Number.isSafeInteger(v) && (v as number) >= 0))
    throw new TypeError(`${where}: ${key} is a whole number of 0 or more, got ${String(v)}`);
}

function checkOrder(where: string, c: object, low: string, high: string): void {
  const record = c as Record<string, number | undefined>;
  const [a, b] = [record[low], record[high]];
  if (a !== undefined && b !== undefined && a > b)
    throw new TypeError(`${where}: ${low} (${a}) is above ${high} (${b})`);
}

function isEmpty(c: object, keys: readonly string[]): boolean {
  return keys.every((key) => (c as Record<string, unknown>)[key] === undefined);
}

// ---- The checks ---------------------------------------------------------------------------------

const rules = new WeakMap<object, ConstraintRule<never>>();

function memo<V>(c: object, make: () => ConstraintRule<V>): ConstraintRule<V> {
  let rule = rules.get(c) as ConstraintRule<V> | undefined;
  if (rule === undefined) rules.set(c, (rule = make()) as ConstraintRule<never>);
  return rule;
}

/** `minLength 1, pattern "^[a-z]+$"`: the constraints `c` holds. */
function describeConstraints(c: object): string {
  return Object.entries(c)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => `${key} ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

/** The length of `s` in code points, as JSON Schema counts it. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--;
      i++;
    }
  }
  return n;
}

/**
 * The check of a string's constraints, in this order: the lengths, then the format, then the
 * pattern. A string over `maxLength` never reaches the pattern, so `maxLength` bounds what a
 * pattern may cost.
 */
export function stringRule(c: StringConstraints): ConstraintRule<string> {
  return memo(c, () => {
    const { minLength = 0, maxLength = Infinity, pattern, format } = c;
    const regex = pattern === undefined ? undefined : new RegExp(pattern, 'u');
    const isFormat = format === undefined ? undefined : FORMATS[format];
    const failure = (s: string): ConstraintFailure | undefined => {
      // A string of n UTF-16 units holds between n/2 and n code points: count them only when that range straddles a bound.
      if (s.length > maxLength || s.length < 2 * minLength) {
        const n = codePointLength(s);
        const length = `a string of ${n} character${n === 1 ? '' : 's'}`;
        if (n < minLength)
          return { code: 'out_of_range', detail: `${length} is shorter than minLength (${minLength})` };
        if (n > maxLength) return { code: 'out_of_range', detail: `${length} is longer than maxLength (${maxLength})` };
      }
      if (isFormat !== undefined && !isFormat(s))
        return {
          code: 'invalid_format',
          detail: `expected ${FORMAT_NAMES[format as StringFormat]} (format ${format})`,
        };
      if (regex !== undefined && !regex.test(s))
        return { code: 'invalid_format', detail: `the string does not match the pattern ${JSON.stringify(pattern)}` };
      return undefined;
    };
    // Generated code calls this function; its name says what it checks where the printed source lists it.
    Object.defineProperty(failure, 'name', { value: `string constraints (${describeConstraints(c)})` });
    return {
      failure,
      passCode: (x, ref) => `${ref(failure)}(${x}) === undefined`,
      schema: () => {
        const s: JsonSchema = {};
        if (c.minLength !== undefined) s.minLength = c.minLength;
        if (c.maxLength !== undefined) s.maxLength = c.maxLength;
        if (pattern !== undefined) s.pattern = pattern;
        if (format !== undefined) s.format = format;
        return s;
      },
    };
  });
}

/** The check of a number kind's bounds; `v` is the value as read (rounded, for `f32`), a bigint for `i64`/`u64`. */
export function numberRule(c: NumberConstraints<number | bigint>): ConstraintRule<number | bigint> {
  return memo(c, () => {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = c;
    const suffix = (b: number | bigint) => (typeof b === 'bigint' ? `${b}n` : String(b));
    const tests: [string, (v: number | bigint) => boolean, string][] = [];
    if (minimum !== undefined)
      tests.push([`>= ${suffix(minimum)}`, (v) => v >= minimum, `below the minimum (${minimum})`]);
    if (exclusiveMinimum !== undefined)
      tests.push([
        `> ${suffix(exclusiveMinimum)}`,
        (v) => v > exclusiveMinimum,
        `not above exclusiveMinimum (${exclusiveMinimum})`,
      ]);
    if (maximum !== undefined)
      tests.push([`<= ${suffix(maximum)}`, (v) => v <= maximum, `above the maximum (${maximum})`]);
    if (exclusiveMaximum !== undefined)
      tests.push([
        `< ${suffix(exclusiveMaximum)}`,
        (v) => v < exclusiveMaximum,
        `not below exclusiveMaximum (${exclusiveMaximum})`,
      ]);
    return {
      failure: (v) => {
        for (const [, passes, message] of tests)
          if (!passes(v)) return { code: 'out_of_range', detail: `${v} is ${message}` };
        return undefined;
      },
      passCode: (x) => tests.map(([op]) => `${x} ${op}`).join(' && '),
      schema: () => {
        const s: JsonSchema = {};
        for (const key of NUMBER_KEYS) if (c[key] !== undefined) s[key] = Number(c[key]);
        return s;
      },
    };
  });
}

/**
 * Merges a number kind's own schema (its type and bounds) with its constraints' keywords: the
 * stricter of two bounds of the same keyword wins.
 */
export function withNumberConstraints(
  kindSchema: JsonSchema,
  c: NumberConstraints<number | bigint> | undefined,
): JsonSchema {
  if (c === undefined) return kindSchema;
  const s = { ...kindSchema };
  for (const [key, value] of Object.entries(numberRule(c).schema()) as [string, number][]) {
    const own = s[key] as number | undefined;
    const lower = key === 'minimum' || key === 'exclusiveMinimum';
    s[key] = own === undefined ? value : lower ? Math.max(own, value) : Math.min(own, value);
  }
  return s;
}

/** The check of an array's length (`minItems`, `maxItems`). */
export function arrayRule(c: ArrayConstraints): ConstraintRule<number> {
  return memo(c, () => countRule(c.minItems, c.maxItems, 'minItems', 'maxItems', 'an array of', 'items'));
}

/** The check of a map's entry count (`minProperties`, `maxProperties`). */
export function mapRule(c: MapConstraints): ConstraintRule<number> {
  return memo(c, () =>
    countRule(c.minProperties, c.maxProperties, 'minProperties', 'maxProperties', 'a map of', 'entries'),
  );
}

function countRule(
  min: number | undefined,
  max: number | undefined,
  minKey: string,
  maxKey: string,
  what: string,
  unit: string,
): ConstraintRule<number> {
  const low = min ?? 0;
  const high = max ?? Infinity;
  return {
    failure: (n) => {
      const counted = `${what} ${n} ${n === 1 ? unit.slice(0, -1).replace(/ie$/, 'y') : unit}`;
      if (n < low) return { code: 'out_of_range', detail: `${counted} has fewer than ${minKey} (${low})` };
      if (n > high) return { code: 'out_of_range', detail: `${counted} has more than ${maxKey} (${high})` };
      return undefined;
    },
    passCode: (x) =>
      [min === undefined ? '' : `${x} >= ${min}`, max === undefined ? '' : `${x} <= ${max}`]
        .filter(Boolean)
        .join(' && ') || 'true',
    schema: () => {
      const s: JsonSchema = {};
      if (min !== undefined) s[minKey] = min;
      if (max !== undefined) s[maxKey] = max;
      return s;
    },
  };
}
