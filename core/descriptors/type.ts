// The one import of core/descriptors that runs up a layer (named in spec/layers.spec.ts): the
// `~standard` getter Standard Schema v1 asks every schema object for validates with the read pass.
import { standardProps } from '../standard-schema.ts';
import type { StandardSchemaV1 } from './standard-schema-v1.ts';

/** Every descriptor kind; each names the `t.*` factory that makes it. */
export type Kind =
  | 'string'
  | 'bool'
  | 'i8'
  | 'i16'
  | 'i32'
  | 'u8'
  | 'u16'
  | 'u32'
  | 'i64'
  | 'u64'
  | 'f32'
  | 'f64'
  | 'bytes'
  | 'timestamp'
  | 'unknown'
  | 'array'
  | 'map'
  | 'tuple'
  | 'literal'
  | 'enum'
  | 'object'
  | 'variant'
  | 'lazy'
  | 'optional'
  | 'nullable'
  | 'void';

/**
 * A field descriptor: plain data with a `kind` discriminant. It knows nothing about codecs;
 * readers, writers and schemas are compiled from it elsewhere.
 *
 * `Out` is the value reading gives (`Infer`); `In` what a writer takes (`InferInput`), which
 * differs where a member with `.default()` may be left out.
 */
export abstract class Type<Out = unknown, In = Out> {
  abstract readonly kind: Kind;
  /** Type-level only: the value this descriptor reads to. */
  declare readonly '~out': Out;
  /** Type-level only: the value a writer takes. */
  declare readonly '~in': In;
  /** True once `.default(value)` was called. */
  readonly hasDefault: boolean = false;
  /** What an absent key becomes, when `hasDefault`. */
  readonly defaultValue: Out | undefined = undefined;
  /** Said of the value in JSON Schema and OpenAPI (`description`); set by `.describe(text)`. */
  readonly description: string | undefined = undefined;

  /**
   * A copy of this descriptor whose absent keys read as `value` (required-ness is unchanged), and
   * which a writer writes when the member is absent: in `InferInput` the key may be left out.
   */
  default(value: Out): Defaulted<this> {
    return this.copyWith({ hasDefault: true, defaultValue: value }) as Defaulted<this>;
  }

  /** A copy of this descriptor with a description, for JSON Schema and OpenAPI. */
  describe(text: string): this {
    if (typeof text !== 'string') throw new TypeError('describe(): the description is a string');
    return this.copyWith({ description: text });
  }

  /** A copy of this descriptor with some of its own properties replaced. */
  protected copyWith(changes: Partial<Record<'hasDefault' | 'defaultValue' | 'description', unknown>>): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this, changes);
    return copy;
  }

  /** Standard Schema v1: validates a JavaScript value with the default reading options. */
  get '~standard'(): StandardSchemaV1.Props<In, Out> {
    return standardProps(this);
  }
}

/** A descriptor with `.default(value)`: as an object member its key may be absent from a writer's input. */
export type Defaulted<T> = T & { readonly '~defaulted': true };

/** What `Infer` and `InferInput` read: a descriptor, or a stream of one (`t.stream(T)`). */
export interface Described {
  readonly '~out': unknown;
  readonly '~in': unknown;
}

/** The static type a descriptor reads to: `Infer<typeof User>`. */
export type Infer<T extends Described> = T['~out'];

/**
 * The static type a writer (and a client's parameter) takes: `Infer`, except that members with
 * `.default()` may be left out (the writer writes their default) as `t.optional` ones may.
 */
export type InferInput<T extends Described> = T['~in'];
