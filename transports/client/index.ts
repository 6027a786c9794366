// `lacquer/client`: a typed client over the Fetch API, for browsers and Node. No node:* imports.
// Contracts and `HttpError` (what a non-2xx answer throws) come from `lacquer`.

// ---- For users ----------------------------------------------------------------------------------
export { createClient, DEFAULT_MAX_REDIRECTS } from './create-client.ts';
export { DEFAULT_MAX_ERROR_BYTES } from './answer.ts';
export { DEFAULT_RETRY_ATTEMPTS, DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from './retry.ts';
/** An entry of `HttpError.errors`: one problem a server found in the request body. */
export type { ProblemEntry } from '../../core/errors/http-error.ts';
export type {
  CallOptions,
  Client,
  ClientArguments,
  ClientInterceptor,
  ClientMethod,
  ClientOptions,
  ClientParams,
  ClientResult,
  FetchFunction,
  HeadersOption,
  RetryOptions,
} from './types.ts';

// ---- For other libraries ------------------------------------------------------------------------
/** The `Accept` header the client sends for a codec. */
export { acceptFor } from './create-client.ts';
