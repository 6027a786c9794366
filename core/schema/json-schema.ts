import { resolveReadOptions, type Opts, type ResolvedReadOptions } from '../options.ts';
import { isRequiredKey } from '../read/required.ts';
import type { AnyType, ObjectType } from '../types/index.ts';
import type { Type } from '../types/type.ts';
import { SCALAR_RULES } from '../kinds/index.ts';
import { encodeBase64 } from '../util/base64.ts';

/** A JSON Schema document or subschema, as a plain JSON-compatible object. */
export type JsonSchema = { [keyword: string]: unknown };

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema (draft 2020-12) that agrees with reading under the same options: `required`
 * lists exactly the keys reading rejects as missing, `additionalProperties: false` appears exactly
 * when unknown keys are rejected. Named objects go to `$defs`.
 */
export function jsonSchema(type: Type, opts?: Opts): JsonSchema {
  const builder = new SchemaBuilder(resolveReadOptions(opts));
  const root = builder.schema(type);
  const out: JsonSchema = { $schema: JSON_SCHEMA_DIALECT, ...root };
  if (builder.defs.size > 0) {
    out.$defs = Object.fromEntries([...builder.defs].map(([name, def]) => [name, def.schema]));
  }
  return out;
}

/** `jsonSchema` as text; indented by two spaces when `prettify` is on. */
export function writeJsonSchema(type: Type, opts?: Opts): string {
  return JSON.stringify(jsonSchema(type, opts), null, opts?.prettify === true ? 2 : undefined);
}

class SchemaBuilder {
  readonly defs = new Map<string, { fields: ObjectType['fields']; schema: JsonSchema }>();
  constructor(private readonly options: ResolvedReadOptions) {}

  schema(type: Type): JsonSchema {
    const s = this.bare(type);
    if (type.hasDefault) s.default = toJsonValue(type.defaultValue);
    return s;
  }

  private bare(type: Type): JsonSchema {
    const d = type as AnyType;
    switch (d.kind) {
      // Each scalar kind's schema is stated with its other rules, in core/kinds.
      case 'string': case 'bool': case 'bytes':
      case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': case 'i64': case 'u64': case 'f32': case 'f64':
        return SCALAR_RULES[d.kind].schema();
      case 'void': return { type: 'null' };
      case 'literal': return { const: d.value };
      case 'enum': return { enum: [...d.values] };
      // Reading takes `null` for an optional value too (it reads as `undefined`).
      case 'optional': case 'nullable': return { anyOf: [this.schema(d.inner), { type: 'null' }] };
      case 'array': return { type: 'array', items: this.schema(d.element) };
      case 'map': return { type: 'object', additionalProperties: this.schema(d.values) };
      case 'tuple': {
        const n = d.elements.length;
        return { type: 'array', prefixItems: d.elements.map((e) => this.schema(e)), items: false, minItems: n, maxItems: n };
      }
      case 'timestamp': case 'unknown': case 'variant': case 'lazy': throw new TypeError(`lacquer: ${d.kind} is not supported here yet`);
      case 'object': return d.name === undefined ? this.object(d) : this.named(d, d.name);
    }
  }

  private named(type: ObjectType, name: string): JsonSchema {
    const known = this.defs.get(name);
    if (known === undefined) {
      const def = { fields: type.fields, schema: {} as JsonSchema };
      this.defs.set(name, def);
      def.schema = this.object(type);
    } else if (known.fields !== type.fields) {
      throw new TypeError(`jsonSchema(): two different objects are named '${name}'`);
    }
    return { $ref: `#/$defs/${encodeURIComponent(name)}` };
  }

  private object(type: ObjectType): JsonSchema {
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(type.fields)) {
      properties[key] = this.schema(field);
      if (isRequiredKey(type, key, this.options.errorOnMissingKeys)) required.push(key);
    }
    const s: JsonSchema = { type: 'object', properties };
    if (type.name !== undefined) s.title = type.name;
    if (required.length > 0) s.required = required;
    if (this.options.errorOnUnknownKeys) s.additionalProperties = false;
    return s;
  }
}

/** A default value as JSON data: bigints as numbers, bytes as base64. */
function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) return encodeBase64(value);
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]));
  }
  return value;
}
