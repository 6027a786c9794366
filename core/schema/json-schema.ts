import { resolveReadOptions, type Opts, type ResolvedReadOptions } from '../options.ts';
import { isRequiredKey } from '../read/required.ts';
import type { AnyType, BigIntType, ObjectType, VariantType } from '../descriptors/index.ts';
import type { LazyType } from '../descriptors/lazy.ts';
import type { Type } from '../descriptors/type.ts';
import { arrayRule, mapRule, SCALAR_RULES, stringRule, TIMESTAMP } from '../kinds/index.ts';
import type { JsonSchema } from '../kinds/rule.ts';
import { decimalRangePattern } from './decimal-range.ts';
import { defaultAsJson, NO_JSON } from './json-default.ts';
import { bigIntBounds, bigIntRange, numberSchema } from './number-bounds.ts';

export type { JsonSchema };

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The JSON Schema (draft 2020-12) that agrees with reading JSON under the same options: a JSON
 * Schema validator (asserting `format`) accepts a value exactly when `json.decode` does, for
 * values within `maxDepth` whose strings are Unicode text. `required` lists exactly the
 * keys reading rejects as missing, `additionalProperties: false` appears exactly when unknown keys
 * are rejected, constraints are their keywords, `.describe()` texts are `description`s. Named
 * objects go to `$defs`, so a recursive one (through `t.lazy`) refers to itself with `$ref`; a
 * recursive descriptor without a named object in its cycle is refused with a `TypeError`.
 */
