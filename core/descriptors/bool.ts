import { Type } from './type.ts';

/** `true` or `false`; absent keys default to `false`. */
export class BoolType extends Type<boolean> {
  readonly kind = 'bool';
}
