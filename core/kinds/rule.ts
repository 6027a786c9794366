/** A JSON Schema document or subschema, as a plain JSON-compatible object (`core/schema/` builds whole ones). */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * The rules of one scalar kind, stated once (as TypeBox states a keyword: its check, its error and
 * its emitter side by side). Closure readers and writers call `is`; every code generator emits
 * `isCode`, the same test written out inline; error messages name `expected`; JSON Schema takes
 * `schema`. Nothing here generates code: the emitters only return source text.
 */
export interface ScalarRule {
  /** What a `type_mismatch` names as expected: `a string`, `an integer (u16)`. */
  readonly expected: string;
  /** The check: whether a JavaScript value is a value of the kind as it stands (what a writer takes). */
  is(v: unknown): boolean;
  /** `is` as JavaScript source, testing the identifier `x` (which it may read more than once). */
  isCode(x: string): string;
  /** The kind's JSON Schema, a new object each call. */
  schema(): JsonSchema;
}

/** The rules of a number kind: a scalar rule with bounds, checked the same way on every path. */
export interface NumberRule extends ScalarRule {
  /** `is` for a value known to be a number: within the bounds (and integral, for integer kinds). */
  accepts(n: number): boolean;
  /**
   * The bounds as JavaScript source, for an `x` known to be a number of the right form (an integer
   * from a wire's integer item, any number from a float item) or `undefined`, which fails it.
   */
  rangeCode(x: string): string;
  /** The value reading gives for an accepted number: itself, or rounded to float32 for `f32`. */
  read(n: number): number;
  /** `read` as JavaScript source. */
  readCode(x: string): string;
}
