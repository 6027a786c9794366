import { DEFAULT_MAX_BODY_BYTES } from '../rest/options.ts';
import type { CorsOptions } from '../rest/cors.ts';
import type { HttpRequest } from './request.ts';

/** 10 s to receive a request's headers: a client trickling them (slowloris) is cut off with 408. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** 30 s to receive a whole request, body included; then 408. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** 5 s an idle keep-alive connection stays open. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** 10 s for in-flight requests to finish on shutdown; then their connections are closed. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

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
  /** Time in-flight requests get to finish on shutdown. Default {@link DEFAULT_DRAIN_TIMEOUT_MS}. */
  drainTimeoutMs?: number;
  /** Answers CORS preflights and labels answers for allowed origins. Default: no CORS. */
  cors?: CorsOptions;
  /** Sends the message of an unexpected route-handler error (500) as `detail`. Default `false`. */
  exposeErrors?: boolean;
  /** Told of every error a route handler throws. Default: 5xx errors are logged with `console.error`. */
  onError?: (error: unknown, request: HttpRequest, status: number) => void;
}

export interface ResolvedOptions {
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly drainTimeoutMs: number;
  readonly cors: CorsOptions | undefined;
  readonly exposeErrors: boolean;
  readonly onError: (error: unknown, request: HttpRequest, status: number) => void;
}

function nonNegative(name: string, value: number): number {
  if (!(Number.isFinite(value) && value >= 0)) throw new RangeError(`HttpServer: ${name} must be a finite number ≥ 0, got ${value}`);
  return value;
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
    cors: o.cors,
    exposeErrors: o.exposeErrors ?? false,
    onError: o.onError ?? ((error, request, status) => {
      if (status >= 500) console.error(`lacquer/http: ${request.method} ${request.path} failed (${status}):`, error);
    }),
  };
}
