import type { HttpMethod } from './verbs.ts';

/**
 * A typed slot in a call's context: `const USER = contextKey<User>('user')`; then
 * `call.set(USER, user)` and `call.get(USER)` (a `User`) without casts. Keys compare by identity,
 * so two keys with the same name are two slots; the name is for messages.
 */
export class ContextKey<T> {
  /** Carries `T` for the type checker; never set. */
  declare readonly type?: T;
  constructor(readonly name: string) {}
}

/** Makes a {@link ContextKey}: `contextKey<User>('user')`. */
// @__NO_SIDE_EFFECTS__
export function contextKey<T>(name: string): ContextKey<T> {
  if (typeof name !== 'string' || name === '') throw new TypeError('contextKey(): the name must be a non-empty string');
  return new ContextKey<T>(name);
}

/**
 * One request to a service method, passed after the declared parameters:
 * `createBook(book: Book, call: Call)`. Security schemes, interceptors and the method share it.
 * Only Web-standard types, so it is the same on every transport.
 */
export interface Call {
  /** The service's class name: `'BookService'`. */
  readonly service: string;
  /** The method's name: `'createBook'`. */
  readonly method: string;
  /** The request's verb (`HEAD` for a HEAD request to a GET endpoint). */
  readonly verb: HttpMethod;
  /** The endpoint's path below the mount prefix: `/createBook`. */
  readonly path: string;
  /**
   * The mount path the request came through: `/api` for `mount('/api', ...)` (or
   * `toFetchHandler('/api', ...)`), `''` at the root. A `Location` the client can follow is
   * `${call.prefix}/books/${id}`, right for a service mounted under several prefixes.
   */
  readonly prefix: string;
  /** The request's headers. */
  readonly headers: Headers;
  /** The request's query (`?api_key=...`). */
  readonly query: URLSearchParams;
  /**
   * Aborted when the client goes away, the call times out, or the server abandons it on shutdown;
   * for a stream method, also when its stream ends for the server (its idle or total limit, a
   * shutdown).
   */
  readonly signal: AbortSignal;
  /** The request's `x-request-id` when it is 1-128 visible ASCII characters, else a generated one. */
  readonly requestId: string;
  /**
   * What the transport adds: the fetch handler's arguments after the request (Workers' `env` and
   * `ctx`, Deno's `info`), `HttpServer`'s Node `IncomingMessage`.
   */
  readonly platform: readonly unknown[];
  /** The client's address, as the transport's `trustProxy` option decides; `undefined` when unknown. */
  readonly ip: string | undefined;
  /**
   * The request's `Last-Event-ID`: the SSE `id` of the last event a reconnecting `EventSource`
   * received (see `sse()`), so that a stream method can resume after it. `undefined` when the
   * header is absent or empty.
   */
  readonly lastEventId: string | undefined;
  /**
   * The decoded parameters as the method receives them: one element per positional parameter, or
   * one object of the named ones by name; empty until the body is read (security schemes run before that).
   */
  readonly args: readonly unknown[];
  /** The value stored under `key`; throws a `TypeError` (answered 500) when nothing is. */
  get<T>(key: ContextKey<T>): T;
  /** Whether a value is stored under `key`. */
  has(key: ContextKey<unknown>): boolean;
  /** Stores `value` under `key` for the rest of the call. */
  set<T>(key: ContextKey<T>, value: T): void;
  /** The status of a successful answer: a 2xx. Anything else makes the answer a 500 naming the mistake. */
  status(code: number): void;
  /** Adds a header to the answer; several `Set-Cookie` (or any repeated name) stay several lines. */
  header(name: string, value: string): void;
}
