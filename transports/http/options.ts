import { DEFAULT_MAX_BODY_BYTES } from '../rest/options.ts';
import type { CorsOptions } from '../rest/cors.ts';
import { checkTrustProxy, type TrustProxy } from '../rest/client-address.ts';
import { logFailure } from '../rest/log-failure.ts';
import type { HttpRequest } from './request.ts';
import { CompressionPolicy, resolveCompression, type CompressionOptions } from '../rest/content-coding.ts';
import { NODE_RESPONSE_CODINGS } from './coding.ts';
import { checkBytes, checkCount, DEFAULT_MAX_BUFFERED_BODY_BYTES, DEFAULT_MAX_CALLS_IN_FLIGHT } from '../rest/load.ts';

export { DEFAULT_MAX_BUFFERED_BODY_BYTES, DEFAULT_MAX_CALLS_IN_FLIGHT };

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
 * 32 requests read from one connection whose answers have not been written yet (pipelined); a
 * connection with more is closed without answering them. See `maxPipelinedRequests`.
 */
export const DEFAULT_MAX_PIPELINED_REQUESTS = 32;
/**
 * 4 MiB of answers waiting on one connection for the client to read them: a request read while
 * more wait is held until they go out. Four answers at the default 1 MiB body size; see
 * `maxQueuedAnswerBytes`.
 */
export const DEFAULT_MAX_QUEUED_ANSWER_BYTES = 4 * 1024 * 1024;
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
   * Time a connection may go without progress (the client taking no byte of its answers) while an
   * answer waits for the client to read it; then the connection is closed, and the answers kept for
   * it released. A client reading slowly but steadily is not affected. One timer per server checks
   * every `writeTimeoutMs / 10`, clamped to 10 ms–1 s, so a connection closes at most that much
   * late. Default {@link DEFAULT_WRITE_TIMEOUT_MS}; 0 disables.
   */
  writeTimeoutMs?: number;
  /**
   * Requests one connection may have read whose answers are not written yet (HTTP/1.1 pipelining):
   * a request counts from the moment it is read until its answer is handed to the kernel, so
   * answers waiting behind an earlier one, or for a client that does not read, count. A request
   * read while more than this many count closes the connection at once, those requests unanswered:
   * a client pipelining more than 32 requests in one write before reading is disconnected by the
   * default. Between reads, Node stops reading a connection whose answers wait (back-pressure).
   * Default {@link DEFAULT_MAX_PIPELINED_REQUESTS}; `Infinity` for no limit.
   */
  maxPipelinedRequests?: number;
  /**
   * Bytes of answers (their bodies) one connection may have waiting to be written. A request read
   * while more wait is held, not run, and runs in turn as the client reads the answers (held ones
   * count against `maxPipelinedRequests`): a pipelining client that reads gets every answer, one
   * that does not pins about this much. An answer made while more than this waited already (a
   * request run before they did: pipelined requests whose handlers answer later) closes the
   * connection. Without it, one write of 500 requests for a 1 MiB answer, never read, would make
   * the server hold 500 MiB. A client that does not pipeline is never affected. Default
   * {@link DEFAULT_MAX_QUEUED_ANSWER_BYTES}; `Infinity` for no limit.
   */
  maxQueuedAnswerBytes?: number;
  /**
   * Calls (route handlers and endpoints) whose handler has not settled, body reading included. A
   * call abandoned at `handlerTimeoutMs` or shutdown counts until its handler really settles
   * (its promise resolves or rejects), since it still holds its arguments. A request to a route
   * beyond the cap is answered 503 with `Retry-After: 1`, its body not read and its handler not
   * run. Default {@link DEFAULT_MAX_CALLS_IN_FLIGHT}; `Infinity` for no limit.
   */
  maxCallsInFlight?: number;
  /**
   * Bytes of request bodies the server holds at once: bodies being received (counted as they
   * arrive) and bodies received by calls whose handler has not settled, abandoned ones included;
   * an inflated body counts its inflated bytes too. A request whose declared `Content-Length` would
   * pass the cap is answered 503 with `Retry-After: 1` before its body is read (and before
   * `100 Continue`); a body crossing it while it arrives is dropped and answered the same.
   * Default {@link DEFAULT_MAX_BUFFERED_BODY_BYTES}; `Infinity` for no limit.
   */
  maxBufferedBodyBytes?: number;
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
  readonly maxQueuedAnswerBytes: number;
  readonly maxCallsInFlight: number;
  readonly maxBufferedBodyBytes: number;
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
  return checkCount('HttpServer', name, value);
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
    maxQueuedAnswerBytes: checkBytes('HttpServer', 'maxQueuedAnswerBytes', o.maxQueuedAnswerBytes ?? DEFAULT_MAX_QUEUED_ANSWER_BYTES),
    maxCallsInFlight: atLeastOne('maxCallsInFlight', o.maxCallsInFlight ?? DEFAULT_MAX_CALLS_IN_FLIGHT),
    maxBufferedBodyBytes: checkBytes('HttpServer', 'maxBufferedBodyBytes', o.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES),
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
