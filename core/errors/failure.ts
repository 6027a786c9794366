import { WireTimestamp } from '../kinds/timestamp.ts';
import { RawNumber } from '../kinds/raw-number.ts';
import type { ErrorCode } from './codes.ts';
import { headOf } from './shown-text.ts';

/** One problem the collecting pass found, with its path as segments (numbers for array and tuple indices). */
export interface CollectedError {
  readonly code: ErrorCode;
  /** A JSON Pointer. */
  readonly path: string;
  readonly message: string;
  /** The path as segments, outermost first. */
  readonly segments: readonly (string | number)[];
}

/**
 * Thrown inside compiled readers and writers. It is not an `Error` (no stack is captured on the
 * hot path); containers push their key or index as it unwinds, the entry point turns it into a
 * `ReadError` or `WriteError`.
 */
export class Failure {
  /** Innermost segment first; reversed once at the edge. */
  readonly segments: (string | number)[] = [];
  /**
   * Reading only: every problem of the input, this one first, when the read pass read it again to
   * collect them (see `core/read/collect.ts`); `undefined` for a failure found while parsing.
   */
  collected: readonly CollectedError[] | undefined = undefined;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    /** For `missing_key` and `unknown_key`: the key (the container adds it to the path). */
    readonly key?: string,
  ) {}
}

/** Adds a container's segment to a failure passing through it; anything else passes unchanged. */
export function addSegment(error: unknown, segment: string | number): never {
  if (error instanceof Failure) error.segments.push(segment);
  throw error;
}

/** Names the JSON-ish type of a value for messages: `got array`, `got null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof RawNumber) return `the number ${value.text}`;
  if (value instanceof WireTimestamp) return 'a timestamp';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an Invalid Date' : 'a timestamp';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
    case 'bigint':
      return `the integer ${value}`;
    case 'boolean':
      return `${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/**
 * A value shown where only some values are allowed (an enum, a literal, a variant's discriminant):
 * a string quoted and cut after 40 characters, a number or boolean as it is, anything else by its
 * kind (`an object`, `null`).
 */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return quoteText(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeValue(value);
}

/** The values an enum or a literal allows, for messages: `"fast"`, `one of "red", "green"`. */
export function allowedText(values: readonly unknown[]): string {
  return values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/** A string quoted for a message, cut after 40 characters: `"triangle"`, `"aaaa…"`. */
export function quoteText(s: string): string {
  return s.length <= 40 ? JSON.stringify(s) : `${JSON.stringify(headOf(s, 40))}…`;
}
