import { Type } from './type.ts';

/** A UTF-8 text value; absent keys default to `''`. */
export class StringType extends Type<string> {
  readonly kind = 'string';
}
