import type { ObjectType } from '../descriptors/object.ts';
import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';
import { arrayRule, mapRule, SCALAR_RULES, stringRule, TIMESTAMP } from '../kinds/index.ts';
import { isRequiredKey } from '../read/required.ts';
import { absentMember } from '../write/absent.ts';
import { defaultAsJson, NO_JSON } from './json-default.ts';
import { bigIntSchema, smallNumberSchema } from './number-schema.ts';
import { schemaError, type SchemaPath } from './schema-path.ts';
import { WIRE_KEYWORD, type JsonSchema, type SchemaTarget } from './schema-target.ts';

/**
 * What a descriptor that holds itself with no named object in the cycle is told, by every schema
 * writer: a schema can only repeat itself through a reference, and only named objects have one.
 */
export const UNNAMED_CYCLE =
  'the descriptor holds itself; a recursive object must be named: it refers to itself through t.lazy ' +
  "(or a fields object it is in) with no named object in the cycle; give the recursive object a name (t.object(fields, { name: 'Tree' })), " +
  'which is written once and refers to itself with $ref';

/**
 * The one walk from a descriptor to its schema, for any {@link SchemaTarget}: each form's schema is
 * stated once here, the target says which side of the wire, which form and which number style, and
 * how named objects are referred to. A walker may describe many descriptors (an OpenAPI document's
 * bodies) for one target.
 */
export class SchemaWalker {
  /**
   * The containers (arrays, maps, tuples, unnamed objects) on the way here since the last named
   * object: meeting one again is a cycle no name breaks. Every cycle passes one (`t.lazy` refuses
   * a cycle of `t.lazy`, `t.optional` and `t.nullable` alone).
   */
  readonly #open = new Set<Type>();
  /** The `description` of the schema each name's reference points to: a `$ref` repeats only another one. */
  readonly #described = new Map<string, string | undefined>();

  constructor(readonly target: SchemaTarget) {}

