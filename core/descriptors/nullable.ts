import { OptionalType } from './optional.ts';
import { Type, type Infer, type InferInput } from './type.ts';

/** A value or `null`; absent keys default to `null`. */
export class NullableType<T extends Type = Type> extends Type<Infer<T> | null, InferInput<T> | null> {
  readonly kind = 'nullable';
  constructor(readonly inner: T) {
    super();
  }
}

/** What `t.nullable(inner)` makes: `t.nullable(t.optional(T))` is `t.optional(t.nullable(T))`. */
export type NullableOf<T extends Type> =
  T extends OptionalType<infer I> ? OptionalType<NullableType<I>> : NullableType<T>;

/**
 * `t.nullable(inner)`. A nullable optional value is an optional nullable one, whichever way round
 * it is written: its key may be absent (absent, `undefined`) and a `null` present reads as `null`,
 * so both spellings are one descriptor, read, written and described by the same rules. The
 * optional's `.default()` and `.describe()` stay on the outer descriptor.
 */
export function nullableOf<T extends Type>(inner: T): NullableOf<T> {
  if (!(inner instanceof OptionalType)) return new NullableType(inner) as NullableOf<T>;
  const swapped = new OptionalType(new NullableType(inner.inner as Type));
  return Object.assign(swapped, {
    hasDefault: inner.hasDefault,
    defaultValue: inner.defaultValue,
    description: inner.description,
  }) as unknown as NullableOf<T>;
}
