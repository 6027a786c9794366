export { HttpServer } from './server.ts';
export type { MountableEndpoints, RouteHandler } from './route-table.ts';
export { HttpRequest, NodeHeaders } from './request.ts';
export { HttpResponse } from './response.ts';
export {
  DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from './options.ts';
export type { CorsOptions, HttpServerOptions } from './options.ts';
export { HttpError, InvalidArgument } from '../../core/errors/http-error.ts';
