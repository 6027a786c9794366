import { Failure } from '../errors/failure.ts';
import { STRING, loneSurrogate } from '../kinds/string.ts';
import { TIMESTAMP } from '../kinds/timestamp.ts';
import type { ConstraintRule } from '../kinds/constraints.ts';
import { MAP_EXPECTED } from '../kinds/containers.ts';
import { checkConstraint, checkRecord } from './check-scalars.ts';

// The values `t.unknown()` writes, the same in every codec: null, booleans, finite numbers, Unicode
// strings, bigints, bytes, valid Dates, arrays and objects (own enumerable string keys, entries
// whose value is `undefined` skipped). Each codec writes them in its own form; the checks and
// their failures are stated here once.

/** What a value of `t.unknown()` is written as. */
export type UnknownForm =
  | 'null'
  | 'boolean'
  | 'number'
  | 'string'
  | 'bigint'
  | 'bytes'
  | 'timestamp'
  | 'array'
  | 'object';

/**
 * The form of `v`, or the failure of a value `t.unknown()` cannot write: a function, a symbol or
 * `undefined` (outside an object, where it means an absent entry), a string that is not Unicode
 * text and an Invalid Date are `type_mismatch`; `NaN` and the infinities `out_of_range`.
 */
export function unknownForm(v: unknown): UnknownForm {
  switch (typeof v) {
    case 'string':
      if (!STRING.is(v)) throw new Failure('type_mismatch', `cannot write ${loneSurrogate(v)}: it is not Unicode text`);
      return 'string';
    case 'number':
      if (v - v !== 0) throw new Failure('out_of_range', `${v} cannot be written: only finite numbers can`);
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'bigint':
      return 'bigint';
    case 'object':
      if (v === null) return 'null';
      if (Array.isArray(v)) return 'array';
      if (v instanceof Uint8Array) return 'bytes';
      if (v instanceof Date) {
        if (!TIMESTAMP.is(v))
          throw new Failure('type_mismatch', `cannot write an Invalid Date as ${TIMESTAMP.expected}`);
        return 'timestamp';
      }
      return 'object';
    default: {
      const what = v === undefined ? 'undefined' : typeof v === 'function' ? 'a function' : 'a symbol';
      throw new Failure('type_mismatch', `cannot write ${what} as a value of t.unknown()`);
    }
  }
}

/** Whether a string can be written as an object key (Unicode text), else the failure. */
export function checkKey(key: string): string {
  if (!STRING.is(key))
    throw new Failure('type_mismatch', `cannot write ${loneSurrogate(key)} as a key: it is not Unicode text`);
  return key;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The own enumerable string-keyed entries of `o` whose value is not `undefined`, each value read
 * once (a getter may answer differently the next time, and a binary head counts the entries
 * before they are written).
 */
export function definedEntries(o: object): { readonly keys: string[]; readonly values: unknown[] } {
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const key in o) {
    if (!hasOwn.call(o, key)) continue;
    const x = (o as Record<string, unknown>)[key];
    if (x === undefined) continue;
    keys.push(key);
    values.push(x);
  }
  return { keys, values };
}

/**
 * The entries of a `t.map` value to write (see `definedEntries`), read at once: a map with
 * `minProperties`/`maxProperties` (`count`) has them counted, as reading counts them, before any
 * is written.
 */
export function mapEntries(
  v: unknown,
  count: ConstraintRule<number> | undefined,
): { readonly keys: string[]; readonly values: unknown[] } {
  const entries = definedEntries(checkRecord(v, MAP_EXPECTED));
  if (count !== undefined) checkConstraint(count, entries.keys.length);
  return entries;
}
