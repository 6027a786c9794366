// Compression of answers and inflation of request bodies on node:zlib, asynchronously (zlib's
// thread pool): a large body never blocks the event loop. What to compress, and with what, is
// decided in transports/rest/content-coding.ts.
import { constants as buffer } from 'node:buffer';
import * as zlib from 'node:zlib';
import { hasZlibHeader, type RequestCoding, type ResponseCoding } from '../protocol/pipeline/content-coding.ts';
import type { Codings } from '../protocol/pipeline/codings.ts';
import type { Inflated } from '../protocol/pipeline/request-body.ts';

type Callback = (error: Error | null, result: Buffer) => void;
type Convenience = (buffer: zlib.InputType, options: zlib.ZlibOptions | zlib.BrotliOptions, callback: Callback) => void;

/** zstd arrived in node:zlib with Node 22.15 and 23.8; Node 20 has none. Detected, not assumed. */
const zstd = zlib as unknown as { zstdCompress?: Convenience; zstdDecompress?: Convenience };
const hasZstd = typeof zstd.zstdCompress === 'function' && typeof zstd.zstdDecompress === 'function';

/** The codings answers can be compressed with here, in lacquer's order of preference. */
export const NODE_RESPONSE_CODINGS: readonly ResponseCoding[] = hasZstd ? ['br', 'zstd', 'gzip'] : ['br', 'gzip'];

/** The codings request bodies can be inflated from here. */
export const NODE_REQUEST_CODINGS: readonly RequestCoding[] = hasZstd
  ? ['gzip', 'deflate', 'br', 'zstd']
  : ['gzip', 'deflate', 'br'];

/**
 * Brotli quality 4, as @fastify/compress sets by default ("Default of 4 as 11 has a heavy impact
 * on performance", citing https://blog.cloudflare.com/this-is-brotli-from-origin#testing): close to
 * gzip's speed, smaller output. Node's own default is 11, the slowest.
 */
const BROTLI_QUALITY = 4;

/** Output chunk of the convenience functions: 64 KiB rather than 16 KiB, fewer trips to the pool. */
const CHUNK = 64 * 1024;

function run(fn: Convenience, input: zlib.InputType, options: zlib.ZlibOptions | zlib.BrotliOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    fn(input, options, (error, result) => (error === null ? resolve(result) : reject(error))),
  );
}

/** Compresses an answer's body with `coding`: gzip at zlib's default level, brotli at quality 4, zstd at its default (3). */
export function compress(coding: ResponseCoding, body: string | Uint8Array): Promise<Buffer> {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (coding === 'gzip') return run(zlib.gzip as Convenience, body, { chunkSize: CHUNK });
  if (coding === 'br') {
    return run(zlib.brotliCompress as Convenience, body, {
      chunkSize: CHUNK,
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
    });
  }
  return run(zstd.zstdCompress!, body, { chunkSize: CHUNK });
}

/**
 * Inflates a request body read whole (its wire size already under `limit`), producing at most
 * `limit` bytes: zlib's `maxOutputLength` stops the inflater as soon as its output crosses the
 * limit, so a bomb (10 MiB of zeros in 10 KB of gzip) costs the limit, not what it would inflate
 * to. `deflate` is read zlib-wrapped (RFC 1950) or raw (RFC 1951), whichever the bytes are.
 */
export async function inflate(coding: RequestCoding, bytes: Uint8Array, limit: number): Promise<Inflated> {
  // zlib takes 1 to its buffer limit; a limit of 0 lets nothing through (checked below).
  const maxOutputLength = Math.max(1, Math.min(Math.floor(limit), buffer.MAX_LENGTH));
  const options = { chunkSize: CHUNK, maxOutputLength };
  const fn: Convenience =
    coding === 'gzip'
      ? (zlib.gunzip as Convenience)
      : coding === 'deflate'
        ? ((hasZlibHeader(bytes) ? zlib.inflate : zlib.inflateRaw) as Convenience)
        : coding === 'br'
          ? (zlib.brotliDecompress as Convenience)
          : zstd.zstdDecompress!;
  try {
    const out = await run(fn, bytes, options);
    return out.byteLength > limit ? 'too-large' : out;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'corrupt';
  }
}

/** node:zlib's codings, as the pipeline takes them. */
export const NODE_CODINGS: Codings = {
  requestCodings: () => NODE_REQUEST_CODINGS,
  responseCodings: (wanted) => wanted.filter((c) => NODE_RESPONSE_CODINGS.includes(c)),
  compress,
  inflate,
};
