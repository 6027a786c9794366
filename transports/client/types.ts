import type { Codec } from '../../core/codec.ts';
import type { MethodContract, NamedParams, Param, Params, Returns } from '../../core/contract/method.ts';
import type { ObjectType } from '../../core/descriptors/object.ts';
import type { Methods } from '../../core/contract/service.ts';
import type { ReadOptions } from '../../core/options.ts';
import type { Infer, InferInput, Type } from '../../core/descriptors/type.ts';
import type { VoidType } from '../../core/descriptors/void.ts';
import type { Telemetry } from '../protocol/call/telemetry.ts';

/** Sends one request; `globalThis.fetch` is one, and so is the handler `toFetchHandler` returns. */
export type FetchFunction = (request: Request) => Promise<Response>;

/**
 * Wraps the sending of each request (every attempt of a retried call, every redirect followed):
 * gets the `Request` and `next`, the rest of the chain (the next interceptor, then `fetch`), and
 * gives the answer. It may change the request (its headers are its own), look at or replace the
 * answer, answer itself without calling `next`, or call `next` again (a request's body can be
 * read once: send `request.clone()` the first time).
 */
export type ClientInterceptor = (request: Request, next: FetchFunction) => Promise<Response>;

/** Options of `createClient`'s `retry`: how often and after how long an idempotent call is sent again. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 3 (`DEFAULT_RETRY_ATTEMPTS`); 1 sends once. */
  attempts?: number;
  /**
   * The wait before the first retry in milliseconds, doubled for each next one, of which a random
   * part is waited (full jitter). Default 100 (`DEFAULT_RETRY_BASE_DELAY_MS`).
   */
  baseDelayMs?: number;
  /** The longest wait between attempts, `Retry-After` included. Default 5000 (`DEFAULT_RETRY_MAX_DELAY_MS`). */
  maxDelayMs?: number;
}

/** Headers, or a function giving them per call (for a token that changes). */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/**
 * Options of {@link createClient}. The reading options (`maxDepth`, `maxBytes`, ...) apply to the
 * answers, with the codecs' defaults, but for `errorOnUnknownKeys`, which is `false` unless given:
 * an answer with members the client's contract does not know (a server whose contract grew)
 * still reads, without them.
 */
export interface ClientOptions extends ReadOptions {
  /** Where the registry is mounted: `http://127.0.0.1:8080/api`, or `/api` in a page of the same origin. */
  baseUrl: string | URL;
  /** The codec requests are written in and answers are asked for (`Accept` names it first, JSON second). */
  codec: Codec;
  /** Sends the requests. Default `globalThis.fetch`, looked up at each call. */
  fetch?: FetchFunction;
  /** Headers sent with every request. `Accept` and `Content-Type` are the client's own. */
  headers?: HeadersOption;
  /**
   * Follows redirects to another origin, sending the body and headers (API keys included) there.
   * Default `false`: such a redirect rejects the call, naming the other origin, and nothing is sent
   * to it. Redirects within the origin are followed either way (where the runtime shows them: a
   * browser hides redirects it does not follow, so there any redirect rejects unless this is `true`).
   */
  allowCrossOriginRedirects?: boolean;
  /**
   * Sends idempotent calls again after a network error or a 408, 429, 502, 503 or 504 answer:
   * GET, HEAD, PUT and DELETE, and methods declared `idempotent: true`, never those declared
   * `idempotent: false`, nor a body given as an `AsyncIterable` (it cannot be sent twice). Waits
   * as `Retry-After` says, else with exponential backoff and jitter, within the call's signal.
   * Default: no retries.
   */
  retry?: RetryOptions;
  /** Wrap the sending of each request, the first outermost: headers, logging, a token refreshed. */
  interceptors?: readonly ClientInterceptor[];
  /** The `timeoutMs` of every call that does not give its own. Default 0: none. */
  timeoutMs?: number;
  /**
   * Traces of the calls: `openTelemetry()` from `lacquerjs/otel`. Each attempt is a CLIENT span,
   * whose context the request carries (`traceparent`), so the server's span joins its trace.
   * Default none.
   */
  telemetry?: Telemetry;
}

/** The optional last argument of every client method, after its parameters (the first of a method without any). */
export interface CallOptions {
  /**
   * Aborts the call: the request is cancelled and the promise rejects with the signal's reason,
   * with any `fetch` (an in-process handler keeps running, but its answer is no longer awaited),
   * while the answer's body is read too (the body is then cancelled, without waiting on it).
   */
  signal?: AbortSignal;
  /** Headers for this call only, over the client's. */
  headers?: HeadersInit;
  /**
   * The most the call may take, in milliseconds, every attempt and wait and the reading of the
   * answer included (for a stream answer: until it begins); then it rejects with a `TimeoutError`
   * naming the method and the time, and the request is aborted. Default: the client's `timeoutMs`;
   * 0 sets none.
   */
  timeoutMs?: number;
}

/** What a client method resolves to: the decoded result, nothing for `t.void()`. */
// biome-ignore lint/suspicious/noConfusingVoidType: a t.void() method's promise is Promise<void>, as a function returning nothing
export type ClientResult<R extends Returns> = [R] extends [VoidType] ? void : Infer<R>;

/**
 * What a client method takes for its parameters: `InferInput` of each, so that a member with
 * `.default()` may be left out (the writer writes its default). Named parameters are one object
 * of them by name: `api.updateNote({ id: 5n, patch })`.
 */
export type ClientParams<P extends Params> = P extends readonly Param[]
  ? { -readonly [K in keyof P]: P[K] extends Param ? InferInput<P[K]> : never }
  : P extends NamedParams
    ? [keyof P] extends [never]
      ? [args?: Record<string, never>]
      : [args: NamedInput<P>]
    : never;

/** Named arguments as a writer takes them; a stream (the only parameter then) as an `AsyncIterable` or an array. */
type NamedInput<P extends NamedParams> =
  P extends Readonly<Record<string, Type>> ? InferInput<ObjectType<P>> : { -readonly [K in keyof P]: InferInput<P[K]> };

/**
 * What a client method takes: the contract's parameters (as {@link ClientParams}), then optionally
 * {@link CallOptions}. A method without parameters takes its call options first
 * (`api.listTasks({ signal })`); one declared with none by name (`method({}, ...)`) also takes `{}`
 * before them (`api.listTasks({}, { signal })`).
 */
export type ClientArguments<P extends Params> = P extends readonly Param[]
  ? [...ClientParams<P>, options?: CallOptions]
  : [keyof P] extends [never]
    ? [options?: CallOptions] | [args: Record<string, never>, options?: CallOptions]
    : [...ClientParams<P>, options?: CallOptions];

/** One client method: its {@link ClientArguments}, its result as {@link ClientResult}. */
export type ClientMethod<C extends MethodContract> = (
  ...args: ClientArguments<C['params']>
) => Promise<ClientResult<C['returns']>>;

/** A typed client: one async function per method of the contract. */
export type Client<M extends Methods> = { readonly [K in keyof M]: ClientMethod<M[K]> };
