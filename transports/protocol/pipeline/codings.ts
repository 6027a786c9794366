import type { RequestCoding, ResponseCoding } from './content-coding.ts';
import type { Inflater } from './request-body.ts';

/**
 * The content codings of a platform, which its adapter gives the pipeline: node:zlib on Node,
 * CompressionStream and DecompressionStream on the Fetch API. What to compress and when is the
 * pipeline's (content-coding.ts); only the work is the platform's.
 */
export interface Codings {
  /** The codings request bodies can be inflated from; asked only once a body names one. */
  requestCodings(): readonly RequestCoding[];
  /** Of `wanted`, the codings answers can be compressed with; asked once, on the first request. */
  responseCodings(wanted: readonly ResponseCoding[]): readonly ResponseCoding[];
  /** Compresses an answer's body whole. */
  compress(coding: ResponseCoding, body: string | Uint8Array): Promise<Uint8Array>;
  /** Inflates a request body read whole, producing at most `limit` bytes. */
  readonly inflate: Inflater;
}
