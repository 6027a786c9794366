import { Type, type Infer, type InferInput } from './type.ts';

/**
 * A value that may be missing: `T | undefined`. As an object member the key may be absent
 * (and is left out of the result). A `null` on the wire reads as `undefined`, unless `T` holds
 * `null` itself (`t.nullable`, `t.unknown()`, `t.literal(null)`): presence is presence, and the
 * `null` is read by `T` (`t.optional(t.nullable(T))` reads `{"a": null}` as `{ a: null }`).
 */
export class OptionalType<T extends Type = Type> extends Type<Infer<T> | undefined, InferInput<T> | undefined> {
  readonly kind = 'optional';
  constructor(readonly inner: T) {
    super();
  }
}
