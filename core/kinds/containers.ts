import { memberCode } from './member.ts';

// The rules of the containers that reading and writing share, stated once: what each is called in
// messages ("expected an object (map), got…", "cannot write … as an array of 2 elements"), and the
// shape tests that generated readers and writers write out inline.

/** What an object of the descriptor named `name` (`t.object(…, { name })`) is called. */
export function objectExpected(name: string | undefined): string {
  return name === undefined ? 'an object' : `an object (${name})`;
}

/** What a `t.map` value is called. */
export const MAP_EXPECTED = 'an object (map)';

/** What a `t.tuple` of `length` elements is called. */
export function tupleExpected(length: number): string {
  return `an array of ${length} elements`;
}

/** What a variant's value must be: `an object (variant on "type")`. */
export function variantExpected(key: string): string {
  return `an object (variant on ${JSON.stringify(key)})`;
}

/** The discriminant values a variant allows, for messages: `one of "circle", "square"`. */
export function discriminantValues(values: readonly unknown[]): string {
  return `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

/** A tuple's shape as JavaScript source: whether the identifier `v` is no array of `length` elements. */
export function notTupleCode(v: string, length: number): string {
  return `!Array.isArray(${v}) || ${v}.length !== ${length}`;
}

/**
 * A variant's dispatch as JavaScript source, for a `v` known to be a record: a switch on its
 * discriminant `key` over `cases` (`case "circle": …`), any other value (or none) running `otherwise`.
 */
export function discriminantSwitchCode(
  v: string,
  key: string,
  cases: readonly string[],
  otherwise: string,
  ref: (value: unknown) => string,
): string {
  return `switch (${memberCode(v, key, ref)}) {
    ${cases.join('\n    ')}
    default: ${otherwise}
  }`;
}
