// The `parameters` of an operation: its path parameters, then its query parameters, as the server
// reads them (transports/rest/params). A value is the text its descriptor has in JSON, so its
// schema is the one a body's member has in the JSON form, from the same walker, and `required`
// follows the same rule as a body's members: the parameters are read as the members of one object.
import { t } from '../../../core/descriptors/index.ts';
import type { ObjectType } from '../../../core/descriptors/object.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { formOf } from '../../../core/descriptors/visit.ts';
import { defaultBreaksConstraints } from '../../../core/read/required.ts';
import type { JsonSchema } from '../../../core/schema/schema-target.ts';
import type { ArgumentSources } from '../arguments.ts';
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
    const schema = typed(schemas.schema(p.type, 'read', 'json', `${where}'s path parameter '${p.name}'`));
    out.push(parameter(p.name, 'path', true, nonEmpty(schema)));
  }
  // The parameters that are not objects are the members of one object as the server reads them.
  const scalars = sources.query.filter((p) => formOf(p.type) !== 'object');
  const root = scalars.length === 0 ? undefined : schemas.members(t.object(Object.fromEntries(scalars.map((p) => [p.name, p.type]))), 'json', `${where}'s query`);
  for (const p of sources.query) {
    if (formOf(p.type) === 'object') {
      const fields = (p.type as ObjectType).fields;
      const members = schemas.members(p.type as ObjectType, 'json', `${where}'s query parameter '${p.name}'`);
      for (const [key, type] of Object.entries(fields)) out.push(queryParameter(key, type, members));
    } else {
      out.push(queryParameter(p.name, p.type, root!));
    }
  }
  return out;
}

/** One query key: a scalar once, an optional scalar left out when absent, an array as a repeated key. */
function queryParameter(key: string, type: Type, members: Members): OpenApiObject {
  const schema = members.properties[key]!;
  if (formOf(type) === 'array') {
    // The server reads an absent key as the empty array: the key is required exactly when [] does not fit.
    const items = typed(schema.items as JsonSchema);
    return parameter(key, 'query', defaultBreaksConstraints(type), { ...schema, items }, { style: 'form', explode: true });
  }
  return parameter(key, 'query', members.required.includes(key), typed(formOf(type) === 'optional' ? present(schema) : schema));
}

function parameter(name: string, place: 'path' | 'query', required: boolean, schema: JsonSchema, style: OpenApiObject = {}): OpenApiObject {
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

/** A path segment is never empty: a text has at least one character. */
function nonEmpty(schema: JsonSchema): JsonSchema {
  if (schema.type !== 'string' || (typeof schema.minLength === 'number' && schema.minLength >= 1)) return schema;
  return { ...schema, minLength: 1 };
}

/**
 * An enum or a literal with the `type` of its values: validators and viewers turn a parameter's
 * text into a value by its schema's `type` (`3` is the number 3 for `type: integer`, the text "3"
 * without a type).
 */
function typed(schema: JsonSchema): JsonSchema {
  if (schema.type !== undefined) return schema;
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  if (values === undefined) return schema;
  const types = [...new Set(values.map(jsonType))];
  return { type: types.length === 1 ? types[0] : types, ...schema };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
