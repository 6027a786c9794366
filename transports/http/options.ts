import { DEFAULT_MAX_BODY_BYTES } from '../rest/options.ts';
import type { CorsOptions } from '../rest/cors.ts';
import { checkTrustProxy, type TrustProxy } from '../rest/client-address.ts';
import { logFailure } from '../rest/log-failure.ts';
import type { HttpRequest } from './request.ts';
import { CompressionPolicy, resolveCompression, type CompressionOptions } from '../rest/content-coding.ts';
import { NODE_RESPONSE_CODINGS } from './coding.ts';

/** 10 s to receive a request's headers: a client trickling them (slowloris) is cut off with 408. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** 30 s to receive a whole request, body included; then 408. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** 5 s an idle keep-alive connection stays open. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** 10 s for in-flight requests to finish on shutdown; then calls still running are answered 503 and the connections closed. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;
/**
 * 30 s a connection may go without any progress while an answer waits to be written: a client that
 * stopped reading is disconnected, and the answers kept for it are released.
 */
export const DEFAULT_WRITE_TIMEOUT_MS = 30_000;
/**
 * 32 requests read from one connection whose answers have not been handed to Node yet (pipelined);
 * a connection with more is closed without answering them. See `maxPipelinedRequests`.
 */
export const DEFAULT_MAX_PIPELINED_REQUESTS = 32;
/** 10,000 open connections; further ones are closed as soon as they are accepted. */
export const DEFAULT_MAX_CONNECTIONS = 10_000;
/** 2,000 header lines per request (Node's own default); a request with more is answered 431. */
export const DEFAULT_MAX_HEADERS_COUNT = 2000;
/** 30 s for a handler (route handler or service method) to answer; then 503. */
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;

/** Options of {@link HttpServer}; every member is optional. */
export interface HttpServerOptions {
  /** Largest request body, in bytes; larger ones get 413 and are not read. Default 1 MiB. Mounted registries also apply their own. */
  maxBodyBytes?: number;
  /** Time to receive a whole request. Default {@link DEFAULT_REQUEST_TIMEOUT_MS}; 0 disables. */
  requestTimeoutMs?: number;
  /** Time to receive the headers. Default {@link DEFAULT_HEADERS_TIMEOUT_MS}; at most `requestTimeoutMs`. */
  headersTimeoutMs?: number;
  /** Idle time before a keep-alive connection is closed. Default {@link DEFAULT_KEEP_ALIVE_TIMEOUT_MS}. */
  keepAliveTimeoutMs?: number;
  /**
   * Time in-flight requests get to finish on shutdown. Calls still running then are first answered
   * 503 (a problem document, reported to `onError`) and abandoned: their results are dropped (a
   * promise cannot be cancelled); then the remaining connections are closed. Default
   * {@link DEFAULT_DRAIN_TIMEOUT_MS}.
   */
  drainTimeoutMs?: number;
  /**
   * Header lines a request may have. A request with more is answered 431 and its connection
   * closed: Node hands JavaScript only the first lines (framing is unaffected: Node's parser reads
   * `Content-Length` and `Transfer-Encoding` from every line), so the JavaScript view of the
   * headers would be incomplete. An integer from 1 to 2**20, default
   * {@link DEFAULT_MAX_HEADERS_COUNT}; `Infinity` leaves only Node's 16 KiB header size limit.
   */
  maxHeadersCount?: number;
  /**
   * Time a route handler or service method has to answer, from the moment the request is read;
   * then the client gets a 503 problem document, the timeout is reported to `onError`, and the
   * call is abandoned (whatever it answers later is dropped). One timer per server checks every
   * `handlerTimeoutMs / 10`, clamped to 10 ms–1 s (so at least once a second): a call may run up
   * to that much past its deadline. Default {@link DEFAULT_HANDLER_TIMEOUT_MS}; 0 disables.
   */
  handlerTimeoutMs?: number;
  /**
   * Time a connection may go without progress (no byte read or written) while an answer waits for
   * the client to read it; then the connection is closed. A client reading slowly but steadily is
   * not affected. Default {@link DEFAULT_WRITE_TIMEOUT_MS}; 0 disables.
   */
  writeTimeoutMs?: number;
  /**
   * Requests one connection may have read whose answers have not been handed to Node yet (HTTP/1.1
   * pipelining). A request counts until its answer is passed to Node, not until the client reads
   * it, so the cap trips when more than this many requests are parsed from what one read brought
   * (one write of the client, up to 64 KiB) before their answers are ready: the connection is then
   * closed, and the requests not yet answered get no answer. A client pipelining more than 32
   * requests in one write is disconnected by the default. A client that does not read and trickles
   * requests one at a time is not stopped by this cap but by Node's output back-pressure and
   * `writeTimeoutMs`. Default {@link DEFAULT_MAX_PIPELINED_REQUESTS}; `Infinity` for no limit.
   */
  maxPipelinedRequests?: number;
  /**
   * Connections open at once (Node's `server.maxConnections`); further ones are closed as soon as
   * they are accepted, without an answer. Default {@link DEFAULT_MAX_CONNECTIONS}; `Infinity` for no limit.
   */
  maxConnections?: number;
  /** Answers CORS preflights and labels answers for allowed origins. Default: no CORS. */
  cors?: CorsOptions;
  /**
   * Compresses answers of at least `threshold` bytes (default 1 KiB,
   * `DEFAULT_COMPRESSION_THRESHOLD`) for clients whose `Accept-Encoding` allows it: br, zstd
   * (where node:zlib has it: Node 22.15+) or gzip, in the order of `encodings`, the highest q-value
   * winning; never HEAD, 204, 304 or an answer with its own `Content-Encoding`. `false` turns it
   * off. Request bodies with `Content-Encoding` (gzip, deflate, br, zstd where available) are
   * inflated either way, `maxBodyBytes` applying to the inflated size. Default on.
   */
  compression?: false | CompressionOptions;
  /**
   * Which proxies may tell the client's address in `X-Forwarded-For` (`call.ip`, `req.ip`):
   * `false` none, the connection's peer is the client (the default); `true` every hop; a number n
   * the n nearest hops; or a function saying whether an address is a trusted proxy.
   */
  trustProxy?: TrustProxy;
  /** Sends the message of an unexpected route-handler error (500) as `detail`. Default `false`. */
  exposeErrors?: boolean;
  /**
   * Told of every error a route handler throws, and of every call answered 503 for it (handler
   * timeout, shutdown): `error` is then an `Error` saying which. Default: 5xx errors are logged
   * with `console.error`, with their stack when they are faults (a thrown error answered 500), on
   * one line otherwise (a timeout, a shutdown).
   */
  onError?: (error: unknown, request: HttpRequest, status: number) => void;
}

