// The options both adapters (HttpServer, toFetchHandler) take, declared once with their defaults and
// checks. Each adapter's options extend these with its own; what depends on the platform (the
// codings a runtime can compress with) stays in the adapter.
import { DEFAULT_MAX_BODY_BYTES } from '../options.ts';
import type { CorsOptions } from './cors.ts';
import { checkTrustProxy, type TrustProxy } from '../client-address.ts';
import { resolveCompression, type CompressionOptions, type CompressionSettings } from './content-coding.ts';

/** 30 s for a handler (route handler or service method) to answer; then 503, and `call.signal` aborts. */
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;

/**
 * 10,000 calls whose handler has not settled: as many as `HttpServer`'s default `maxConnections`,
 * each with one call. A call abandoned at the handler timeout counts until its handler settles.
 */
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 10_000;

/**
 * 128 MiB of request bodies held at once (being received, or received by a call whose handler has
 * not settled): 128 bodies at the default 1 MiB `maxBodyBytes`. The decoded arguments are often
 * several times their body's size; with this cap they stay well within a default Node heap.
 */
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 128 * 1024 * 1024;

/** Options of both `HttpServer` and `toFetchHandler`; every member is optional. */
export interface TransportOptions {
  /**
   * Largest request body, in bytes: a larger declared `Content-Length` is answered 413 without
   * reading the body, a body crossing the limit as it arrives is dropped (a stream cancelled) and
   * answered 413. An inflated body (`Content-Encoding`) counts its inflated size. Default 1 MiB
   * (`DEFAULT_MAX_BODY_BYTES`); the lower of this and a mounted registry's `maxBodyBytes` applies.
   * `HttpServer` takes a finite number, `toFetchHandler` also `Infinity`.
   */
  maxBodyBytes?: number;
  /**
   * Time a call has to answer, from the moment its request is read (its credential checked, its
   * body read, the handler run); then the client gets a 503 problem document, `call.signal`
   * aborts, and the call is abandoned (whatever it answers later is dropped). `HttpServer` reports
   * the timeout to `onError`, and checks with one timer every `handlerTimeoutMs / 10`, clamped to
   * 10 ms–1 s (so at least once a second): a call may run up to that much past its deadline.
   * Default {@link DEFAULT_HANDLER_TIMEOUT_MS}; 0 disables (the platform's own limits remain).
   */
  handlerTimeoutMs?: number;
  /**
   * Calls (route handlers and endpoints) whose handler has not settled, body reading included. A
   * call abandoned at `handlerTimeoutMs` or shutdown counts until its handler really settles
   * (its promise resolves or rejects), since it still holds its arguments. A request to a route
   * beyond the cap is answered 503 with `Retry-After: 1`, its body not read and its handler not
   * run. Default {@link DEFAULT_MAX_CALLS_IN_FLIGHT}; `Infinity` for no limit.
   */
  maxCallsInFlight?: number;
  /**
   * Bytes of request bodies held at once: bodies being received (counted as they arrive) and
   * bodies received by calls whose handler has not settled, abandoned ones included; an inflated
   * body counts its inflated bytes too. A request whose declared `Content-Length` would pass the
   * cap is answered 503 with `Retry-After: 1` before its body is read (on `HttpServer`, before
   * `100 Continue`); a body crossing it while it arrives is dropped and answered the same. Default
   * {@link DEFAULT_MAX_BUFFERED_BODY_BYTES}; `Infinity` for no limit.
   */
  maxBufferedBodyBytes?: number;
  /** Answers CORS preflights and labels answers for allowed origins. Default: no CORS. */
  cors?: CorsOptions;
  /**
   * Compresses answers of at least `threshold` bytes (default 1 KiB,
   * `DEFAULT_COMPRESSION_THRESHOLD`) for clients whose `Accept-Encoding` allows it, in the order of
   * `encodings`, the highest q-value winning; never HEAD, 204, 304 or an answer with its own
   * `Content-Encoding`. The codings are those the platform has: `HttpServer` br, zstd (where
   * node:zlib has it: Node 22.15+) and gzip; `toFetchHandler` gzip, and br or zstd where the
   * runtime's `CompressionStream` takes them (detected on first use). `false` turns it off.
   * Request bodies with `Content-Encoding` are inflated either way (`HttpServer`: gzip, deflate,
   * br, zstd where available; `toFetchHandler`: gzip, deflate, br where `DecompressionStream` takes
   * it), `maxBodyBytes` applying to the inflated size. Default on.
   */
  compression?: false | CompressionOptions;
  /**
   * Which proxies may tell the client's address in `X-Forwarded-For` (`call.ip`, `req.ip`):
   * `false` none, the connection's peer is the client (the default); `true` every hop; a number n
   * the n nearest hops; or a function saying whether an address is a trusted proxy.
   */
  trustProxy?: TrustProxy;
}

/** {@link TransportOptions} with their defaults, checked. */
export interface ResolvedTransportOptions {
  readonly maxBodyBytes: number;
  readonly handlerTimeoutMs: number;
  readonly maxCallsInFlight: number;
  readonly maxBufferedBodyBytes: number;
  readonly cors: CorsOptions | undefined;
  /** `undefined` when answers are not compressed; the adapter keeps the codings its platform has. */
  readonly compression: CompressionSettings | undefined;
  readonly trustProxy: TrustProxy;
}

/** Fills in the defaults of the shared options and checks them; `owner` names the adapter in errors. */
export function resolveTransportOptions(owner: string, o: TransportOptions): ResolvedTransportOptions {
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBodyBytes >= 0)) throw new RangeError(`${owner}: maxBodyBytes must be a number ≥ 0, got ${maxBodyBytes}`);
  return {
    maxBodyBytes,
    handlerTimeoutMs: checkDuration(owner, 'handlerTimeoutMs', o.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS),
    maxCallsInFlight: checkCount(owner, 'maxCallsInFlight', o.maxCallsInFlight ?? DEFAULT_MAX_CALLS_IN_FLIGHT),
    maxBufferedBodyBytes: checkBytes(
      owner,
      'maxBufferedBodyBytes',
      o.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES,
    ),
    cors: o.cors,
    compression: resolveCompression(owner, o.compression),
    trustProxy: checkTrustProxy(owner, o.trustProxy),
  };
}

/** Checks a duration or size option: a finite number ≥ 0. */
export function checkDuration(owner: string, name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0))
    throw new RangeError(`${owner}: ${name} must be a finite number ≥ 0, got ${value}`);
  return value;
}

/** Checks a count option: an integer ≥ 1, or `Infinity`. */
export function checkCount(owner: string, name: string, value: number): number {
  if (!((Number.isInteger(value) && value >= 1) || value === Infinity)) {
    throw new RangeError(`${owner}: ${name} must be an integer ≥ 1 or Infinity, got ${value}`);
  }
  return value;
}

/** Checks a byte option: a number ≥ 0, or `Infinity`. */
export function checkBytes(owner: string, name: string, value: number): number {
  if (!(value >= 0)) throw new RangeError(`${owner}: ${name} must be a number ≥ 0 or Infinity, got ${value}`);
  return value;
}
