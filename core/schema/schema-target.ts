import type { ObjectType } from '../descriptors/object.ts';
import type { ResolvedReadOptions } from '../options.ts';
import type { PathNotation, SchemaPath } from './schema-path.ts';

/** A JSON Schema document or subschema, as a plain JSON-compatible object. */
export type { JsonSchema } from '../kinds/rule.ts';
import type { JsonSchema } from '../kinds/rule.ts';

/**
 * Which side of the wire a schema describes. `'read'`: what reading accepts (`required` lists the
 * keys reading rejects as missing; a `json: 'string'` 64-bit integer is its number or its digits).
 * `'write'`: what writing writes (`required` lists the members always written; such an integer is
 * its digits).
 */
export type SchemaDirection = 'read' | 'write';

/**
 * How values are carried. `'json'`: bytes as base64 text, timestamps as RFC 3339 text. `'binary'`
 * (MessagePack, CBOR): bytes as byte strings, timestamps native (the schema says so with
 * {@link WIRE_KEYWORD}), 64-bit integers always numbers.
 */
export type WireForm = 'json' | 'binary';

/**
 * How number kinds are described. `'bounds'`: every kind by `type` and its bounds, 64-bit ones as
 * the doubles that keep a validator exact (JSON Schema). `'formats'`: the OpenAPI format registry's
 * `format` beside them (`int32`, `float`…), a 64-bit kind's own bounds left to its format
 * (`int64`, `uint64`; `u64` keeps `minimum: 0`) and only narrower ones written.
 */
export type NumberStyle = 'bounds' | 'formats';

/**
 * The extension keyword of a value MessagePack and CBOR carry natively where the JSON data model has
 * no type for it: `x-wire: timestamp` beside the RFC 3339 string a timestamp stands for.
 */
export const WIRE_KEYWORD = 'x-wire';

/**
 * The schema of a named object's own members, walked afresh from `at` (a name breaks a cycle, so
 * none started outside it is carried in), with its `title` and `description`.
 */
export type DescribeObject = (type: ObjectType, at: SchemaPath) => JsonSchema;

/** What a schema walk produces, and for whom. */
export interface SchemaTarget {
  readonly direction: SchemaDirection;
  readonly form: WireForm;
  readonly numbers: NumberStyle;
  /** The reading options `required` and `additionalProperties` follow. */
  readonly options: ResolvedReadOptions;
  /** Who is asking, for errors: `'jsonSchema'`, `'openApi'`. */
  readonly caller: string;
  /** How errors write paths. */
  readonly paths: PathNotation;
  /**
   * The schema standing for a named object met at `at`: a `$ref` to where the caller keeps the
   * object's schema, which `describe` makes (once, before the reference is complete, so that a
   * recursive object refers to itself).
   */
  named(type: ObjectType & { readonly name: string }, describe: DescribeObject, at: SchemaPath): JsonSchema;
  /**
   * When given, a variant whose members are all named objects with text discriminants gets a
   * `discriminator` (OpenAPI), whose `mapping` this returns from each discriminant and the
   * reference `named` gave for its member.
   */
  readonly mapping?: (members: readonly (readonly [value: string, ref: JsonSchema])[]) => Record<string, string>;
}
