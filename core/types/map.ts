import { Type, type Infer } from './type.ts';

/** An object with arbitrary string keys and values of one descriptor; absent keys default to `{}`. */
export class MapType<V extends Type = Type> extends Type<Record<string, Infer<V>>> {
  readonly kind = 'map';
  constructor(readonly values: V) {
    super();
  }
}
