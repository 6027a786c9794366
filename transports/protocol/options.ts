import type { Codec } from '../../core/codec.ts';
import type { Call } from '../../core/contract/call.ts';
import type { Opts } from '../../core/options.ts';
import type { Interceptor } from './call/interceptors.ts';
import { logFailure } from './call/log-failure.ts';
export { DEFAULT_MAX_ITEM_BYTES } from './streams/events.ts';
import type { SecurityScheme } from './call/security.ts';
import type { Telemetry } from './call/telemetry.ts';
import type { RateLimitOptions } from './call/rate-limit.ts';
import type { DEFAULT_RATE_LIMIT_MAX_KEYS, MemoryRateLimitStore } from './call/rate-limit-store.ts';

/** 1 MiB: the largest request body a registry reads unless `maxBodyBytes` says otherwise. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** 15 s: how long a Server-Sent Events answer waits for an item before it writes a comment line. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** 1 GiB: the most bytes a request stream's body may take in all, unless `maxStreamBytes` says otherwise. */
export const DEFAULT_MAX_STREAM_BYTES = 1024 * 1024 * 1024;

/** 5 minutes: how long a stream may go without an item before it ends with a 504 problem frame. */
export const DEFAULT_STREAM_IDLE_MS = 5 * 60_000;

/** What `onError` is told about a failure. */
export interface ErrorContext {
  /** The service's class name. */
  readonly service: string;
  /** The service method's name. */
  readonly method: string;
  /** The status the client is answered with. */
  readonly status: number;
  /** The request's id, as in its answer's `x-request-id`. */
  readonly requestId: string;
}

/** What `onResponse` is told about each answer of an endpoint. */
export interface ResponseReport {
  /** The call; its `path` is below the mount prefix (`/createBook`). */
  readonly call: Call;
  /** The prefix the registry is mounted under (`/api`), `''` at the root: two mounts of one registry, or two registries, told apart. */
  readonly prefix: string;
  /** The full path of the request: the prefix and `call.path` (`/api/createBook`). */
  readonly path: string;
  /** The status written. */
  readonly status: number;
  /** From the moment the endpoint got the request to the moment its answer was written. */
  readonly durationMs: number;
  /** What failed, for an answer that is not a success and has a cause (a thrown error, a ReadError). */
  readonly error?: unknown;
}

/** Options of a {@link Registry}: the reading and writing options of `Opts`, plus these. */
export interface RegistryOptions extends Opts {
  /** The codecs endpoints read and write. Default `[json, msgpack, cbor]`; the first is the fallback. */
  codecs?: readonly Codec[];
  /** Sends the message of an unexpected error (answered 500) as `detail`. Default `false`. */
  exposeErrors?: boolean;
  /**
   * Told of every error a service method throws and of every result that cannot be written,
   * with the status answered. Default: 5xx errors are logged with `console.error`, with their
   * stack when they are faults (a thrown error answered 500), on one line otherwise (a client gone).
   */
  onError?: (error: unknown, context: ErrorContext) => void;
  /** Largest request body, in bytes; larger ones are answered 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * The security schemes contracts may name, by name: `{ bearer: bearerAuth({ verify, key }) }`.
   * `on()` refuses a service naming a scheme missing here.
   */
  security?: Readonly<Record<string, SecurityScheme>>;
  /** Wrap every call of every endpoint, the first outermost, outside the services' own. */
  interceptors?: readonly Interceptor[];
  /**
   * Told of every answer of an endpoint once it is written: successes, problems the registry
   * answers (400, 401, 403, 406, 413, 415) and failures. For logs and metrics; what it throws is
   * ignored.
   */
  onResponse?: (report: ResponseReport) => void;
  /**
   * A stream answered as Server-Sent Events writes a comment line after this many milliseconds
   * without an item, so that proxies and the browser keep the connection. `0`: never. Default
   * {@link DEFAULT_HEARTBEAT_MS}.
   */
  heartbeatMs?: number;
  /**
   * The most bytes one item of a request stream may take on the wire; an item past it fails with
   * `limit_exceeded` before more of it is held. Default {@link DEFAULT_MAX_ITEM_BYTES} (1 MiB).
   */
  maxItemBytes?: number;
  /**
   * The most bytes a request stream's body may take in all: a declared length over it is a 413,
   * a body growing past it fails with `limit_exceeded`. Default {@link DEFAULT_MAX_STREAM_BYTES}
   * (1 GiB). `maxBodyBytes` bounds bodies read whole, not streams.
   */
  maxStreamBytes?: number;
  /**
   * A stream without an item for this many milliseconds ends with a 504 problem frame, its call's
   * signal aborted and its iterator's `return()` called; heartbeats are no items. `0`: no limit.
   * Default {@link DEFAULT_STREAM_IDLE_MS}.
   */
  streamIdleMs?: number;
  /**
   * A stream ends with a 504 problem frame this many milliseconds after its answer began, its
   * call's signal aborted and its iterator's `return()` called. Default `0`: no limit.
   */
  streamMaxMs?: number;
  /**
   * JSON-RPC: the most calls one batch may hold; a larger batch is answered with one
   * `-32600 Invalid Request` error. Default {@link DEFAULT_MAX_BATCH}.
   */
  maxBatch?: number;
  /** MCP: what the server says of itself, and the origins browsers may call it from. */
  mcp?: McpOptions;
  /**
   * Told when `on()` leaves a method out (a stream method on a JSON-RPC or MCP registry, a method
   * that cannot be an MCP tool). Default: `console.warn`.
   */
  onWarning?: (message: string) => void;
  /**
   * Traces and metrics of every request that reaches an endpoint, and of every call of a JSON-RPC
   * or MCP message: `openTelemetry()` from `lacquerjs/otel`. Default none: nothing is measured.
   */
  telemetry?: Telemetry;
  /**
   * At most `limit` calls per key in each window of `windowMs` (fixed windows), across every
   * endpoint of the registry; a method's own `rateLimit` counts apart, `false` exempts it. Counted
   * after the credential is checked and before the body is read; over the limit, a 429 problem
   * with `Retry-After`. The key is `key(call)`, default `call.ip` (calls without one share one
   * key); the store, default a {@link MemoryRateLimitStore} of {@link DEFAULT_RATE_LIMIT_MAX_KEYS}
   * keys in this process. Default: no limit.
   */
  rateLimit?: RateLimitOptions;
}

/** Options of an MCP registry (`new Registry({ mcp: { ... } }, MCP)`). */
export interface McpOptions {
  /** `serverInfo.name` in the answer to `initialize`. Default `'lacquer'`. */
  name?: string;
  /** `serverInfo.version`. Default `'1.0.0'`. */
  version?: string;
  /** `instructions` in the answer to `initialize`: how an agent should use the tools. */
  instructions?: string;
  /**
   * The `Origin`s a browser may call the endpoint from (`https://app.example`), against DNS
   * rebinding: a request with another `Origin` is answered 403. Requests without `Origin` (not
   * from a browser) are served. Default: none.
   */
  origins?: readonly string[];
}

/** The default of `maxBatch`. */
export const DEFAULT_MAX_BATCH = 100;

/** Logs failures answered 5xx (see {@link logFailure}); the default `onError`. */
export function defaultOnError(error: unknown, context: ErrorContext): void {
  if (context.status >= 500)
    logFailure(
      `lacquer: ${context.service}.${context.method} failed (${context.status}, request ${context.requestId})`,
      error,
      context.status,
    );
}
