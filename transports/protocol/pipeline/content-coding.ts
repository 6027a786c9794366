// Content codings (RFC 9110 §8.4, §12.5.3): which coding an answer is compressed with, which
// answers are, and what a request body's Content-Encoding means. Only the decisions live here;
// the (de)compression itself is each adapter's (node:zlib in transports/http, CompressionStream
// and DecompressionStream in transports/fetch).
import { isToken, listMembers, parseWeightedList } from '../header-grammar.ts';
import { problem, type ProblemDocument } from '../problem.ts';
import { utf8Length } from '../utf8-length.ts';
import { remember } from '../../../core/util/remember.ts';
import type { EndpointResponse, HeaderValues } from '../types.ts';
import { isFrames } from '../answer-body.ts';
import { addVary } from '../vary.ts';

/** A coding answers may be compressed with. */
export type ResponseCoding = 'br' | 'zstd' | 'gzip';

/** A coding request bodies may arrive in. */
export type RequestCoding = 'gzip' | 'deflate' | 'br' | 'zstd';

/**
 * 1 KiB: answers with a smaller body are never compressed (nor marked `Vary: Accept-Encoding`):
 * below it the framing of a compressed body and the work outweigh what it saves. The same as
 * @fastify/compress's default `threshold`.
 */
export const DEFAULT_COMPRESSION_THRESHOLD = 1024;

/** Every response coding lacquer knows, in the server's order of preference. */
export const RESPONSE_CODINGS: readonly ResponseCoding[] = ['br', 'zstd', 'gzip'];

/** How answers are compressed: the `compression` option of `HttpServer` and `toFetchHandler`. */
export interface CompressionOptions {
  /**
   * Smallest body, in bytes, that is compressed. Default {@link DEFAULT_COMPRESSION_THRESHOLD}.
   */
  threshold?: number;
  /**
   * The codings offered, most preferred first; at equal q-values the earlier one wins. Default
   * `['br', 'zstd', 'gzip']`. A coding the runtime cannot produce (zstd before Node 22.15, br in a
   * `CompressionStream` without it) is left out, so one setting serves every runtime.
   */
  encodings?: readonly ResponseCoding[];
}

/** The compression settings, checked; the adapter narrows `encodings` to what its runtime has. */
export interface CompressionSettings {
  readonly threshold: number;
  readonly encodings: readonly ResponseCoding[];
}

/** Checks the `compression` option: `undefined` when answers are not compressed (`false`). */
export function resolveCompression(
  owner: string,
  value: false | CompressionOptions | undefined,
): CompressionSettings | undefined {
  if (value === false) return undefined;
  if (value === undefined) return { threshold: DEFAULT_COMPRESSION_THRESHOLD, encodings: RESPONSE_CODINGS };
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(`${owner}: compression must be false or { threshold?, encodings? }, got ${String(value)}`);
  }
  const threshold = value.threshold ?? DEFAULT_COMPRESSION_THRESHOLD;
  if (!(Number.isInteger(threshold) && threshold >= 0)) {
    throw new RangeError(`${owner}: compression.threshold must be an integer ≥ 0, got ${String(threshold)}`);
  }
  const encodings = value.encodings ?? RESPONSE_CODINGS;
  if (!Array.isArray(encodings) || encodings.length === 0) {
    throw new RangeError(
      `${owner}: compression.encodings must list at least one of ${RESPONSE_CODINGS.join(', ')} (compression: false turns compression off)`,
    );
  }
  for (const [i, coding] of encodings.entries()) {
    if (!RESPONSE_CODINGS.includes(coding)) {
      throw new RangeError(
        `${owner}: compression.encodings: '${String(coding)}' is not one of ${RESPONSE_CODINGS.join(', ')}`,
      );
    }
    if (encodings.indexOf(coding) !== i)
      throw new RangeError(`${owner}: compression.encodings names '${coding}' twice`);
  }
  return { threshold, encodings: [...encodings] };
}

// ---- Accept-Encoding ----------------------------------------------------------------------------

/** One member of an `Accept-Encoding` header: a coding (lower-cased; `x-gzip` read as `gzip`), `identity` or `*`. */
export interface AcceptedCoding {
  readonly coding: string;
  readonly q: number;
}

/**
 * Parses `Accept-Encoding`, a weighted list whose members have no parameter but their weight
 * (RFC 9110 §12.5.3). A member that is not a token, whose `q` is not a q-value (`q=2`, `q=abc`)
 * or that has another parameter is skipped, never an error: a header of junk accepts nothing but
 * identity. A coding named twice keeps its lowest q-value (a refusal is never overridden).
 */
