import { Type } from './type.ts';

/** No value: what a method that returns nothing returns. Reads `null`, writes `null`. */
export class VoidType extends Type<undefined> {
  readonly kind = 'void';
}
