import { arrayRule, mapRule, numberRule, SCALAR_RULES, stringRule, TIMESTAMP } from '../kinds/index.ts';
import { DEFAULT_MAX_DEPTH } from '../options.ts';
import type { FloatType } from '../descriptors/float.ts';
import type { IntType } from '../descriptors/integer.ts';
import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';
import { encodeBase64 } from '../util/base64.ts';
import { setEntry } from '../util/set-entry.ts';

/** A value JSON data cannot hold exactly: the `default` keyword is left out. */
export const NO_JSON = Symbol('no JSON form');

/**
 * A `.default()` value as the JSON data of a schema's `default`, projected onto its descriptor as
 * writing does (declared members only, absent optionals skipped). In the `'json'` form, as JSON
 * text carries it: bytes as base64, timestamps as RFC 3339 text, `json: 'string'` 64-bit integers
 * as their digits. {@link NO_JSON} when JSON data cannot say it exactly: a 64-bit integer whose
 * digits no double's text gives (beyond 2^53, mostly), a non-finite number, bytes or a timestamp
 * in the `'binary'` form (a schema holds no byte strings or timestamps), a value that does not fit
 * its descriptor (its constraints included), or one nested deeper than the default `maxDepth`.
 */
export function defaultAsJson(type: Type, value: unknown, form: 'json' | 'binary'): unknown {
  return asJson(type, value, form === 'binary', 0);
}

function asJson(type: Type, value: unknown, binary: boolean, depth: number): unknown {
  return visit(type, AS_JSON, value, binary, depth);
}

/** Each form's value as JSON data, or {@link NO_JSON}. */
const AS_JSON: Visitor<unknown, [value: unknown, binary: boolean, depth: number]> = {
  string: (d, value) =>
    SCALAR_RULES.string.is(value) &&
    (d.constraints === undefined || stringRule(d.constraints).failure(value as string) === undefined)
      ? value
      : NO_JSON,
  bool: (_, value) => (typeof value === 'boolean' ? value : NO_JSON),
  int: (d, value) => smallNumber(d, value),
  float: (d, value) => smallNumber(d, value),
  bigint: (d, value, binary) => {
    if (!SCALAR_RULES[d.kind].is(value)) return NO_JSON;
    const b = BigInt(value as bigint | number);
    if (d.constraints !== undefined && numberRule(d.constraints).failure(b) !== undefined) return NO_JSON;
    return !binary && d.json === 'string' ? String(b) : exactNumber(b);
  },
  bytes: (_, value, binary) => (value instanceof Uint8Array && !binary ? encodeBase64(value) : NO_JSON),
  timestamp: (_, value, binary) =>
    TIMESTAMP.is(value) && !binary ? (TIMESTAMP.toText((value as Date).getTime()) ?? NO_JSON) : NO_JSON,
  unknown: (_, value, binary, depth) => (value === undefined ? NO_JSON : anyJson(value, binary, depth)),
  void: () => null,
  literal: (d, value) => (value === d.value ? value : NO_JSON),
  enum: (d, value) => (d.values.includes(value as never) ? value : NO_JSON),
  optional: (d, value, binary, depth) =>
    value === undefined ? NO_JSON : value === null ? null : asJson(d.inner, value, binary, depth),
  nullable: (d, value, binary, depth) => (value === null ? null : asJson(d.inner, value, binary, depth)),
  lazy: (d, value, binary, depth) => asJson(d.target, value, binary, depth),
  array: (d, value, binary, depth) => {
    if (!Array.isArray(value) || depth >= DEFAULT_MAX_DEPTH) return NO_JSON;
    if (d.constraints !== undefined && arrayRule(d.constraints).failure(value.length) !== undefined) return NO_JSON;
    return all(value.map((v) => element(d.element, v, binary, depth + 1)));
  },
  tuple: (d, value, binary, depth) =>
    Array.isArray(value) && value.length === d.elements.length && depth < DEFAULT_MAX_DEPTH
      ? all(d.elements.map((e, i) => element(e, value[i], binary, depth + 1)))
      : NO_JSON,
  map: (d, value, binary, depth) => {
    if (!isRecord(value) || depth >= DEFAULT_MAX_DEPTH) return NO_JSON;
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      const json = asJson(d.values, v, binary, depth + 1);
      if (json === NO_JSON) return NO_JSON;
      // A key such as `__proto__` stays an own member of the data.
      setEntry(out, key, json);
      count++;
    }
    if (d.constraints !== undefined && mapRule(d.constraints).failure(count) !== undefined) return NO_JSON;
    return out;
  },
  variant: (d, value, binary, depth) => {
    if (!isRecord(value) || !Object.hasOwn(value, d.key)) return NO_JSON;
    const member = d.byValue.get((value as Record<string, string>)[d.key]!);
    return member === undefined ? NO_JSON : asJson(member, value, binary, depth);
  },
  object: (d, value, binary, depth) => {
    if (!isRecord(value) || depth >= DEFAULT_MAX_DEPTH) return NO_JSON;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(d.fields)) {
      const v = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
      if (v === undefined) {
        // Writing writes an absent member's default, and skips an absent optional or unknown one.
        if (field.hasDefault) {
          const json = asJson(field, field.defaultValue, binary, depth + 1);
          if (json === NO_JSON) return NO_JSON;
          out[key] = json;
          continue;
        }
        if (field.kind === 'optional' || field.kind === 'unknown') continue;
        return NO_JSON;
      }
      const json = asJson(field, v, binary, depth + 1);
      if (json === NO_JSON) return NO_JSON;
      out[key] = json;
    }
    return out;
  },
};

