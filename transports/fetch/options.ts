import { DEFAULT_MAX_BODY_BYTES } from '../rest/options.ts';
import type { CorsOptions } from '../rest/cors.ts';

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
}

/** The options with their defaults, checked. */
export interface ResolvedFetchOptions {
  readonly maxBodyBytes: number;
  readonly cors: CorsOptions | undefined;
}

/** Fills in the defaults and checks the values. */
export function resolveFetchOptions(o: FetchHandlerOptions): ResolvedFetchOptions {
  const maxBodyBytes = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBodyBytes >= 0)) throw new RangeError(`toFetchHandler: maxBodyBytes must be a number ≥ 0, got ${maxBodyBytes}`);
  return { maxBodyBytes, cors: o.cors };
}
