import type { ResolvedReadOptions } from '../options.ts';

/**
 * Where a tree comes from. `json`: `JSON.parse` output, bytes as base64 text, and an integer beyond
 * 2^53 means digits were lost, so the JSON codec must read the text again exactly (that tree, with
 * its `RawNumber`s, goes to the closure readers: generated `json` readers take `JSON.parse` output
 * only). `binary`: the binary parsers or plain JavaScript values, bytes as `Uint8Array`, every
 * number exact as it is, timestamps as `WireTimestamp` (or `Date`).
 */
export type TreeSource = 'json' | 'binary';

/** Everything a compiled reader depends on besides its descriptor. */
export interface ReaderContext extends ResolvedReadOptions {
  readonly source: TreeSource;
  /**
   * The collecting pass (`collect.ts`): containers record the failures of their members and read
   * on, instead of failing at the first. Off (fail fast) when absent.
   */
  readonly collect?: boolean;
}

/** A compiled reader: checks one input value against its descriptor and returns the clean value. */
export type Reader = (input: unknown) => unknown;
