import type { ObjectType, Type } from '../../../core/descriptors/index.ts';
import { resolveReadOptions, type Opts, type ResolvedReadOptions } from '../../../core/options.ts';
import { schemaError, SchemaPath } from '../../../core/schema/schema-path.ts';
import type { DescribeObject, JsonSchema, SchemaDirection, WireForm } from '../../../core/schema/schema-target.ts';
import { SchemaWalker } from '../../../core/schema/walker.ts';
import { nameComponents, type Variant } from './component-names.ts';
import { sameJson } from './same-json.ts';

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

/** How the document's errors start and write paths: `openApi(): UserService.createUser's body, at .home.zip: …`. */
const CALLER = 'openApi';
const PATHS = 'access';

/** Component names OpenAPI allows. */
const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;

/** A variant's `discriminator.mapping`, filled in once the components are named. */
interface Mapping {
  readonly mapping: Record<string, string>;
  readonly members: readonly (readonly [value: string, ref: JsonSchema])[];
}

/**
 * The schemas of a document's bodies and answers, named objects shared in `components.schemas`.
 * Each descriptor is written by the walker `jsonSchema` uses (core/schema/walker.ts), with OpenAPI's
 * number formats, for the side of the wire and the form of each media type; a named object is a
 * `$ref` to its component, one per direction and form where their schemas differ.
 */
export class SchemaComponents {
  readonly #options: ResolvedReadOptions;
  readonly #walkers = new Map<string, SchemaWalker>();
  readonly #named = new Map<string, Named>();
  /** The `$ref` placeholders handed out, each set once the components are named. */
  readonly #refs = new Map<object, Variant>();
  /** Alias checks, made when every schema is complete. */
  readonly #pending: { alias: Alias; variant: Variant; schema: JsonSchema }[] = [];
  /** The discriminator mappings handed out, each set once the components are named. */
  readonly #mappings: Mapping[] = [];
  /** The named objects whose schemas are being made, innermost last: each records the names it refers to. */
  readonly #within: Variant[] = [];

  constructor(
    opts: Opts,
    private readonly reserved: ReadonlySet<string>,
  ) {
    this.#options = resolveReadOptions(opts);
  }

  /** The schema of `type` as the server reads (`'read'`) or writes (`'write'`) it in `form`. */
  schema(type: Type, direction: SchemaDirection, form: WireForm, where: string): JsonSchema {
    return this.#walker(direction, form).schema(type, SchemaPath.root(where));
  }

  /**
   * The members of `type` as a body reads them in `form`, described in place even when the object
   * is named: `properties` (each member's schema) and `required` (the keys reading rejects as
   * missing), for the parameters an object spreads over a query string.
   */
  members(
    type: ObjectType,
    form: WireForm,
    where: string,
  ): { readonly properties: Record<string, JsonSchema>; readonly required: readonly string[] } {
    const s = this.#walker('read', form).object(type, SchemaPath.root(where));
    return { properties: s.properties as Record<string, JsonSchema>, required: (s.required ?? []) as string[] };
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
          `openApi(): two different objects are named '${variant.base}' (${named.where} and ${alias.where}); ` +
            'give one of them another name, or use the same descriptor in both places',
        );
      }
    }
    const variants = [...this.#named.values()].flatMap((n) => [...n.variants.values()]);
    const names = nameComponents(variants, (a, b) => sameJson(a, b, (v) => this.#refs.get(v)?.base), this.reserved);
    for (const [ref, variant] of this.#refs)
      (ref as { $ref: string }).$ref = `#/components/schemas/${names.get(variant)!}`;
    for (const { mapping, members } of this.#mappings)
      for (const [value, ref] of members) mapping[value] = ref.$ref as string;
    return Object.fromEntries(variants.map((v) => [names.get(v)!, v.schema!]));
  }

  /** The walker of one direction and form, kept for the document: it knows which components it has described. */
  #walker(direction: SchemaDirection, form: WireForm): SchemaWalker {
    const key = `${direction} ${form}`;
    let walker = this.#walkers.get(key);
    if (walker === undefined) {
      walker = new SchemaWalker({
        direction,
        form,
        numbers: 'formats',
        options: this.#options,
        caller: CALLER,
        paths: PATHS,
        named: (type, describe, at) => this.#namedRef(type, direction, form, describe, at),
        mapping: (members) => {
          const mapping: Record<string, string> = {};
          for (const [value] of members) mapping[value] = '';
          this.#mappings.push({ mapping, members });
          return mapping;
        },
      });
      this.#walkers.set(key, walker);
    }
    return walker;
  }

  #refKey(value: object): string | undefined {
    const v = this.#refs.get(value);
    return v === undefined ? undefined : `${v.base} ${v.mode} ${v.form}`;
  }

  #namedRef(
    type: ObjectType & { readonly name: string },
    mode: SchemaDirection,
    form: WireForm,
    describe: DescribeObject,
    at: SchemaPath,
  ): JsonSchema {
    const name = type.name;
    let named = this.#named.get(name);
    if (named === undefined) {
      if (!COMPONENT_NAME.test(name)) {
        throw schemaError(
          CALLER,
          PATHS,
          at,
          `the object name '${name}' cannot name an OpenAPI component: use letters, digits, '.', '-' and '_'`,
        );
      }
      if (this.reserved.has(name))
        throw schemaError(
          CALLER,
          PATHS,
          at,
          `the object name '${name}' is taken by the document's own schema of that name`,
        );
      named = { first: type, where: at.where, variants: new Map(), aliases: [] };
      this.#named.set(name, named);
    }
    const key = `${mode} ${form}`;
    let variant = named.variants.get(key);
    if (variant === undefined) {
      variant = { base: name, mode, form, schema: undefined, refs: new Set() };
      named.variants.set(key, variant);
      // Set before it is complete: an object that refers to itself gets a `$ref` to it.
      variant.schema = this.#describeWithin(variant, () => describe(named.first, SchemaPath.root(named.where, name)));
    }
    if (!sameDescriptor(type, named.first)) {
      let alias = named.aliases.find((a) => sameDescriptor(a.type, type));
      if (alias === undefined) named.aliases.push((alias = { type, where: at.where, checked: new Set() }));
      if (!alias.checked.has(key)) {
        alias.checked.add(key);
        this.#pending.push({ alias, variant, schema: this.#describeWithin(variant, () => describe(type, at)) });
      }
    }
    this.#within.at(-1)?.refs.add(name);
    const ref = { $ref: '' };
    this.#refs.set(ref, variant);
    return ref;
  }

  /** `describe()` with `variant` as the component the references met inside belong to. */
  #describeWithin(variant: Variant, describe: () => JsonSchema): JsonSchema {
    this.#within.push(variant);
    try {
      return describe();
    } finally {
      this.#within.pop();
    }
  }
}

/** The same object descriptor, or a copy of it by `.default()`. */
function sameDescriptor(a: ObjectType, b: ObjectType): boolean {
  return a.fields === b.fields && a.requiresKey === b.requiresKey;
}
