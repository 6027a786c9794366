// `lacquer/http`: the embedded HTTP server on node:http. Registries, errors and CORS options come
// from `lacquer`.

// ---- For users ----------------------------------------------------------------------------------
export { HttpServer } from './server.ts';
export type { HttpServerOptions } from './options.ts';
export { DEFAULT_COMPRESSION_THRESHOLD } from '../rest/content-coding.ts';
export type { CompressionOptions, ResponseCoding } from '../rest/content-coding.ts';
export type { RouteHandler } from './route-handler.ts';
export { HttpRequest } from './request.ts';
export { HttpResponse } from './response.ts';
export {
  DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_HANDLER_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_HEADERS_COUNT, DEFAULT_MAX_PIPELINED_REQUESTS, DEFAULT_WRITE_TIMEOUT_MS,
} from './options.ts';

// ---- For other libraries ------------------------------------------------------------------------
/** Node's request headers as a `HeaderReader`, the form endpoints read. */
export { NodeHeaders } from './request.ts';