export function jsonSchema(type: Type, opts?: Opts): JsonSchema {
  const builder = new SchemaBuilder(resolveReadOptions(opts));
  const root = builder.schema(type, '');
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

/**
 * The schema of a 64-bit integer kind with its constraints: `type: integer` with bounds written as
 * doubles that keep a validator's answer exact (see `bigIntBounds`), or for `json: 'string'` in
 * JSON, `anyOf` that and a string whose `pattern` matches exactly the decimal texts in range.
 */
export function bigIntSchema(type: BigIntType, stringForm: boolean): JsonSchema {
  if (type.constraints === undefined && !stringForm) return SCALAR_RULES[type.kind].schema();
  const [low, high] = bigIntRange(type.kind, type.constraints);
  const integer: JsonSchema = { type: 'integer', ...bigIntBounds(low, high, 'text') };
  return stringForm ? { anyOf: [integer, { type: 'string', pattern: decimalRangePattern(low, high) }] } : integer;
}

/** What a recursive descriptor without a named object in its cycle is told. */
export const UNNAMED_CYCLE = 'refers to itself through t.lazy without a named object in the cycle: '
  + "give the recursive object a name (t.object(fields, { name: 'Tree' })), which is written once and refers to itself with $ref";

class SchemaBuilder {
  readonly defs = new Map<string, { fields: ObjectType['fields']; schema: JsonSchema; description: string | undefined }>();
  /** The `t.lazy` descriptors being described on the way here: coming back to one is a cycle no name breaks. */
  readonly #open = new Set<LazyType>();
  constructor(private readonly options: ResolvedReadOptions) {}

  schema(type: Type, path: string): JsonSchema {
    const s = this.bare(type, path);
    if (type.description !== undefined && !(typeof s.$ref === 'string' && this.#described(type, type.description))) {
      s.description = type.description;
    }
    if (type.hasDefault) {
      const value = defaultAsJson(type, type.defaultValue, 'json');
      if (value !== NO_JSON) s.default = value;
    }
    return s;
  }

  /** Whether `type` is a named object whose `$defs` entry already says `description`. */
  #described(type: Type, description: string): boolean {
    return type.kind === 'object' && this.defs.get((type as ObjectType).name!)?.description === description;
  }

  private bare(type: Type, path: string): JsonSchema {
    const d = type as AnyType;
    switch (d.kind) {
      // Each scalar kind's schema is stated with its other rules, in core/kinds.
      case 'bool': case 'bytes':
        return SCALAR_RULES[d.kind].schema();
      case 'string':
        return d.constraints === undefined ? SCALAR_RULES.string.schema() : { type: 'string', ...stringRule(d.constraints).schema() };
      case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': case 'f32': case 'f64':
        return numberSchema(d.kind, d.constraints);
      case 'i64': case 'u64': return bigIntSchema(d, d.json === 'string');
      case 'timestamp': return TIMESTAMP.schema();
      case 'unknown': return {};
      case 'void': return { type: 'null' };
      case 'literal': return { const: d.value };
      case 'enum': return { enum: [...d.values] };
      // Reading takes `null` for an optional value too (it reads as `undefined`).
      case 'optional': case 'nullable': return { anyOf: [this.schema(d.inner, path), { type: 'null' }] };
      case 'array': {
        const s: JsonSchema = { type: 'array', items: this.schema(d.element, `${path}/items`) };
        return d.constraints === undefined ? s : { ...s, ...arrayRule(d.constraints).schema() };
      }
      case 'map': {
        const s: JsonSchema = { type: 'object', additionalProperties: this.schema(d.values, `${path}/additionalProperties`) };
        return d.constraints === undefined ? s : { ...s, ...mapRule(d.constraints).schema() };
      }
      case 'tuple': {
        const n = d.elements.length;
        // `prefixItems` must hold one schema at least: the empty tuple is the array of no items.
        if (n === 0) return { type: 'array', items: false, minItems: 0, maxItems: 0 };
        return {
          type: 'array', prefixItems: d.elements.map((e, i) => this.schema(e, `${path}/prefixItems/${i}`)), items: false, minItems: n, maxItems: n,
        };
      }
      case 'variant': return this.variant(d, path);
      case 'lazy': {
        if (this.#open.has(d)) throw new TypeError(`jsonSchema(): the descriptor at ${path === '' ? 'the root' : path} ${UNNAMED_CYCLE}`);
        this.#open.add(d);
        try {
          return this.schema(d.target, path);
        } finally {
          this.#open.delete(d);
        }
      }
      case 'object': return d.name === undefined ? this.object(d, path) : this.named(d, d.name);
    }
  }

  /** Exactly one member matches: the one whose discriminant `const` the value has. */
  private variant(type: VariantType, path: string): JsonSchema {
    return { type: 'object', required: [type.key], oneOf: type.members.map((m, i) => this.schema(m, `${path}/oneOf/${i}`)) };
  }

  private named(type: ObjectType, name: string): JsonSchema {
    const known = this.defs.get(name);
    if (known === undefined) {
      const def = { fields: type.fields, schema: {} as JsonSchema, description: type.description };
      this.defs.set(name, def);
      // Set before it is complete: an object that refers to itself gets a `$ref` to it. A named
      // object starts a new path, and a cycle through it is broken by its `$ref`.
      const open = [...this.#open];
      this.#open.clear();
      try {
        def.schema = this.object(type, `/$defs/${name}`);
      } finally {
        for (const lazy of open) this.#open.add(lazy);
      }
      if (type.description !== undefined) def.schema.description = type.description;
    } else if (known.fields !== type.fields) {
      throw new TypeError(`jsonSchema(): two different objects are named '${name}'`);
    }
    return { $ref: `#/$defs/${encodeURIComponent(name)}` };
  }

  private object(type: ObjectType, path: string): JsonSchema {
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(type.fields)) {
      properties[key] = this.schema(field, `${path}/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (isRequiredKey(type, key, this.options.errorOnMissingKeys)) required.push(key);
    }
    const s: JsonSchema = { type: 'object', properties };
    if (type.name !== undefined) s.title = type.name;
    if (required.length > 0) s.required = required;
    if (this.options.errorOnUnknownKeys) s.additionalProperties = false;
    return s;
  }
}
