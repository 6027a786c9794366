import { Type, type Infer, type InferInput } from './type.ts';

type InferTuple<E extends readonly Type[]> = { -readonly [I in keyof E]: E[I] extends Type ? Infer<E[I]> : never };
type InferInputTuple<E extends readonly Type[]> = {
  -readonly [I in keyof E]: E[I] extends Type ? InferInput<E[I]> : never;
};

/** A fixed-length array, one descriptor per position; absent keys default to each element's default. */
export class TupleType<E extends readonly Type[] = readonly Type[]> extends Type<InferTuple<E>, InferInputTuple<E>> {
  readonly kind = 'tuple';
  constructor(readonly elements: E) {
    super();
  }
}
