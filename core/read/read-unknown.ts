import { Failure, addSegment, describeValue } from '../errors/failure.ts';
import { WireTimestamp } from '../kinds/timestamp.ts';
import { setEntry } from '../util/set-entry.ts';
import { nestingTooDeep, notTextKey } from './container-failures.ts';
import type { Reader, TreeSource } from './context.ts';
import { RawNumber } from '../kinds/raw-number.ts';
import { dateOf, notUnicode } from './read-scalars.ts';

const EXPECTED =
  'a value a codec carries (null, a boolean, a number, a string, bytes, a timestamp, an array or a plain object)';

/**
 * Reads `t.unknown()`: a copy of any value the wire carries, found at `depth` (arrays and objects
 * inside it count toward `maxDepth` as declared containers do). From a JSON tree: JSON values,
 * every number a `number` (exact tokens too). From a binary tree or plain JavaScript values also
 * bigints, bytes (copied), timestamps (as `Date`s) and `undefined` (CBOR has it). Strings and keys
 * are Unicode text; objects become plain objects, `__proto__` an own key.
 */
export function unknownReader(source: TreeSource, depth: number, maxDepth: number): Reader {
  const json = source === 'json';

  const copy = (v: unknown, level: number): unknown => {
    switch (typeof v) {
      case 'boolean':
        return v;
      case 'number':
        // NaN and the infinities come only from binary formats (JSON cannot write them).
        return v;
      case 'bigint':
        // The exact JSON parser's integers beyond 2^53: a JSON number reads as a `number`.
        return json ? Number(v) : v;
      case 'string':
        if (!v.isWellFormed()) throw notUnicode(v);
        return v;
      case 'undefined':
        if (json) break;
        return v;
      case 'object': {
        if (v === null) return null;
        if (v instanceof RawNumber) return Number(v.text);
        if (!json) {
          if (v instanceof Uint8Array) return v.slice();
          if (v instanceof WireTimestamp) return dateOf(v);
          if (v instanceof Date) {
            if (Number.isNaN(v.getTime())) break;
            return new Date(v.getTime());
          }
        }
        if (level > maxDepth) throw nestingTooDeep(maxDepth);
        if (Array.isArray(v)) return copyArray(v, level);
        const proto: unknown = Object.getPrototypeOf(v);
        if (proto === Object.prototype || proto === null) return copyObject(v as Record<string, unknown>, level);
        throw new Failure(
          'type_mismatch',
          `expected ${EXPECTED}, got an object (${(v as object).constructor?.name ?? 'unnamed class'})`,
        );
      }
      default:
        break;
    }
    throw new Failure('type_mismatch', `expected ${EXPECTED}, got ${describeValue(v)}`);
  };

  const copyArray = (v: readonly unknown[], level: number): unknown[] => {
    const out: unknown[] = [];
    let i = 0;
    try {
      for (; i < v.length; i++) out.push(copy(v[i], level + 1));
    } catch (e) {
      addSegment(e, i);
    }
    return out;
  };

  const copyObject = (v: Record<string, unknown>, level: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) {
      // Refused at the object, as a t.map refuses it.
      if (!key.isWellFormed()) throw notTextKey(key);
      let value: unknown;
      try {
        value = copy(v[key], level + 1);
      } catch (e) {
        addSegment(e, key);
      }
      // An `undefined` member is no member, as a writer sees it.
      if (value !== undefined) setEntry(out, key, value);
    }
    return out;
  };

  return (v) => copy(v, depth);
}
