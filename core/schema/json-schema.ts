import type { ObjectType } from '../descriptors/object.ts';
import type { Type } from '../descriptors/type.ts';
import { resolveReadOptions, type Opts } from '../options.ts';
import { SchemaPath } from './schema-path.ts';
import type { DescribeObject, JsonSchema, SchemaTarget } from './schema-target.ts';
import { SchemaWalker } from './walker.ts';

export type { JsonSchema } from './schema-target.ts';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema (draft 2020-12) that agrees with reading JSON under the same options: a JSON
 * Schema validator (asserting `format`) accepts a value exactly when `json.decode` does, for
 * values within `maxDepth` whose strings are Unicode text. `required` lists exactly the
 * keys reading rejects as missing, `additionalProperties: false` appears exactly when unknown keys
 * are rejected, constraints are their keywords, `.describe()` texts are `description`s. Named
 * objects go to `$defs`, so a recursive one (through `t.lazy`) refers to itself with `$ref`; a
 * descriptor that holds itself without a named object in the cycle is refused with a `TypeError`.
 */
export function jsonSchema(type: Type, opts?: Opts): JsonSchema {
  const defs = new Map<string, { fields: ObjectType['fields']; schema: JsonSchema }>();
  const target: SchemaTarget = {
    direction: 'read',
    form: 'json',
    numbers: 'bounds',
    options: resolveReadOptions(opts),
    caller: 'jsonSchema',
    paths: 'pointer',
    named: (object, describe: DescribeObject) => {
      const name = object.name;
      const known = defs.get(name);
      if (known === undefined) {
        const def = { fields: object.fields, schema: {} as JsonSchema };
        // Set before it is complete: an object that refers to itself gets a `$ref` to it.
        defs.set(name, def);
        def.schema = describe(object, SchemaPath.root('', `/$defs/${name}`));
      } else if (known.fields !== object.fields) {
        throw new TypeError(`jsonSchema(): two different objects are named '${name}'`);
      }
      return { $ref: `#/$defs/${encodeURIComponent(name)}` };
    },
  };
  const root = new SchemaWalker(target).schema(type, SchemaPath.root(''));
  const out: JsonSchema = { $schema: JSON_SCHEMA_DIALECT, ...root };
  if (defs.size > 0) out.$defs = Object.fromEntries([...defs].map(([name, def]) => [name, def.schema]));
  return out;
}

/** `jsonSchema` as text; indented by two spaces when `prettify` is on. */
export function writeJsonSchema(type: Type, opts?: Opts): string {
  return JSON.stringify(jsonSchema(type, opts), null, opts?.prettify === true ? 2 : undefined);
}
