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
  /**
   * Optional, for streams: the media type of a sequence of this codec's values
   * (`application/jsonl`, `application/cbor-seq`, `application/msgpack-seq`). A codec without it
   * serves and reads no stream. A text codec (whose `encode` gives a string) frames items as lines:
   * its text of a value never holds a line feed or a carriage return and is never blank. A binary
   * codec frames items as its self-delimiting values, and needs `sequenceEnd` and `itemScanner`.
   */
  readonly sequenceType?: string;
  /**
   * A binary codec's sequences: the bytes of the value that marks the end of the items, one this
   * codec never writes, nor reads, as an item (CBOR's `undefined`, `0xf7`).
   */
  readonly sequenceEnd?: Uint8Array;
  /**
   * A binary codec's sequences: a new {@link ItemScanner}, which finds where each item of a byte
   * stream ends, refusing nesting deeper than `maxDepth`.
   */
  itemScanner?(maxDepth: number): ItemScanner;
  /**
   * Optional, for protocols whose messages wrap typed values (JSON-RPC, MCP): `input` parsed whole,
   * under `opts`' limits (`maxBytes`, `maxItems`, and `maxDepth` where the parser nests), into the
   * tree the shared read pass takes, so that each part of a message is read by the descriptor it
   * turns out to need. Throws `ReadError` for input that does not parse. Without it, a protocol
   * reads a message through `decode(t.unknown(), input)`, whose JSON numbers beyond 2^53 are not
   * exact.
   */
  parseMessage?(input: Uint8Array | string, opts?: Opts): ParsedMessage;
  /**
   * Optional, for batches: the array whose items are the values `encoded` (each given by this
   * codec's `encode`), in this codec's form: `[a,b]` in JSON. Without it, a protocol answering
   * a batch reads each item back with `decode(t.unknown(), ...)` and writes the array of them.
   */
  joinArray?(encoded: readonly (Uint8Array | string)[]): Uint8Array | string;
}

/** A message as {@link Codec.parseMessage} parsed it. */
export interface ParsedMessage {
  /** Plain values: objects, arrays, strings, numbers, and a binary format's bytes, bigints and timestamps. */
  readonly tree: unknown;
  /** The rules its parts are read by: JSON's (bytes as base64 text, timestamps as RFC 3339 text), or a binary format's. */
  readonly source: 'json' | 'binary';
  /**
   * JSON: the same input parsed again with every integer exact, for a part whose 64-bit members
   * met a number `tree` holds with lost digits. Absent where `tree` is exact already.
   */
  exact?(): unknown;
}

/**
 * Finds where the values of a byte stream end, one value after another, without reading them,
 * and without going over the bytes of a value twice however the stream is cut into chunks.
 */
export interface ItemScanner {
  /**
   * Scans on through the value that starts at `start`, with `bytes` holding the stream up to
   * `end`: returns the offset just past the value once `bytes` holds all of it (and is then ready
   * for the next value), else `undefined`, remembering how far it got relative to `start`. The next
   * call for the same value gives the same bytes from `start` on (moved, maybe) and more after
   * them. Throws `ReadError` for bytes no value starts with, and for nesting deeper than its
   * `maxDepth`. Costs in proportion to the value's headers, never recursing.
   */
  scan(bytes: Uint8Array, start: number, end: number): number | undefined;
  /**
   * After `scan` returned `undefined`: the fewest bytes the unfinished value holds, from what its
   * headers announce (a string's length, a container's count of values of at least one byte each),
   * so that a limit fails as soon as a header announces more than it allows.
   */
  readonly needed: number;
}
