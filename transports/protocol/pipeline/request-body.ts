// A request body as the pipeline reads it: collected under its limit and the server's `Load`,
// inflated when it is coded, and the answers when it cannot be taken (413, 400, 503). The bytes
// arrive through the adapter (Node's stream events, a Web `ReadableStream`); counting them, and
// what the answers say, is here once.
import type { BodyCoding, RequestCoding } from './content-coding.ts';
import { problem, type ProblemDocument } from '../problem.ts';
import type { Load } from './load.ts';
import type { EndpointRequest, EndpointResponse } from '../types.ts';

/** The outcome of reading a request body under a cap; `busy` when the server's body budget ran out. */
export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Uint8Array }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'broken' };

export const EMPTY_BODY = new Uint8Array(0);

/**
 * The body of `request`, pulled the one way every protocol pulls it: the bytes it was given (none:
 * empty), or those its transport reads on demand (`request.body()`, called as a method, which may
 * answer instead: a 413, a 503), a promise while they still arrive.
 */
export function pullBody(
  request: EndpointRequest,
): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> {
  const { body } = request;
  if (typeof body !== 'function') return body ?? EMPTY_BODY;
  // Called as a method: a transport may read the body with `this`.
  return body.call(request);
}
const TOO_LARGE: BodyResult = Object.freeze({ kind: 'too-large' });
export const BUSY: BodyResult = Object.freeze({ kind: 'busy' });
export const BROKEN: BodyResult = Object.freeze({ kind: 'broken' });

/**
 * Collects a body chunk by chunk, never holding more than `limit` bytes: a chunk that would pass
 * it fails the read (`too-large`), as one that does not fit in `load` does (`busy`). Each chunk is
 * counted in `load` as it arrives; the bytes of a body read whole stay counted (the caller counts
 * them out when its call settles), those of a failed read are counted out by `fail`.
 */
export class BodyCollector {
  #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(
    readonly limit: number,
    readonly load: Load | undefined,
  ) {}

  /** Adds a chunk: `undefined` while the body fits, else the failure (already counted out). */
  add(chunk: Uint8Array): BodyResult | undefined {
    if (this.#size + chunk.byteLength > this.limit) return this.fail(TOO_LARGE);
    if (this.load !== undefined && !this.load.take(chunk.byteLength)) return this.fail(BUSY);
    this.#size += chunk.byteLength;
    this.#chunks.push(chunk);
    return undefined;
  }

  /** The body, whole. */
  finish(): BodyResult {
    const chunks = this.#chunks;
    this.#chunks = [];
    if (chunks.length <= 1) return { kind: 'ok', body: chunks[0] ?? EMPTY_BODY };
    const body = new Uint8Array(this.#size);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return { kind: 'ok', body };
  }

  /** Drops what was collected, counting it out of `load`, and returns `result`. */
  fail(result: BodyResult): BodyResult {
    this.#chunks = [];
    this.load?.give(this.#size);
    this.#size = 0;
    return result;
  }
}

/** What an adapter's inflater makes of a coded body: the bytes, or why not. */
export type Inflated = Uint8Array | 'too-large' | 'corrupt';

/** Inflates `bytes` from `coding`, producing at most `limit` bytes. */
export type Inflater = (coding: RequestCoding, bytes: Uint8Array, limit: number) => Promise<Inflated>;

/** The 413 of a body over `limit` bytes, as received. */
export function bodyOverLimit(limit: number): ProblemDocument {
  return problem(413, `the request body is over ${limit} bytes`);
}

/** The 400 of a body that broke off or could not be read. */
export function bodyBroken(): ProblemDocument {
  return problem(400, 'the request body could not be read');
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
