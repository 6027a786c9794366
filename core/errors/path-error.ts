import type { ErrorCode } from './codes.ts';
import { describeLocation, toJsonPointer } from './json-pointer.ts';
import type { Failure } from './failure.ts';
import { shownText } from './shown-text.ts';

/**
 * What `ReadError` and `WriteError` share: a code, a JSON Pointer and, for key errors, the key.
 * Each subclass names a registered symbol as its `brand`, so `instanceof` works across two
 * copies of the package (as connect-es does).
 */
export abstract class PathError extends Error {
  static readonly brand: symbol;
  readonly code: ErrorCode;
  /** RFC 6901 JSON Pointer to the offending value or key, e.g. `/books/3/title`. */
  readonly path: string;
  /** The key, for `missing_key` and `unknown_key`. */
  readonly key: string | undefined;

  constructor(code: ErrorCode, path: string, message: string, key?: string) {
    // Keys and values quoted from the input may hold lone surrogates, which no UTF-8 problem
    // document could carry: the error's text shows them as U+FFFD.
    super(message.toWellFormed());
    this.code = code;
    this.path = path.toWellFormed();
    this.key = key?.toWellFormed();
    Object.defineProperty(this, (new.target as typeof PathError).brand, { value: true });
  }

  static override [Symbol.hasInstance](this: typeof PathError, value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[this.brand] === true;
  }
}

/** Builds the fields of a `PathError` from an internal failure: "missing required key 'name' at /users/3". */
export function fromFailure(f: Failure): [ErrorCode, string, string, string | undefined] {
  return describeFailure(f.code, f.detail, f.key, f.segments.slice().reverse());
}

/**
 * The fields of a `PathError` for a failure found at `segments` (outermost first): the JSON
 * Pointer, and the message naming where (for a key error, the object holding the key). A key (a
 * segment) over `MAX_SHOWN_CHARS` characters is shown cut, ending with `…`, in all three.
 */
export function describeFailure(
  code: ErrorCode,
  detail: string,
  key: string | undefined,
  segments: readonly (string | number)[],
): [ErrorCode, string, string, string | undefined] {
  // Keys come from the input: each is shown cut (an unknown key of 10 MB makes a short error).
  const shown = segments.map((s) => (typeof s === 'string' ? shownText(s) : s));
  const path = toJsonPointer(shown);
  if (key !== undefined) {
    const parent = describeLocation(toJsonPointer(shown.slice(0, -1)));
    const shownKey = shownText(key);
    return [code, path, `${detail} '${shownKey}' at ${parent}`, shownKey];
  }
  return [code, path, `${detail} at ${describeLocation(path)}`, undefined];
}
