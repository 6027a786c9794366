// The two transports that serve a registry, started the same way, for specs that hold on both:
// HttpServer on node:http, and the fetch handler behind spec/support/fetch-server.ts.
import type { Endpoints } from '../../index.ts';
import type { CorsOptions } from '../../transports/protocol/pipeline/cors.ts';
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import { serveFetch, type Served } from '../support/fetch-server.ts';

/** What a spec may ask of either transport. */
export interface ServeOptions {
  handlerTimeoutMs?: number;
  cors?: CorsOptions;
  /** HttpServer's own `onError` (timeouts it answered for a handler); the fetch handler has none. */
  onError?: () => void;
}

export interface Transport {
  readonly kind: 'HttpServer' | 'fetch';
  /** Serves `endpoints` under `prefix`, each `[prefix, endpoints]` of `more` beside them. */
  serve(
    prefix: string,
    endpoints: Endpoints,
    options?: ServeOptions,
    more?: readonly (readonly [string, Endpoints])[],
  ): Promise<Served>;
}

export const TRANSPORTS: readonly Transport[] = [
  {
    kind: 'HttpServer',
    async serve(prefix, endpoints, options = {}, more = []) {
      const server = new HttpServer(options).mount(prefix, endpoints);
      for (const [p, e] of more) server.mount(p, e);
      await server.bind(0).start();
      return { url: server.url, stop: () => server.stop() };
    },
  },
  {
    kind: 'fetch',
    async serve(prefix, endpoints, options = {}, more = []) {
      const { onError: _httpServerOnly, ...fetchOptions } = options;
      const handlers = [
        [prefix, toFetchHandler(prefix, endpoints, fetchOptions)] as const,
        ...more.map(([p, e]) => [p, toFetchHandler(p, e, fetchOptions)] as const),
      ];
      // One handler per registry, as a Worker routing by prefix would hold them.
      return serveFetch((request, ...platform) => {
        const path = new URL(request.url).pathname;
        const found = handlers.find(([p]) => path === p || path.startsWith(`${p}/`)) ?? handlers[0]!;
        return found[1](request, ...platform);
      });
    },
  },
];
