import type { MountableEndpoints } from '../protocol/pipeline/route-table.ts';
import { Pipeline } from '../protocol/pipeline/pipeline.ts';
import { WEB_CODINGS } from './coding.ts';
import { FetchExchange, internalError } from './fetch-exchange.ts';
import { resolveFetchOptions, type FetchHandlerOptions } from './options.ts';

/**
 * Serves `endpoints` (a registry's) under `prefix` on the Fetch API: the handler takes a
 * `Request` and resolves to a `Response`, for Workers, Deno, Bun or any runtime built on
 * `Request`/`Response`. Routes, HEAD, 404/405, negotiation, body limits, problem documents and
 * CORS are those of `HttpServer`: the same pipeline. It never rejects.
 */
export function toFetchHandler(
  prefix: string,
  endpoints: MountableEndpoints,
  options: FetchHandlerOptions = {},
): (request: Request, ...platform: unknown[]) => Promise<Response> {
  const resolved = resolveFetchOptions(options);
  const pipeline = new Pipeline(resolved, WEB_CODINGS);
  pipeline.routes.mount(prefix, endpoints);
  // Not an async function: an answer that had to wait is its own promise, not wrapped in another.
  return (request, ...platform) => {
    let exchange: FetchExchange;
    try {
      exchange = new FetchExchange(pipeline, resolved, request, platform);
    } catch (error) {
      // Not a Request the pipeline can read (its headers throw): a fault, never a throw.
      return Promise.resolve(internalError(error));
    }
    exchange.start();
    const response = exchange.response;
    return response instanceof Promise ? response : Promise.resolve(response);
  };
}
