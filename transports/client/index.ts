// `lacquer/client`: a typed client over the Fetch API, for browsers and Node. No node:* imports.
export { acceptFor, createClient } from './create-client.ts';
export type { CallOptions, Client, ClientMethod, ClientOptions, ClientResult, FetchFunction, HeadersOption } from './types.ts';
export { HttpError } from '../../core/errors/http-error.ts';
