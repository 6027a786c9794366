import { DEFAULT_MAX_BODY_BYTES } from '../protocol/options.ts';
import { logFailure } from '../protocol/call/log-failure.ts';
import type { HttpRequest } from './request.ts';
import {
  checkBytes,
  checkCount,
  checkDuration,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  resolveTransportOptions,
  type ResolvedTransportOptions,
  type TransportOptions,
} from '../protocol/pipeline/transport-options.ts';

export { DEFAULT_HANDLER_TIMEOUT_MS, DEFAULT_MAX_BUFFERED_BODY_BYTES, DEFAULT_MAX_CALLS_IN_FLIGHT };

/** 10 s to receive a request's headers: a client trickling them (slowloris) is cut off with 408. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/**
 * 30 s to receive a whole request, body included; then 408. Unless `requestTimeoutMs` is given, a
 * longer `handlerTimeoutMs` (or 0, none) is taken in its place: see {@link requestTimeoutOf}.
 */
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
/** Options of {@link HttpServer}: those it shares with `toFetchHandler`, and its own; every member is optional. */
export interface HttpServerOptions extends TransportOptions {
  /**
   * Time to receive a whole request, body included; then 408. Default: the longer of
   * {@link DEFAULT_REQUEST_TIMEOUT_MS} and `handlerTimeoutMs` (0, when `handlerTimeoutMs` is 0), so
   * that a handler given longer, for a long upload, gets its body; 0 disables.
   */
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
   * Connections open at once (Node's `server.maxConnections`); further ones are closed as soon as
   * they are accepted, without an answer. Default {@link DEFAULT_MAX_CONNECTIONS}; `Infinity` for no limit.
   */
  maxConnections?: number;
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

/** The options with their defaults, checked. */
export interface ResolvedOptions extends ResolvedTransportOptions {
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly drainTimeoutMs: number;
  readonly writeTimeoutMs: number;
  readonly maxHeadersCount: number;
  readonly maxPipelinedRequests: number;
  readonly maxQueuedAnswerBytes: number;
  readonly maxConnections: number;
  readonly exposeErrors: boolean;
  readonly onError: (error: unknown, request: HttpRequest, status: number) => void;
}

function nonNegative(name: string, value: number): number {
  return checkDuration('HttpServer', name, value);
}

function atLeastOne(name: string, value: number): number {
  return checkCount('HttpServer', name, value);
}

/** Largest finite `maxHeadersCount`: Node doubles it in a 32-bit integer (`max << 1`), which wraps past 2**30. */
const MAX_HEADERS_COUNT_LIMIT = 2 ** 20;

function headerCount(value: number): number {
  if (!((Number.isInteger(value) && value >= 1 && value <= MAX_HEADERS_COUNT_LIMIT) || value === Infinity)) {
    throw new RangeError(
      `HttpServer: maxHeadersCount must be an integer from 1 to ${MAX_HEADERS_COUNT_LIMIT} or Infinity, got ${value}`,
    );
  }
  return value;
}

/**
 * The request timeout when none is given: a handler's time limit counts from the request's headers,
 * its body read included, so a handler allowed longer than {@link DEFAULT_REQUEST_TIMEOUT_MS} (or
 * without limit) gets as long to receive its body, and is not cut by a 408 first.
 */
function requestTimeoutOf(handlerTimeoutMs: number): number {
  return handlerTimeoutMs === 0 ? 0 : Math.max(DEFAULT_REQUEST_TIMEOUT_MS, handlerTimeoutMs);
}

/** Fills in the defaults and checks the values. */
export function resolveOptions(o: HttpServerOptions): ResolvedOptions {
  const requestTimeoutMs = nonNegative(
    'requestTimeoutMs',
    o.requestTimeoutMs ??
      requestTimeoutOf(nonNegative('handlerTimeoutMs', o.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS)),
  );
  const headersTimeoutMs = nonNegative(
    'headersTimeoutMs',
    o.headersTimeoutMs ??
      (requestTimeoutMs === 0 ? DEFAULT_HEADERS_TIMEOUT_MS : Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs)),
  );
  if (requestTimeoutMs !== 0 && headersTimeoutMs > requestTimeoutMs) {
    throw new RangeError(
      `HttpServer: headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs})`,
    );
  }
  // HttpServer alone wants a finite body limit (toFetchHandler and registries take Infinity); checked
  // before the shared options so that its message is the one given.
  nonNegative('maxBodyBytes', o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const shared = resolveTransportOptions('HttpServer', o);
  return {
    ...shared,
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: nonNegative('keepAliveTimeoutMs', o.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS),
    drainTimeoutMs: nonNegative('drainTimeoutMs', o.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS),
    writeTimeoutMs: nonNegative('writeTimeoutMs', o.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS),
    maxHeadersCount: headerCount(o.maxHeadersCount ?? DEFAULT_MAX_HEADERS_COUNT),
    maxPipelinedRequests: atLeastOne('maxPipelinedRequests', o.maxPipelinedRequests ?? DEFAULT_MAX_PIPELINED_REQUESTS),
    maxQueuedAnswerBytes: checkBytes(
      'HttpServer',
      'maxQueuedAnswerBytes',
      o.maxQueuedAnswerBytes ?? DEFAULT_MAX_QUEUED_ANSWER_BYTES,
    ),
    maxConnections: atLeastOne('maxConnections', o.maxConnections ?? DEFAULT_MAX_CONNECTIONS),
    exposeErrors: o.exposeErrors ?? false,
    onError:
      o.onError ??
      ((error, request, status) => {
        if (status >= 500)
          logFailure(
            `lacquer/http: ${request.method} ${request.path} failed (${status}, request ${request.requestId})`,
            error,
            status,
          );
      }),
  };
}
