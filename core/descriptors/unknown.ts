import { Type } from './type.ts';

/**
 * Any value the wire carries: JSON values; in MessagePack and CBOR also byte strings, 64-bit
 * integers (bigints beyond 2^53) and timestamps. Maps must have string keys. Read under the same
 * limits, with `__proto__` kept as an own key. Like `t.optional`, it takes `null` and an absent
 * key, which is left out of the result.
 */
export class UnknownType extends Type<unknown> {
  readonly kind = 'unknown';
}
