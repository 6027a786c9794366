// `lacquer/http`: the embedded HTTP server on node:http. Registries, errors and CORS options come
// from `lacquer`.

// ---- For users ----------------------------------------------------------------------------------
export { HttpServer } from './server.ts';
export type { HttpServerOptions } from './options.ts';
export { DEFAULT_COMPRESSION_THRESHOLD } from '../protocol/pipeline/content-coding.ts';
export type { CompressionOptions, ResponseCoding } from '../protocol/pipeline/content-coding.ts';
export type { RouteHandler } from './route-handler.ts';
export { HttpRequest } from './request.ts';
export { HttpResponse } from './response.ts';
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_HANDLER_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_HEADERS_COUNT,
  DEFAULT_MAX_PIPELINED_REQUESTS,
  DEFAULT_WRITE_TIMEOUT_MS,
  DEFAULT_MAX_QUEUED_ANSWER_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
} from './options.ts';
export { ClusterError, serveCluster } from './cluster.ts';
export type { ClusterOptions, ClusterWorker, ClusterWorkerExit, ClusterWorkerReady } from './cluster.ts';
export {
  DEFAULT_CRASH_WINDOW_MS,
  DEFAULT_MAX_CRASHES,
  DEFAULT_MAX_RESTART_DELAY_MS,
  DEFAULT_RESTART_DELAY_MS,
  DEFAULT_STOP_TIMEOUT_MS,
} from './cluster.ts';

// ---- For other libraries ------------------------------------------------------------------------
/** Node's request headers as a `HeaderReader`, the form endpoints read. */
export { NodeHeaders } from './request.ts';