export interface ResolvedOptions {
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly drainTimeoutMs: number;
  readonly writeTimeoutMs: number;
  readonly handlerTimeoutMs: number;
  readonly maxHeadersCount: number;
  readonly maxPipelinedRequests: number;
  readonly maxConnections: number;
  readonly cors: CorsOptions | undefined;
  /** `undefined` when answers are not compressed. */
  readonly compression: CompressionPolicy | undefined;
  readonly trustProxy: TrustProxy;
  readonly exposeErrors: boolean;
  readonly onError: (error: unknown, request: HttpRequest, status: number) => void;
}

function nonNegative(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`HttpServer: ${name} must be a finite number ≥ 0, got ${value}`);
  return value;
}

function atLeastOne(name: string, value: number): number {
  if (!((Number.isInteger(value) && value >= 1) || value === Infinity)) {
    throw new RangeError(`HttpServer: ${name} must be an integer ≥ 1 or Infinity, got ${value}`);
  }
  return value;
}

/** Largest finite `maxHeadersCount`: Node doubles it in a 32-bit integer (`max << 1`), which wraps past 2**30. */
const MAX_HEADERS_COUNT_LIMIT = 2 ** 20;

function headerCount(value: number): number {
  if (!((Number.isInteger(value) && value >= 1 && value <= MAX_HEADERS_COUNT_LIMIT) || value === Infinity)) {
    throw new RangeError(`HttpServer: maxHeadersCount must be an integer from 1 to ${MAX_HEADERS_COUNT_LIMIT} or Infinity, got ${value}`);
  }
  return value;
}

function compressionPolicy(value: false | CompressionOptions | undefined): CompressionPolicy | undefined {
  const settings = resolveCompression('HttpServer', value);
  if (settings === undefined) return undefined;
  return new CompressionPolicy(settings.threshold, settings.encodings.filter((c) => NODE_RESPONSE_CODINGS.includes(c)));
}

/** Fills in the defaults and checks the values. */
export function resolveOptions(o: HttpServerOptions): ResolvedOptions {
  const requestTimeoutMs = nonNegative('requestTimeoutMs', o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const headersTimeoutMs = nonNegative('headersTimeoutMs', o.headersTimeoutMs
    ?? (requestTimeoutMs === 0 ? DEFAULT_HEADERS_TIMEOUT_MS : Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs)));
  if (requestTimeoutMs !== 0 && headersTimeoutMs > requestTimeoutMs) {
    throw new RangeError(`HttpServer: headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs})`);
  }
  return {
    maxBodyBytes: nonNegative('maxBodyBytes', o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: nonNegative('keepAliveTimeoutMs', o.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
    drainTimeoutMs: nonNegative('drainTimeoutMs', o.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS),
    writeTimeoutMs: nonNegative('writeTimeoutMs', o.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS),
    handlerTimeoutMs: nonNegative('handlerTimeoutMs', o.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS),
    maxHeadersCount: headerCount(o.maxHeadersCount ?? DEFAULT_MAX_HEADERS_COUNT),
    maxPipelinedRequests: atLeastOne('maxPipelinedRequests', o.maxPipelinedRequests ?? DEFAULT_MAX_PIPELINED_REQUESTS),
    maxConnections: atLeastOne('maxConnections', o.maxConnections ?? DEFAULT_MAX_CONNECTIONS),
    cors: o.cors,
    compression: compressionPolicy(o.compression),
    trustProxy: checkTrustProxy('HttpServer', o.trustProxy),
    exposeErrors: o.exposeErrors ?? false,
    onError: o.onError ?? ((error, request, status) => {
      if (status >= 500) logFailure(`lacquer/http: ${request.method} ${request.path} failed (${status}, request ${request.requestId})`, error, status);
    }),
  };
}