/** `i8` … `u32`, `f32`, `f64`: a number of the kind within the constraints (`f32`'s checked once rounded, as reading does). */
function smallNumber(d: IntType | FloatType, value: unknown): unknown {
  if (!SCALAR_RULES[d.kind].is(value)) return NO_JSON;
  const n = value as number;
  return d.constraints === undefined ||
    numberRule(d.constraints).failure(d.kind === 'f32' ? Math.fround(n) : n) === undefined
    ? n
    : NO_JSON;
}

/** An element of an array or tuple: an absent optional is written as `null`. */
function element(type: Type, value: unknown, binary: boolean, depth: number): unknown {
  return value === undefined && type.kind === 'optional' ? null : asJson(type, value, binary, depth);
}

/** A `t.unknown()` value as the JSON writer writes it (bytes and dates as text, in the JSON form only). */
function anyJson(value: unknown, binary: boolean, depth: number): unknown {
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : NO_JSON;
    case 'string':
      return value.isWellFormed() ? value : NO_JSON;
    case 'bigint':
      return exactNumber(value);
    case 'object': {
      if (value === null) return null;
      if (depth >= DEFAULT_MAX_DEPTH) return NO_JSON;
      if (value instanceof Uint8Array) return binary ? NO_JSON : encodeBase64(value);
      if (value instanceof Date)
        return binary || !TIMESTAMP.is(value) ? NO_JSON : (TIMESTAMP.toText(value.getTime()) ?? NO_JSON);
      if (Array.isArray(value))
        return all(value.map((v) => (v === undefined ? NO_JSON : anyJson(v, binary, depth + 1))));
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const v = (value as Record<string, unknown>)[key];
        if (v === undefined) continue;
        const json = anyJson(v, binary, depth + 1);
        if (json === NO_JSON || !key.isWellFormed()) return NO_JSON;
        setEntry(out, key, json);
      }
      return out;
    }
    default:
      return NO_JSON;
  }
}

/** A 64-bit integer as a JSON number, when a double's shortest text gives exactly its digits. */
function exactNumber(b: bigint): unknown {
  const n = Number(b);
  return JSON.stringify(n) === String(b) ? n : NO_JSON;
}

function isRecord(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function all(values: unknown[]): unknown {
  return values.includes(NO_JSON) ? NO_JSON : values;
}
