// What both adapters answer about a request body they cannot take: over the limit, or coded in a
// way that does not inflate. Reading the bytes and inflating them is each adapter's (node:zlib,
// DecompressionStream); the answers are the same.
import type { BodyCoding, RequestCoding } from './content-coding.ts';
import { problem, type ProblemDocument } from './problem.ts';

/** What an adapter's inflater makes of a coded body: the bytes, or why not. */
export type Inflated = Uint8Array | 'too-large' | 'corrupt';

/** Inflates `bytes` from `coding`, producing at most `limit` bytes. */
export type Inflater = (coding: RequestCoding, bytes: Uint8Array, limit: number) => Promise<Inflated>;

/** The 413 of a body over `limit` bytes, as received. */
export function bodyOverLimit(limit: number): ProblemDocument {
  return problem(413, `the request body is over ${limit} bytes`);
}

/**
 * The body a request's `coding` says `bytes` are (read whole, under `limit`): as they are (at
 * once), or inflated by `inflate` with the limit on the inflated size; a problem (413, 400) when that fails.
 */
export function decodedBody(
  coding: Exclude<BodyCoding, { kind: 'unsupported' }>,
  bytes: Uint8Array,
  limit: number,
  inflate: Inflater,
): Uint8Array | Promise<Uint8Array | ProblemDocument> {
  // Most bodies are not coded: they are what was read, with no promise to wait for.
  if (coding.kind === 'identity' || bytes.byteLength === 0) return bytes;
  return inflate(coding.coding, bytes, limit).then((inflated) => {
    if (inflated === 'too-large') return problem(413, `the request body inflates to over ${limit} bytes`);
    if (inflated === 'corrupt') return problem(400, `the request body is not valid ${coding.coding} data`);
    return inflated;
  });
}
