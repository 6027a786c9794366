import { Failure, addSegment } from '../errors/failure.ts';
import type { ConstraintRule } from '../kinds/constraints.ts';
import { MAP_EXPECTED, tupleExpected } from '../kinds/containers.ts';
import { setEntry } from '../util/set-entry.ts';
import { readAt, record } from './collect.ts';
import { notTextKey } from './container-failures.ts';
import type { Reader } from './context.ts';
import { isRecord, keyCount } from './records.ts';
import { mismatch } from './read-scalars.ts';

// Each container has a fail-fast reader, and one for the collecting pass (`collect.ts`) that
// records a member's failure at its index or key and reads on.

/**
 * Reads an array whose every element is read by `element`. Its length is checked against `count`
 * (`minItems`, `maxItems`) before any element is read.
 */
export function arrayReader(element: Reader, count?: ConstraintRule<number>, collect?: boolean): Reader {
  if (collect) {
    return (v) => {
      checkArray(v, count);
      const out: unknown[] = [];
      for (let i = 0; i < v.length; i++) out.push(readAt(element, v[i], i));
      return out;
    };
  }
  return (v) => {
    checkArray(v, count);
    const out: unknown[] = [];
    let i = 0;
    try {
      for (; i < v.length; i++) out.push(element(v[i]));
    } catch (e) {
      addSegment(e, i);
    }
    return out;
  };
}

function checkArray(v: unknown, count: ConstraintRule<number> | undefined): asserts v is unknown[] {
  if (!Array.isArray(v)) throw mismatch('an array', v);
  if (count !== undefined) {
    const failure = count.failure(v.length);
    if (failure !== undefined) throw new Failure(failure.code, failure.detail);
  }
}

/** Reads a fixed-length array, one reader per position. */
export function tupleReader(elements: readonly Reader[], collect?: boolean): Reader {
  const n = elements.length;
  const check = (v: unknown): v is unknown[] => {
    if (!Array.isArray(v)) throw mismatch(tupleExpected(n), v);
    if (v.length !== n) throw new Failure('type_mismatch', `expected ${tupleExpected(n)}, got ${v.length}`);
    return true;
  };
  if (collect) {
    return (v) => {
      check(v);
      return elements.map((read, i) => readAt(read, (v as unknown[])[i], i));
    };
  }
  return (v) => {
    check(v);
    const out: unknown[] = [];
    let i = 0;
    try {
      for (; i < n; i++) out.push(elements[i]!((v as unknown[])[i]));
    } catch (e) {
      addSegment(e, i);
    }
    return out;
  };
}

/**
 * Reads an object with arbitrary keys; a `__proto__` key becomes an own property, never a
 * prototype. Its entry count is checked against `count` (`minProperties`, `maxProperties`)
 * before any entry is read.
 */
export function mapReader(value: Reader, count?: ConstraintRule<number>, collect?: boolean): Reader {
  const check = (v: unknown): v is Record<string, unknown> => {
    if (!isRecord(v)) throw mismatch(MAP_EXPECTED, v);
    if (count !== undefined) {
      const failure = count.failure(keyCount(v));
      if (failure !== undefined) throw new Failure(failure.code, failure.detail);
    }
    return true;
  };
  if (collect) {
    return (v) => {
      check(v);
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      let notText = false;
      for (const key in o) {
        if (key.isWellFormed()) setEntry(out, key, readAt(value, o[key], key));
        else if (!notText) {
          // Said once, at the map, as the fail-fast reader says it.
          notText = true;
          record(notTextKey(key));
        }
      }
      return out;
    };
  }
  return (v) => {
    check(v);
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    let key = '';
    let notText: string | undefined;
    try {
      for (key in o) {
        if (!key.isWellFormed()) {
          notText = key;
          break;
        }
        setEntry(out, key, value(o[key]));
      }
    } catch (e) {
      addSegment(e, key);
    }
    if (notText !== undefined) throw notTextKey(notText);
    return out;
  };
}
