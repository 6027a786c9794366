import { arrayRule, mapRule, SCALAR_RULES, stringRule, TIMESTAMP } from '../../../core/kinds/index.ts';
import { resolveReadOptions, type Opts, type ResolvedReadOptions } from '../../../core/options.ts';
import { isRequiredKey } from '../../../core/read/required.ts';
import { absentMember } from '../../../core/write/absent.ts';
import { decimalRangePattern } from '../../../core/schema/decimal-range.ts';
import type { JsonSchema } from '../../../core/schema/json-schema.ts';
import { bigIntBounds, bigIntRange, numberSchema } from '../../../core/schema/number-bounds.ts';
import type { AnyType, BigIntType, ObjectType, Type, VariantType } from '../../../core/descriptors/index.ts';
import { BIGINT_RANGES } from '../../../core/kinds/ranges.ts';
import { nameComponents, type Variant } from './component-names.ts';
import { defaultAsJson, NO_JSON } from './defaults.ts';
import { sameJson } from './same-json.ts';

/** Which side of the wire a schema describes: what the server reads (bodies) or writes (answers). */
export type Mode = 'read' | 'write';
/** Bytes as base64 text (JSON) or as byte strings (MessagePack, CBOR). */
export type Form = 'json' | 'binary';

/** `format` of each number kind, from the OpenAPI format registry. */
const FORMATS: Readonly<Record<string, string>> = {
  i8: 'int8', i16: 'int16', i32: 'int32', u8: 'uint8', u16: 'uint16', u32: 'uint32',
  i64: 'int64', u64: 'uint64', f32: 'float', f64: 'double',
};

/** Where a schema is being built, for errors: `UserService.createUser's body`, and the path inside. */
interface Site {
  readonly where: string;
  readonly path: string;
  /** The descriptors being described on the way here, to refuse a cycle that no name breaks. */
  readonly open: ReadonlySet<Type>;
  /** The named object whose schema holds this one, if any. */
  readonly within: Variant | undefined;
}

/** A second object under a name already taken, checked against the first once the document is built. */
interface Alias {
  readonly type: ObjectType;
  readonly where: string;
  readonly checked: Set<string>;
}

interface Named {
  readonly first: ObjectType;
  readonly where: string;
  readonly variants: Map<string, Variant>;
  readonly aliases: Alias[];
}

/** Component names OpenAPI allows. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * The extension keyword of a value MessagePack and CBOR carry natively where the JSON data model has
 * no type for it: `x-wire: timestamp` beside the RFC 3339 string a timestamp stands for.
 */
export const WIRE_KEYWORD = 'x-wire';

/** A variant's `discriminator.mapping`, filled in once the components are named. */
interface Mapping {
  readonly mapping: Record<string, string>;
  readonly members: readonly [value: string, ref: { $ref: string }][];
}

/**
 * The schemas of a document's bodies and answers, named objects shared in `components.schemas`.
 * Each descriptor is written as `jsonSchema` writes it (the same rules of `required` and
 * `additionalProperties`, stated by the same functions), plus `format` on number kinds, with
 * 64-bit bounds left to the format, and a schema per mode and form where they differ.
 */
export class SchemaComponents {
  readonly #options: ResolvedReadOptions;
  readonly #named = new Map<string, Named>();
  /** The `$ref` placeholders handed out, each set once the components are named. */
  readonly #refs = new Map<object, Variant>();
  /** Alias checks, made when every schema is complete. */
  readonly #pending: { alias: Alias; variant: Variant; schema: JsonSchema }[] = [];
  /** The discriminator mappings handed out, each set once the components are named. */
  readonly #mappings: Mapping[] = [];

  constructor(opts: Opts, private readonly reserved: ReadonlySet<string>) {
    this.#options = resolveReadOptions(opts);
  }

  /** The schema of `type` as the server reads (`'read'`) or writes (`'write'`) it in `form`. */
  schema(type: Type, mode: Mode, form: Form, where: string): JsonSchema {
    return this.#schema(type, mode, form, { where, path: '', open: new Set(), within: undefined });
  }