export function parseAcceptEncoding(header: string): AcceptedCoding[] {
  const out: AcceptedCoding[] = [];
  for (const { name, q } of parseWeightedList(header, false)) {
    if (!isToken(name)) continue;
    const coding = name === 'x-gzip' ? 'gzip' : name;
    const seen = out.findIndex((a) => a.coding === coding);
    if (seen === -1) out.push({ coding, q });
    else if (q < out[seen]!.q) out[seen] = { coding, q };
  }
  return out;
}

/**
 * The coding of an answer to a client sending `header`, among `offered` (most preferred first), or
 * `undefined` for identity. The highest q-value wins; at equal q, the earlier in `offered`, and a
 * coding over identity. A coding not named takes the q of `*`, if named. Identity wins only when
 * the client rates it above every coding offered (`gzip;q=0.5, identity`). When nothing offered is
 * acceptable the answer is identity, even if the client refused it (`identity;q=0`): RFC 9110
 * allows a 406 there, but an answer it can probably read serves the client better.
 */
export function negotiateEncoding(header: string, offered: readonly ResponseCoding[]): ResponseCoding | undefined {
  const accepted = parseAcceptEncoding(header);
  if (accepted.length === 0) return undefined;
  let star: number | undefined;
  let identity: number | undefined;
  for (const a of accepted) {
    if (a.coding === '*') star = a.q;
    else if (a.coding === 'identity') identity = a.q;
  }
  let best: ResponseCoding | undefined;
  let bestQ = 0;
  for (const coding of offered) {
    const q = accepted.find((a) => a.coding === coding)?.q ?? star ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  if (best === undefined) return undefined;
  return (identity ?? star ?? 0) > bestQ ? undefined : best;
}

// ---- Which answers are compressed -----------------------------------------------------------------

/** Media types that are compressed already (images, audio, video, archives): compressing again only costs. */
const COMPRESSED_MEDIA =
  /^(?:image\/(?!svg\+xml)|audio\/|video\/|font\/woff|application\/(?:zip|gzip|x-gzip|zstd|x-brotli|x-bzip2|x-xz|x-7z-compressed|x-rar-compressed|pdf)\b)/i;

/** Whether `body` holds at least `threshold` bytes (as UTF-8 for text), without encoding it when the length tells. */
function atLeast(body: string | Uint8Array, threshold: number): boolean {
  if (typeof body !== 'string') return body.byteLength >= threshold;
  if (body.length >= threshold) return true;
  if (body.length * 3 < threshold) return false;
  return utf8Length(body) >= threshold;
}

/** The value of header `name` as one line. */
function line(value: string | string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/**
 * Compression as one adapter applies it: the settings, narrowed to the codings the runtime can
 * produce, and the codings chosen for the `Accept-Encoding` values seen (they repeat from request
 * to request; bounded as every memo of what clients send, by `remember`).
 */
export class CompressionPolicy {
  readonly #memo = new Map<string, ResponseCoding | null>();

  constructor(
    readonly threshold: number,
    /** The codings offered, most preferred first: those of the settings the runtime can produce. */
    readonly encodings: readonly ResponseCoding[],
  ) {}

  /** The coding for a client sending `acceptEncoding`, or `undefined` for identity. */
  choose(acceptEncoding: string): ResponseCoding | undefined {
    const known = this.#memo.get(acceptEncoding);
    if (known !== undefined) return known ?? undefined;
    return remember(this.#memo, acceptEncoding, negotiateEncoding(acceptEncoding, this.encodings) ?? null) ?? undefined;
  }

  /**
   * What to do with `answer` for a request that sent `Accept-Encoding: acceptEncoding` (the
   * adapter calls this only when the header is present: without it every answer is identity and
   * nothing here runs). An answer whose coding depends on the header (a body of at least the
   * threshold, a status with a body, not encoded already, not compressed media) gets
   * `Vary: Accept-Encoding`, whatever the coding; the coding to compress it with is returned,
   * `undefined` for identity. Frames are never compressed; HEAD is never compressed either: its answer describes the identity body
   * (`Content-Length` included), as a GET without `Accept-Encoding` would, and keeps the `Vary`.
   */
  plan(answer: EndpointResponse, head: boolean, acceptEncoding: string): ResponseCoding | undefined {
    return this.qualifies(answer) ? this.planQualified(answer, head, acceptEncoding) : undefined;
  }

  /** {@link plan} for an answer known to qualify (the pipeline asks `qualifies` first, to read `Accept-Encoding` only then). */
  planQualified(answer: EndpointResponse, head: boolean, acceptEncoding: string): ResponseCoding | undefined {
    const type = line(answer.headers['content-type']);
    if (type !== undefined && COMPRESSED_MEDIA.test(type)) return undefined;
    addVary(answer.headers, 'Accept-Encoding');
    return head ? undefined : this.choose(acceptEncoding);
  }

  /**
   * Whether `answer` may be compressed at all, whatever the client accepts: a body of at least the
   * threshold (frames are written as they come, never compressed whole), a status with a body, not
   * encoded already. The adapter reads `Accept-Encoding` only for those.
   */
  qualifies(answer: EndpointResponse): boolean {
    const { status, body, headers } = answer;
    if (body === undefined || isFrames(body) || body.length === 0 || status === 204 || status === 304) return false;
    return headers['content-encoding'] === undefined && this.encodings.length > 0 && atLeast(body, this.threshold);
  }
}

/**
 * Labels `headers` for a body now compressed with `coding`: `Content-Encoding`, and a strong
 * `ETag` made weak (the compressed bytes differ from the identity ones a strong tag vouches for).
 */
export function markEncoded(headers: HeaderValues, coding: ResponseCoding): void {
  headers['content-encoding'] = coding;
  const etag = headers.etag;
  if (typeof etag === 'string' && etag.startsWith('"')) headers.etag = `W/${etag}`;
}

// ---- Content-Encoding of request bodies ---------------------------------------------------------

/** What a request's `Content-Encoding` asks of the transport reading its body. */
export type BodyCoding =
  | { readonly kind: 'identity' }
  | { readonly kind: 'coded'; readonly coding: RequestCoding }
  | { readonly kind: 'unsupported'; readonly problem: ProblemDocument; readonly headers: HeaderValues };

const IDENTITY: BodyCoding = Object.freeze({ kind: 'identity' });
const CODED: Readonly<Record<RequestCoding, BodyCoding>> = {
  gzip: Object.freeze({ kind: 'coded', coding: 'gzip' }),
  deflate: Object.freeze({ kind: 'coded', coding: 'deflate' }),
  br: Object.freeze({ kind: 'coded', coding: 'br' }),
  zstd: Object.freeze({ kind: 'coded', coding: 'zstd' }),
};

/**
 * Reads a request's `Content-Encoding` against the codings the transport can inflate
 * (`supported`). Absent, empty or `identity`: the body is read as it is. One supported coding
 * (`x-gzip` is `gzip`): the body is inflated, the body limit applying to the inflated size.
 * Anything else, including several codings stacked (`gzip, br`), is 415 with the supported
 * codings in `Accept-Encoding` (RFC 9110 §15.5.16).
 */
export function requestBodyCoding(header: string | null | undefined, supported: readonly RequestCoding[]): BodyCoding {
  if (header === null || header === undefined) return IDENTITY;
  const codings = listMembers(header)
    .map((c) => c.toLowerCase())
    .filter((c) => c !== 'identity');
  if (codings.length === 0) return IDENTITY;
  const accepted = supported.join(', ');
  const headers: HeaderValues = { 'accept-encoding': accepted === '' ? 'identity' : accepted };
  if (codings.length > 1) {
    return {
      kind: 'unsupported',
      problem: problem(
        415,
        `a body with several content codings (${codings.join(', ')}) cannot be read; one of ${accepted || 'none'} can`,
      ),
      headers,
    };
  }
  const coding = codings[0] === 'x-gzip' ? 'gzip' : codings[0]!;
  if ((supported as readonly string[]).includes(coding)) return CODED[coding as RequestCoding];
  return {
    kind: 'unsupported',
    problem: problem(
      415,
      `a body with Content-Encoding '${header.trim()}' cannot be read; supported: ${accepted || 'none'}`,
    ),
    headers,
  };
}

/**
 * Whether `bytes` start with a zlib header (RFC 1950): HTTP's `deflate` is zlib-wrapped, but some
 * clients send raw deflate (RFC 1951) under that name; both are read.
 */
export function hasZlibHeader(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 2) return false;
  const cmf = bytes[0]!;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | bytes[1]!) % 31 === 0;
}
