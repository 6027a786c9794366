import { Failure, addSegment } from '../errors/failure.ts';
import type { Reader } from './context.ts';
import { isRecord } from './read-object.ts';
import { mismatch } from './read-scalars.ts';
import { loneSurrogate } from '../kinds/string.ts';
import { setEntry } from '../util/set-entry.ts';

/** Reads an array whose every element is read by `element`. */
export function arrayReader(element: Reader): Reader {
  return (v) => {
    if (!Array.isArray(v)) throw mismatch('an array', v);
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

/** Reads a fixed-length array, one reader per position. */
export function tupleReader(elements: readonly Reader[]): Reader {
  const n = elements.length;
  return (v) => {
    if (!Array.isArray(v)) throw mismatch(`an array of ${n} elements`, v);
    if (v.length !== n) throw new Failure('type_mismatch', `expected an array of ${n} elements, got ${v.length}`);
    const out: unknown[] = [];
    let i = 0;
    try {
      for (; i < n; i++) out.push(elements[i]!(v[i]));
    } catch (e) {
      addSegment(e, i);
    }
    return out;
  };
}

/** Reads an object with arbitrary keys; a `__proto__` key becomes an own property, never a prototype. */
export function mapReader(value: Reader): Reader {
  return (v) => {
    if (!isRecord(v)) throw mismatch('an object (map)', v);
    const out: Record<string, unknown> = {};
    let key = '';
    let notText: string | undefined;
    try {
      for (key in v) {
        if (!key.isWellFormed()) {
          notText = key;
          break;
        }
        setEntry(out, key, value(v[key]));
      }
    } catch (e) {
      addSegment(e, key);
    }
    if (notText !== undefined) throw new Failure('type_mismatch', `expected Unicode text as a key, got ${loneSurrogate(notText)}`);
    return out;
  };
}
