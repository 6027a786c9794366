// The constraints a descriptor may carry, named like their JSON Schema keywords: data only. The
// rules that check them (when a descriptor is made, on read and write), their messages and their
// schema are in constraints.ts.

/** The string formats `t.string({ format })` checks, as JSON Schema (and ajv-formats) define them. */
export type StringFormat = 'email' | 'uuid' | 'uri' | 'date-time';

/** `t.string(constraints)`. Lengths count Unicode code points, as JSON Schema does. */
export interface StringConstraints {
  readonly minLength?: number;
  readonly maxLength?: number;
  /** An ECMAScript regular expression (with the `u` flag) that must match somewhere in the string. */
  readonly pattern?: string;
  readonly format?: StringFormat;
}

/** Bounds of a number kind; `B` is `number`, or `bigint | number` for `t.i64()`/`t.u64()`. */
export interface NumberConstraints<B = number> {
  readonly minimum?: B;
  readonly maximum?: B;
  readonly exclusiveMinimum?: B;
  readonly exclusiveMaximum?: B;
}

/** `t.i64(options)`, `t.u64(options)`: bounds, and the form of the value in JSON. */
export interface BigIntOptions extends NumberConstraints<bigint | number> {
  /**
   * `'string'`: JSON carries the integer as a string (`"9007199254740993"`), for JSON readers that
   * would round it; reading takes either form. MessagePack and CBOR keep native integers.
   * Default `'number'`.
   */
  readonly json?: 'number' | 'string';
}

/** `t.array(T, constraints)`. */
export interface ArrayConstraints {
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** `t.map(T, constraints)`. */
export interface MapConstraints {
  readonly minProperties?: number;
  readonly maxProperties?: number;
}
