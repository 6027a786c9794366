import {
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  resolveTransportOptions,
  type ResolvedTransportOptions,
  type TransportOptions,
} from '../protocol/pipeline/transport-options.ts';

export { DEFAULT_MAX_BUFFERED_BODY_BYTES, DEFAULT_MAX_CALLS_IN_FLIGHT };

/** 30 s for a service method to answer; then 503, and `call.signal` aborts. The same default as `HttpServer`'s. */
export const DEFAULT_FETCH_HANDLER_TIMEOUT_MS = DEFAULT_HANDLER_TIMEOUT_MS;

/** Options of {@link toFetchHandler}: those it shares with `HttpServer`, and its own; every member is optional. */
export interface FetchHandlerOptions extends TransportOptions {
  /**
   * The connection's address, which a `Request` does not carry: Deno's `(request, info) =>
   * info.remoteAddr.hostname`, Workers' `(request) => request.headers.get('cf-connecting-ip')`.
   * Default: unknown (`call.ip` is `undefined`).
   */
  ip?: (request: Request, ...platform: unknown[]) => string | null | undefined;
}

/** The options with their defaults, checked. `compression` keeps the settings: the runtime's codings are detected on first use. */
export interface ResolvedFetchOptions extends ResolvedTransportOptions {
  readonly ip: ((request: Request, ...platform: unknown[]) => string | null | undefined) | undefined;
}

/** Fills in the defaults and checks the values. */
export function resolveFetchOptions(o: FetchHandlerOptions): ResolvedFetchOptions {
  const shared = resolveTransportOptions('toFetchHandler', o);
  if (o.ip !== undefined && typeof o.ip !== 'function')
    throw new TypeError('toFetchHandler: ip must be a function (request, ...platform) => address');
  return { ...shared, ip: o.ip };
}
