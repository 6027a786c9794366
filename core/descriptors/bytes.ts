import { Type } from './type.ts';

/** Binary data: a `Uint8Array`, base64 in JSON; absent keys default to an empty array. */
export class BytesType extends Type<Uint8Array> {
  readonly kind = 'bytes';
}