  /** The schema of `type` at `at`: its form's schema, its `description`, its `.default()` as JSON data when it has one. */
  schema(type: Type, at: SchemaPath): JsonSchema {
    const s = visit(type, FORMS, this, at);
    const ref = type.kind === 'object' ? (type as ObjectType).name : undefined;
    if (type.description !== undefined && !(ref !== undefined && this.#described.get(ref) === type.description)) {
      s.description = type.description;
    }
    if (type.hasDefault) {
      const value = defaultAsJson(type, type.defaultValue, this.target.form);
      if (value !== NO_JSON) s.default = value;
    }
    return s;
  }

  /** `make()` inside `container`, refused when the walk is already inside it. */
  within(container: Type, at: SchemaPath, make: () => JsonSchema): JsonSchema {
    if (this.#open.has(container)) throw schemaError(this.target.caller, this.target.paths, at, UNNAMED_CYCLE);
    this.#open.add(container);
    try {
      return make();
    } finally {
      this.#open.delete(container);
    }
  }

  /** The reference the target gives a named object, with the means to describe it. */
  named(type: ObjectType & { readonly name: string }, at: SchemaPath): JsonSchema {
    return this.target.named(type, this.#describe, at);
  }

  /** A named object's schema: a walk of its own (a name breaks a cycle), with `title` and `description`. */
  readonly #describe = (type: ObjectType, at: SchemaPath): JsonSchema => {
    const name = type.name!;
    if (!this.#described.has(name)) this.#described.set(name, type.description);
    const open = [...this.#open];
    this.#open.clear();
    try {
      const s = this.object(type, at);
      if (type.description !== undefined) s.description = type.description;
      return s;
    } finally {
      this.#open.clear();
      for (const t of open) this.#open.add(t);
    }
  };

  /**
   * An object's members. `required`: reading, the keys reading rejects as missing; writing, every
   * member but one skipped when `undefined` (an optional or unknown one without a default).
   * `additionalProperties: false` exactly when reading refuses unknown keys.
   */
  object(type: ObjectType, at: SchemaPath): JsonSchema {
    const { direction, options } = this.target;
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(type.fields)) {
      properties[key] = this.schema(field, at.to({ key }));
      const isRequired =
        direction === 'read'
          ? isRequiredKey(type, key, options.errorOnMissingKeys)
          : absentMember(field).mode !== 'skip';
      if (isRequired) required.push(key);
    }
    const s: JsonSchema = { type: 'object', properties };
    if (type.name !== undefined) s.title = type.name;
    if (required.length > 0) s.required = required;
    if (options.errorOnUnknownKeys) s.additionalProperties = false;
    return s;
  }
}

/** The schema of each form, without `description` and `default` (which `SchemaWalker.schema` adds). */
const FORMS: Visitor<JsonSchema, [walker: SchemaWalker, at: SchemaPath]> = {
  // The scalar kinds' own schemas are stated with their other rules, in core/kinds.
  string: (d) =>
    d.constraints === undefined
      ? SCALAR_RULES.string.schema()
      : { type: 'string', ...stringRule(d.constraints).schema() },
  bool: () => SCALAR_RULES.bool.schema(),
  int: (d, w) => smallNumberSchema(d, w.target),
  float: (d, w) => smallNumberSchema(d, w.target),
  bigint: (d, w) => bigIntSchema(d, w.target),
  bytes: (_, w) =>
    w.target.form === 'json'
      ? SCALAR_RULES.bytes.schema()
      : { type: 'string', contentMediaType: 'application/octet-stream' },
  // MessagePack and CBOR carry a timestamp natively; the schema states the instant as the RFC 3339
  // text JSON carries, and `x-wire` says what the wire holds.
  timestamp: (_, w) =>
    w.target.form === 'json' ? TIMESTAMP.schema() : { ...TIMESTAMP.schema(), [WIRE_KEYWORD]: 'timestamp' },
  unknown: () => ({}),
  void: () => ({ type: 'null' }),
  // Their values are JSON scalars: t.literal() and t.enum() refuse others when they are made.
  literal: (d) => ({ const: d.value }),
  enum: (d) => ({ enum: [...d.values] }),
  // Reading takes `null` for an optional value too (it reads as `undefined`); writing writes `null`
  // for an absent element of an array or tuple.
  optional: (d, w, at) => ({ anyOf: [w.schema(d.inner, at), { type: 'null' }] }),
  nullable: (d, w, at) => ({ anyOf: [w.schema(d.inner, at), { type: 'null' }] }),
  lazy: (d, w, at) => w.schema(d.target, at),
  array: (d, w, at) =>
    w.within(d, at, () => {
      const s: JsonSchema = { type: 'array', items: w.schema(d.element, at.to('items')) };
      return d.constraints === undefined ? s : { ...s, ...arrayRule(d.constraints).schema() };
    }),
  map: (d, w, at) =>
    w.within(d, at, () => {
      const s: JsonSchema = { type: 'object', additionalProperties: w.schema(d.values, at.to('values')) };
      return d.constraints === undefined ? s : { ...s, ...mapRule(d.constraints).schema() };
    }),
  tuple: (d, w, at) =>
    w.within(d, at, () => {
      const n = d.elements.length;
      // `prefixItems` must hold one schema at least: the empty tuple is the array of no items.
      if (n === 0) return { type: 'array', items: false, minItems: 0, maxItems: 0 };
      return {
        type: 'array',
        prefixItems: d.elements.map((e, index) => w.schema(e, at.to({ index }))),
        items: false,
        minItems: n,
        maxItems: n,
      };
    }),
  object: (d, w, at) =>
    d.name === undefined ? w.within(d, at, () => w.object(d, at)) : w.named(d as ObjectType & { name: string }, at),
  // Exactly one member matches: the one whose discriminant `const` the value has. With a target's
  // `mapping`, a `discriminator` when every member is a named object with a text discriminant.
  variant: (d, w, at) => {
    const members = d.members.map((m, member) => w.schema(m, at.to({ member })));
    const s: JsonSchema = { type: 'object', required: [d.key], oneOf: members };
    const { mapping } = w.target;
    const values = d.values;
    if (
      mapping !== undefined &&
      d.members.every((m) => m.name !== undefined) &&
      values.every((v) => typeof v === 'string')
    ) {
      s.discriminator = {
        propertyName: d.key,
        mapping: mapping(members.map((m, i) => [values[i] as string, m] as const)),
      };
    }
    return s;
  },
};
