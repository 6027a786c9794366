import { Type, type Infer, type InferInput } from './type.ts';

/**
 * A value that may be missing: `T | undefined`. As an object member the key may be absent
 * (and is left out of the result); `null` on the wire also reads as `undefined`.
 */
export class OptionalType<T extends Type = Type> extends Type<Infer<T> | undefined, InferInput<T> | undefined> {
  readonly kind = 'optional';
  constructor(readonly inner: T) {
    super();
  }
}
