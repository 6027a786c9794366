// `lacquer/fetch`: the registry on the Fetch API (Workers, Deno, Bun, any Request/Response runtime).
// Registries, errors and CORS options come from `lacquer`.
export { toFetchHandler } from './handler.ts';
export {
  DEFAULT_FETCH_HANDLER_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
} from './options.ts';
export type { FetchHandlerOptions } from './options.ts';
export { DEFAULT_COMPRESSION_THRESHOLD } from '../protocol/pipeline/content-coding.ts';
export type { CompressionOptions, ResponseCoding } from '../protocol/pipeline/content-coding.ts';
