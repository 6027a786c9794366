import { Failure, describeValue } from '../errors/failure.ts';
import { BIGINT_RANGES, INT_RANGES, MAX_F32_INPUT, type BigIntKind, type FloatKind, type IntKind } from '../types/ranges.ts';
import { decodeBase64 } from '../util/base64.ts';
import type { TreeSource, Reader } from './context.ts';
import { RawNumber, decimalToBigInt } from './raw-number.ts';

/** A `type_mismatch` failure: "expected a string, got the integer 5". */
export function mismatch(expected: string, got: unknown): Failure {
  return new Failure('type_mismatch', `expected ${expected}, got ${describeValue(got)}`);
}

export const readString: Reader = (v) => {
  if (typeof v !== 'string') throw mismatch('a string', v);
  return v;
};

export const readBool: Reader = (v) => {
  if (typeof v !== 'boolean') throw mismatch('a boolean', v);
  return v;
};

export const readVoid: Reader = (v) => {
  if (v !== null && v !== undefined) throw mismatch('null', v);
  return undefined;
};

/** Reads `i8` … `u32`: an integral number (or bigint, from binary formats) within the kind's range. */
export function intReader(kind: IntKind): Reader {
  const [min, max] = INT_RANGES[kind];
  const outOfRange = (v: unknown) => new Failure('out_of_range', `${String(v instanceof RawNumber ? v.text : v)} is outside ${kind} (${min}..${max})`);
  return (v) => {
    if (typeof v === 'number') {
      if (v >= min && v <= max) {
        if (Number.isInteger(v)) return v;
        throw mismatch(`an integer (${kind})`, v);
      }
      if (Number.isNaN(v)) throw mismatch(`an integer (${kind})`, v);
      if (Number.isFinite(v) && !Number.isInteger(v)) throw mismatch(`an integer (${kind})`, v);
      throw outOfRange(v);
    }
    if (typeof v === 'bigint') {
      if (v >= BigInt(min) && v <= BigInt(max)) return Number(v);
      throw outOfRange(v);
    }
    if (v instanceof RawNumber) {
      if (decimalToBigInt(v.text) === undefined) throw mismatch(`an integer (${kind})`, v.text);
      throw outOfRange(v);
    }
    throw mismatch(`an integer (${kind})`, v);
  };
}

/**
 * Thrown (not a failure) when a 64-bit member of a `JSON.parse` tree holds an integer beyond
 * 2^53: its digits may be lost, so the JSON codec reads the text again with its exact parser.
 */
export class NeedsExactNumbers {}

/** Reads `i64`/`u64` exactly: a safe-integer number, a bigint, or a raw JSON token. */
export function bigIntReader(kind: BigIntKind, source: TreeSource): Reader {
  const fromJsonParse = source === 'json';
  const [min, max] = BIGINT_RANGES[kind];
  const outOfRange = (shown: unknown) => new Failure('out_of_range', `${String(shown)} is outside ${kind} (${min}..${max})`);
  return (v) => {
    if (typeof v === 'bigint') {
      if (v >= min && v <= max) return v;
      throw outOfRange(v);
    }
    if (typeof v === 'number') {
      if (Number.isInteger(v)) {
        if (fromJsonParse && !Number.isSafeInteger(v)) throw new NeedsExactNumbers();
        const b = BigInt(v);
        if (b >= min && b <= max) return b;
        throw outOfRange(v);
      }
      if (Number.isNaN(v) || Number.isFinite(v)) throw mismatch(`an integer (${kind})`, v);
      throw outOfRange(v);
    }
    if (v instanceof RawNumber) {
      const b = decimalToBigInt(v.text);
      if (b === undefined) throw mismatch(`an integer (${kind})`, Number(v.text));
      if (b === null || b < min || b > max) throw outOfRange(v.text);
      return b;
    }
    throw mismatch(`an integer (${kind})`, v);
  };
}

/** Reads `f32`/`f64`: a finite number; `f32` must be within float32 range and is rounded to it. */
export function floatReader(kind: FloatKind): Reader {
  const toNumber = (v: unknown): number => {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    if (v instanceof RawNumber) return Number(v.text);
    throw mismatch(`a number (${kind})`, v);
  };
  if (kind === 'f64') {
    return (v) => {
      const n = toNumber(v);
      if (Number.isFinite(n)) return n;
      throw new Failure('out_of_range', `${String(n)} is not a finite f64`);
    };
  }
  return (v) => {
    const n = toNumber(v);
    if (n >= -MAX_F32_INPUT && n <= MAX_F32_INPUT) return Math.fround(n);
    throw new Failure('out_of_range', `${String(n)} is outside f32: it would round to infinity`);
  };
}

/** Reads `bytes`: a `Uint8Array`, or strict padded base64 text from JSON. */
export function bytesReader(form: TreeSource): Reader {
  if (form === 'binary') {
    return (v) => {
      if (v instanceof Uint8Array) return v;
      throw mismatch('bytes', v);
    };
  }
  return (v) => {
    if (typeof v !== 'string') throw mismatch('base64 text', v);
    const bytes = decodeBase64(v);
    if (bytes === undefined) throw mismatch('base64 text', v);
    return bytes;
  };
}
