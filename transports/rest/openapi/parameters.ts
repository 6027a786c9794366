// The `parameters` of an operation: its path parameters, then its query parameters, as the server
// reads them (transports/protocol/params). A value is the text its descriptor has in JSON, so its
// schema is the one a body's member has in the JSON form, from the same walker (a 64-bit integer
// is always its digits: see `formOfText`), and `required` follows the same rule as a body's
// members: the parameters are read as the members of one object.
import { t } from '../../../core/descriptors/index.ts';
import type { BigIntType, OptionalType } from '../../../core/descriptors/index.ts';
import type { ObjectType } from '../../../core/descriptors/object.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { formOf } from '../../../core/descriptors/visit.ts';
import type { JsonSchema, WireForm } from '../../../core/schema/schema-target.ts';
import type { ArgumentSources } from '../arguments.ts';
import { queryArray, queryKeysOf } from '../../protocol/params/index.ts';
import type { SchemaComponents } from './schemas.ts';
import type { OpenApiObject } from './types.ts';

type Members = ReturnType<SchemaComponents['members']>;

/**
 * The parameter objects of one operation, `where` naming it in errors (`openApi(): Notes.getNote`).
 * An object parameter spread over the query is one query parameter per member: each key then has
 * its own schema, `required` and array style, which every validator and viewer handles (OpenAPI
 * leaves an exploded object whose members are arrays undefined, and Swagger UI takes such an object
 * as JSON text).
 */
export function parameterObjects(sources: ArgumentSources, schemas: SchemaComponents, where: string): OpenApiObject[] {
  const out: OpenApiObject[] = [];
  for (const p of sources.path) {
    const schema = typed(schemas.schema(p.type, 'read', formOfText(p.type), `${where}'s path parameter '${p.name}'`));
    out.push(parameter(p.name, 'path', true, segmentSchema(schema)));
  }
  // The parameters that are not objects are the members of one object as the server reads them;
  // an object spread over the query gives its own members.
  const scalars = sources.query.filter((p) => formOf(p.type) !== 'object');
  const root = t.object(Object.fromEntries(scalars.map((p) => [p.name, p.type])));
  const described = new Map<string, Members>();
  for (const p of sources.query) {
    const spread = formOf(p.type) === 'object';
    const object = spread ? (p.type as ObjectType) : root;
    const at = spread ? `${where}'s query parameter '${p.name}'` : `${where}'s query`;
    const members = (form: WireForm): Members => {
      const key = `${at} ${form}`;
      if (!described.has(key)) described.set(key, schemas.members(object, form, at));
      return described.get(key)!;
    };
    for (const key of queryKeysOf(p)) out.push(queryParameter(key, spread ? object.fields[key]! : p.type, members));
  }
  return out;
}

/**
 * The form a parameter's text is described in: JSON's (bytes as base64, timestamps as RFC 3339
 * text), but a 64-bit integer is its decimal digits whatever its `json` says: the native integer
 * of the binary form, not the string JSON may carry.
 */
function formOfText(type: Type): WireForm {
  const array = queryArray(type);
  const scalar =
    array !== undefined ? array.element : formOf(type) === 'optional' ? (type as OptionalType).inner : type;
  return formOf(scalar) === 'bigint' && (scalar as BigIntType).json === 'string' ? 'binary' : 'json';
}

/** One query key: a scalar once, an array as a repeated key, each optional or not (left out when absent). */
function queryParameter(key: string, type: Type, membersIn: (form: WireForm) => Members): OpenApiObject {
  const members = membersIn(formOfText(type));
  const required = members.required.includes(key);
  const schema = formOf(type) === 'optional' ? present(members.properties[key]!) : members.properties[key]!;
  if (queryArray(type) === undefined) return parameter(key, 'query', required, typed(schema));
  return parameter(
    key,
    'query',
    required,
    { ...schema, items: typed(schema.items as JsonSchema) },
    { style: 'form', explode: true },
  );
}

function parameter(
  name: string,
  place: 'path' | 'query',
  required: boolean,
  schema: JsonSchema,
  style: OpenApiObject = {},
): OpenApiObject {
  const description = schema.description;
  return { name, in: place, required, ...(typeof description === 'string' ? { description } : {}), ...style, schema };
}

/**
 * The schema of an optional value when present: `anyOf: [T, { type: 'null' }]` is `T`, since a
 * query has no null (the text `null` is the value that text reads as), with the optional's
 * `description` and `default`.
 */
function present(schema: JsonSchema): JsonSchema {
  const { anyOf, ...rest } = schema;
  return { ...(anyOf as JsonSchema[])[0], ...rest };
}

/**
 * The texts a path segment carries, as servers read a target (transports/protocol/pipeline/target.ts) and the
 * client writes one (params/text-writer.ts): not empty, not `.` or `..` (dot segments), no `/` or
 * `\` (a segment stays one), no control character. A schema that admits other texts says so with
 * a pattern.
 */
const SEGMENT = '^(?!\\.\\.?$)[^/\\\\\\u0000-\\u001f\\u007f]+$';
const SEGMENT_TEXT = new RegExp(SEGMENT, 'u');
/** The formats whose texts are all segments. */
const SEGMENT_FORMATS: readonly unknown[] = ['date-time', 'uuid'];

function segmentSchema(schema: JsonSchema): JsonSchema {
  if (![schema.type].flat().includes('string')) return schema;
  const values = valuesOf(schema);
  const fits =
    values === undefined
      ? SEGMENT_FORMATS.includes(schema.format)
      : values.every((v) => typeof v !== 'string' || SEGMENT_TEXT.test(v));
  if (fits) return schema;
  return typeof schema.pattern === 'string'
    ? { ...schema, allOf: [{ pattern: SEGMENT }] }
    : { ...schema, pattern: SEGMENT };
}

/**
 * An enum or a literal with the `type` of its values: validators and viewers turn a parameter's
 * text into a value by its schema's `type` (`3` is the number 3 for `type: integer`, the text "3"
 * without a type).
 */
function typed(schema: JsonSchema): JsonSchema {
  const values = valuesOf(schema);
  if (schema.type !== undefined || values === undefined) return schema;
  const types = [...new Set(values.map(jsonType))];
  return { type: types.length === 1 ? types[0] : types, ...schema };
}

/** The values an enum's or a literal's schema allows; `undefined` for other schemas. */
function valuesOf(schema: JsonSchema): readonly unknown[] | undefined {
  return Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
