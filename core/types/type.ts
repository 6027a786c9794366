import type { StandardSchemaV1 } from '../standard-schema.ts';
import { standardProps } from '../standard-schema.ts';

/** Every descriptor kind; each names the `t.*` factory that makes it. */
export type Kind =
  | 'string' | 'bool'
  | 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32'
  | 'i64' | 'u64'
  | 'f32' | 'f64'
  | 'bytes' | 'array' | 'map' | 'tuple' | 'literal' | 'enum' | 'object'
  | 'optional' | 'nullable' | 'void';

/**
 * A field descriptor: plain data with a `kind` discriminant. It knows nothing about codecs;
 * readers, writers and schemas are compiled from it elsewhere.
 */
export abstract class Type<Out = unknown> {
  abstract readonly kind: Kind;
  /** Type-level only: the value this descriptor reads to. */
  declare readonly '~out': Out;
  /** True once `.default(value)` was called. */
  readonly hasDefault: boolean = false;
  /** What an absent key becomes, when `hasDefault`. */
  readonly defaultValue: Out | undefined = undefined;

  /** A copy of this descriptor whose absent keys read as `value` (required-ness is unchanged). */
  default(value: Out): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this, { hasDefault: true, defaultValue: value });
    return copy;
  }

  /** Standard Schema v1: validates a JavaScript value with the default reading options. */
  get '~standard'(): StandardSchemaV1.Props<unknown, Out> {
    return standardProps(this);
  }
}

/** The static type a descriptor reads to: `Infer<typeof User>`. */
export type Infer<T extends Type> = T['~out'];