  /**
   * `components.schemas`, in the order first used. Sets every `$ref` handed out; throws when two
   * different objects share a name or when names collide.
   */
  finish(): Record<string, JsonSchema> {
    for (const { alias, variant, schema } of this.#pending) {
      if (!sameJson(schema, variant.schema, (v) => this.#refKey(v))) {
        const named = this.#named.get(variant.base)!;
        throw new TypeError(
          `openApi(): two different objects are named '${variant.base}' (${named.where} and ${alias.where}); `
          + 'give one of them another name, or use the same descriptor in both places',
        );
      }
    }
    const variants = [...this.#named.values()].flatMap((n) => [...n.variants.values()]);
    const names = nameComponents(variants, (a, b) => sameJson(a, b, (v) => this.#refs.get(v)?.base), this.reserved);
    for (const [ref, variant] of this.#refs) (ref as { $ref: string }).$ref = `#/components/schemas/${names.get(variant)!}`;
    for (const { mapping, members } of this.#mappings) for (const [value, ref] of members) mapping[value] = ref.$ref;
    return Object.fromEntries(variants.map((v) => [names.get(v)!, v.schema!]));
  }

  #refKey(value: object): string | undefined {
    const v = this.#refs.get(value);
    return v === undefined ? undefined : `${v.base} ${v.mode} ${v.form}`;
  }

  #fail(site: Site, message: string): never {
    throw new TypeError(`openApi(): ${site.where}${site.path === '' ? '' : `, at ${site.path}`}: ${message}`);
  }

  #schema(type: Type, mode: Mode, form: Form, site: Site): JsonSchema {
    const s = this.#bare(type, mode, form, site);
    if (type.description !== undefined && !(typeof s.$ref === 'string' && this.#described(type, type.description))) {
      s.description = type.description;
    }
    if (type.hasDefault) {
      const value = defaultAsJson(type, type.defaultValue, form);
      if (value !== NO_JSON) s.default = value;
    }
    return s;
  }

  /** Whether `type` is a named object whose component already says `description`. */
  #described(type: Type, description: string): boolean {
    return type.kind === 'object' && this.#named.get((type as ObjectType).name!)?.first.description === description;
  }

  #bare(type: Type, mode: Mode, form: Form, site: Site): JsonSchema {
    const d = type as AnyType;
    switch (d.kind) {
      // The scalar kinds' schemas are stated with their other rules, in core/kinds.
      case 'bool':
        return SCALAR_RULES.bool.schema();
      case 'string':
        return d.constraints === undefined ? SCALAR_RULES.string.schema() : { type: 'string', ...stringRule(d.constraints).schema() };
      case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': case 'f32': case 'f64': {
        const { type: t, ...bounds } = numberSchema(d.kind, d.constraints);
        return { type: t, format: FORMATS[d.kind], ...bounds };
      }
      case 'i64': case 'u64': return this.#bigInt(d, mode, form);
      case 'bytes':
        return form === 'json' ? SCALAR_RULES.bytes.schema() : { type: 'string', contentMediaType: 'application/octet-stream' };
      // MessagePack and CBOR carry a timestamp natively; the schema states the instant as the
      // RFC 3339 text JSON carries, and `x-wire` says what the wire holds.
      case 'timestamp':
        return form === 'json' ? TIMESTAMP.schema() : { ...TIMESTAMP.schema(), [WIRE_KEYWORD]: 'timestamp' };
      case 'unknown': return {};
      case 'void': return { type: 'null' };
      // Their values are JSON scalars: t.literal() and t.enum() refuse others when they are made.
      case 'literal': return { const: d.value };
      case 'enum': return { enum: [...d.values] };
      // Reading takes `null` for an optional value too (it reads as `undefined`); writing writes
      // `null` for an absent element of an array or tuple.
      case 'optional': case 'nullable':
        return { anyOf: [this.#schema(d.inner, mode, form, site), { type: 'null' }] };
      case 'array': {
        const s: JsonSchema = { type: 'array', items: this.#schema(d.element, mode, form, this.#enter(site, d, '[]')) };
        return d.constraints === undefined ? s : { ...s, ...arrayRule(d.constraints).schema() };
      }
      case 'map': {
        const s: JsonSchema = { type: 'object', additionalProperties: this.#schema(d.values, mode, form, this.#enter(site, d, '{}')) };
        return d.constraints === undefined ? s : { ...s, ...mapRule(d.constraints).schema() };
      }
      case 'tuple': {
        const n = d.elements.length;
        const inner = this.#enter(site, d, '');
        // `prefixItems` must hold one schema at least: the empty tuple is the array of no items.
        if (n === 0) return { type: 'array', items: false, minItems: 0, maxItems: 0 };
        return {
          type: 'array',
          prefixItems: d.elements.map((e, i) => this.#schema(e, mode, form, { ...inner, path: `${site.path}[${i}]` })),
          items: false, minItems: n, maxItems: n,
        };
      }
      case 'variant': return this.#variant(d, mode, form, site);
      // A cycle through t.lazy passes a container, which `#enter` watches, or a named object.
      case 'lazy': return this.#schema(d.target, mode, form, site);
      case 'object':
        return d.name === undefined ? this.#object(d, mode, form, this.#enter(site, d, '')) : this.#namedRef(d, d.name, mode, form, site);
    }
  }

  /**
   * `i64`/`u64`: the format states the kind's bounds (a document's numbers are doubles, which cannot
   * state 2^64 - 1 exactly); constraints add theirs. In JSON, `json: 'string'` is a string of
   * digits: what the server writes, and beside the number what it reads.
   */
  #bigInt(type: BigIntType, mode: Mode, form: Form): JsonSchema {
    const [kindLow, kindHigh] = BIGINT_RANGES[type.kind];
    const [low, high] = bigIntRange(type.kind, type.constraints);
    // What a body sends is compared by its text; an answer's exact integer is seen as the double it rounds to.
    const { minimum, maximum } = bigIntBounds(low, high, mode === 'read' ? 'text' : 'nearest');
    const integer: JsonSchema = { type: 'integer', format: type.kind === 'i64' ? 'int64' : 'uint64' };
    if (low !== kindLow || type.kind === 'u64') integer.minimum = minimum;
    if (high !== kindHigh) integer.maximum = maximum;
    if (form === 'binary' || type.json === 'number') return integer;
    const digits: JsonSchema = { type: 'string', pattern: decimalRangePattern(low, high) };
    return mode === 'write' ? digits : { anyOf: [integer, digits] };
  }

  /**
   * `oneOf` the members (the discriminant's `const` tells them apart), the discriminant required;
   * with a `discriminator` when every member is a named object with a text discriminant.
   */
  #variant(type: VariantType, mode: Mode, form: Form, site: Site): JsonSchema {
    const members = type.members.map((m, i) => this.#schema(m, mode, form, { ...site, path: `${site.path}<${i}>` }));
    const s: JsonSchema = { type: 'object', required: [type.key], oneOf: members };
    const values = type.values;
    const named = members.every((m) => this.#refs.has(m)) && values.every((v) => typeof v === 'string');
    if (named) {
      const mapping: Record<string, string> = {};
      this.#mappings.push({ mapping, members: members.map((m, i) => [values[i] as string, m as { $ref: string }]) });
      for (const v of values) mapping[v as string] = '';
      s.discriminator = { propertyName: type.key, mapping };
    }
    return s;
  }

  /** The site inside `type`; a descriptor that holds itself without a name between is refused. */
  #enter(site: Site, type: Type, step: string): Site {
    if (site.open.has(type)) {
      this.#fail(site, 'the descriptor holds itself; a recursive object must be named (t.object(fields, { name })), so that it can refer to itself');
    }
    return { ...site, path: site.path + step, open: new Set(site.open).add(type) };
  }

  #namedRef(type: ObjectType, name: string, mode: Mode, form: Form, site: Site): JsonSchema {
    let named = this.#named.get(name);
    if (named === undefined) {
      if (!COMPONENT_NAME.test(name)) {
        this.#fail(site, `the object name '${name}' cannot name an OpenAPI component: use letters, digits, '.', '-' and '_'`);
      }
      if (this.reserved.has(name)) this.#fail(site, `the object name '${name}' is taken by the document's own schema of that name`);
      named = { first: type, where: site.where, variants: new Map(), aliases: [] };
      this.#named.set(name, named);
    }
    const key = `${mode} ${form}`;
    let variant = named.variants.get(key);
    if (variant === undefined) {
      variant = { base: name, mode, form, schema: undefined, refs: new Set() };
      named.variants.set(key, variant);
      // Set before it is complete: an object that refers to itself gets a `$ref` to it.
      variant.schema = this.#object(named.first, mode, form, { where: named.where, path: name, open: new Set(), within: variant });
    }
    if (!sameDescriptor(type, named.first)) {
      let alias = named.aliases.find((a) => sameDescriptor(a.type, type));
      if (alias === undefined) named.aliases.push((alias = { type, where: site.where, checked: new Set() }));
      if (!alias.checked.has(key)) {
        alias.checked.add(key);
        const schema = this.#object(type, mode, form, { where: site.where, path: `${site.path}`, open: new Set(), within: variant });
        this.#pending.push({ alias, variant, schema });
      }
    }
    site.within?.refs.add(name);
    const ref = { $ref: '' };
    this.#refs.set(ref, variant);
    return ref;
  }

  #object(type: ObjectType, mode: Mode, form: Form, site: Site): JsonSchema {
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(type.fields)) {
      properties[key] = this.#schema(field, mode, form, { ...site, path: `${site.path}${memberPath(key)}` });
      // Reading: the keys reading rejects as missing. Writing: every member but one that is
      // skipped when `undefined` (an optional or unknown one without a default).
      const isRequired = mode === 'read' ? isRequiredKey(type, key, this.#options.errorOnMissingKeys) : isAlwaysWritten(field);
      if (isRequired) required.push(key);
    }
    const s: JsonSchema = { type: 'object', properties };
    if (type.name !== undefined) s.title = type.name;
    if (type.name !== undefined && type.description !== undefined) s.description = type.description;
    if (required.length > 0) s.required = required;
    if (this.#options.errorOnUnknownKeys) s.additionalProperties = false;
    return s;
  }
}

/** Whether writing writes a member even when the value leaves it out: it has a default, or it is not skipped. */
function isAlwaysWritten(field: Type): boolean {
  return absentMember(field).mode !== 'skip';
}

/** The same object descriptor, or a copy of it by `.default()`. */
function sameDescriptor(a: ObjectType, b: ObjectType): boolean {
  return a.fields === b.fields && a.requiresKey === b.requiresKey;
}

function memberPath(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}
