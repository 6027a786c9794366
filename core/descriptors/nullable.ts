import { Type, type Infer, type InferInput } from './type.ts';

/** A value or `null`; absent keys default to `null`. */
export class NullableType<T extends Type = Type> extends Type<Infer<T> | null, InferInput<T> | null> {
  readonly kind = 'nullable';
  constructor(readonly inner: T) {
    super();
  }
}
