import { DEFAULT_MAX_BODY_BYTES } from '../rest/options.ts';
import type { CorsOptions } from '../rest/cors.ts';
import { checkTrustProxy, type TrustProxy } from '../rest/client-address.ts';
import { resolveCompression, type CompressionOptions, type CompressionSettings } from '../rest/content-coding.ts';
import { checkBytes, checkCount, DEFAULT_MAX_BUFFERED_BODY_BYTES, DEFAULT_MAX_CALLS_IN_FLIGHT } from '../rest/load.ts';

export { DEFAULT_MAX_BUFFERED_BODY_BYTES, DEFAULT_MAX_CALLS_IN_FLIGHT };

/** 30 s for a service method to answer; then 503, and `call.signal` aborts. */
export const DEFAULT_FETCH_HANDLER_TIMEOUT_MS = 30_000;

/** Options of {@link toFetchHandler}; every member is optional. */
export interface FetchHandlerOptions {
  /**
   * Largest request body, in bytes: a larger declared `Content-Length` is answered 413 without
   * reading, a stream is cancelled once it crosses the limit. Default 1 MiB; the lower of this and
   * the registry's `maxBodyBytes` applies.
   */
  maxBodyBytes?: number;
  /** Answers CORS preflights and labels answers for allowed origins, as `HttpServer` does. Default: no CORS. */
  cors?: CorsOptions;
  /**
   * Time a call has to answer, from the moment the request arrives (its credential checked, its
   * body read, the method run); then a 503 problem document, and `call.signal` aborts. Default
   * {@link DEFAULT_FETCH_HANDLER_TIMEOUT_MS}; 0 disables (the platform's own limits remain).
   */
  handlerTimeoutMs?: number;
  /**
   * Calls whose handler has not settled, as `HttpServer`'s option: a call given up on at
   * `handlerTimeoutMs` counts until its handler really settles, since it still holds its
   * arguments. A request beyond the cap is answered 503 with `Retry-After: 1`, its body not read.
   * Default {@link DEFAULT_MAX_CALLS_IN_FLIGHT}; `Infinity` for no limit.
   */
  maxCallsInFlight?: number;
  /**
   * Bytes of request bodies the handler holds at once, as `HttpServer`'s option: bodies being read
   * (a declared `Content-Length` counted before the runtime buffers it, a stream chunk by chunk)
   * and bodies read by calls whose handler has not settled, abandoned ones included. A body that
   * would pass the cap is answered 503 with `Retry-After: 1`. Default
   * {@link DEFAULT_MAX_BUFFERED_BODY_BYTES}; `Infinity` for no limit.
   */
  maxBufferedBodyBytes?: number;
  /**
   * The connection's address, which a `Request` does not carry: Deno's `(request, info) =>
   * info.remoteAddr.hostname`, Workers' `(request) => request.headers.get('cf-connecting-ip')`.
   * Default: unknown (`call.ip` is `undefined`).
   */
  ip?: (request: Request, ...platform: unknown[]) => string | null | undefined;
  /** Which proxies may tell the client's address in `X-Forwarded-For`, as `HttpServer`'s option. Default `false`. */
  trustProxy?: TrustProxy;
  /**
   * Compresses answers of at least `threshold` bytes (default 1 KiB) for clients whose
   * `Accept-Encoding` allows it, with `CompressionStream`: gzip, and br or zstd where the
   * runtime's `CompressionStream` takes them (detected on first use); never HEAD, 204, 304.
   * `false` turns it off. Request bodies with `Content-Encoding` gzip or deflate (br where
   * `DecompressionStream` takes it) are inflated either way, `maxBodyBytes` applying to the
   * inflated size. Default on.
   */
  compression?: false | CompressionOptions;
}

/** The options with their defaults, checked. */
export interface ResolvedFetchOptions {
  readonly maxBodyBytes: number;
  readonly cors: CorsOptions | undefined;
  readonly handlerTimeoutMs: number;
  readonly maxCallsInFlight: number;
  readonly maxBufferedBodyBytes: number;
  readonly ip: ((request: Request, ...platform: unknown[]) => string | null | undefined) | undefined;
  readonly trustProxy: TrustProxy;
  /** `undefined` when answers are not compressed; the runtime's codings are detected on first use. */
  readonly compression: CompressionSettings | undefined;
}

/** Fills in the defaults and checks the values. */
export function resolveFetchOptions(o: FetchHandlerOptions): ResolvedFetchOptions {
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBodyBytes >= 0)) throw new RangeError(`toFetchHandler: maxBodyBytes must be a number ≥ 0, got ${maxBodyBytes}`);
  const handlerTimeoutMs = o.handlerTimeoutMs ?? DEFAULT_FETCH_HANDLER_TIMEOUT_MS;
  if (!(Number.isFinite(handlerTimeoutMs) && handlerTimeoutMs >= 0)) {
    throw new RangeError(`toFetchHandler: handlerTimeoutMs must be a finite number ≥ 0, got ${handlerTimeoutMs}`);
  }
  if (o.ip !== undefined && typeof o.ip !== 'function') throw new TypeError('toFetchHandler: ip must be a function (request, ...platform) => address');
  return {
    maxBodyBytes, cors: o.cors, handlerTimeoutMs, ip: o.ip, trustProxy: checkTrustProxy('toFetchHandler', o.trustProxy),
    maxCallsInFlight: checkCount('toFetchHandler', 'maxCallsInFlight', o.maxCallsInFlight ?? DEFAULT_MAX_CALLS_IN_FLIGHT),
    maxBufferedBodyBytes: checkBytes('toFetchHandler', 'maxBufferedBodyBytes', o.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES),
    compression: resolveCompression('toFetchHandler', o.compression),
  };
}
