import { Type, type Infer } from './type.ts';

/** A list of values of one descriptor; absent keys default to `[]`. */
export class ArrayType<E extends Type = Type> extends Type<Infer<E>[]> {
  readonly kind = 'array';
  constructor(readonly element: E) {
    super();
  }
}
