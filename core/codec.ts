import type { Opts } from './options.ts';
import type { Infer, InferInput, Type } from './descriptors/type.ts';

/**
 * A wire format. Every codec reads with the same rules and errors (the shared read pass), so
 * a descriptor means the same thing in JSON, MessagePack, CBOR or a format of your own.
 */
export interface Codec {
  /** `'json'`, `'msgpack'`, `'cbor'` or a user codec's name. */
  readonly name: string;
  /** Media types this codec reads; the first labels what it writes. */
  readonly contentTypes: readonly string[];
  /**
   * Writes `value` as `type` describes it; throws `WriteError` when it does not fit. Members with a
   * `.default()` may be left out of `value` (`InferInput`): their default is written.
   */
  encode<T extends Type>(type: T, value: InferInput<T>, opts?: Opts): Uint8Array | string;
  /** Reads `input` as `type` describes it; throws `ReadError` with a code and a JSON Pointer. */
  decode<T extends Type>(type: T, input: Uint8Array | string, opts?: Opts): Infer<T>;
  /**
   * Optional: builds now what `encode` and `decode` of `type` with `opts` will need. The registry
   * calls it for every endpoint when a service is registered, so that code is generated while the
   * platform allows it (workerd allows `new Function` only while a Worker starts).
   */
  prepare?(type: Type, opts?: Opts): void;
}
