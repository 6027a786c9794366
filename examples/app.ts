import { Registry, type RegistryOptions } from '../core/index.ts';
import { HttpServer, type HttpServerOptions } from '../transports/http/index.ts';
import { servePage } from './page/serve.ts';
import { BookService, UserService } from './services.ts';

/** `"VERB /prefix/path"` for every route of a registry: what the discovery route lists. */
export function endpointList(prefix: string, registry: Registry): string[] {
  const out: string[] = [];
  for (const [path, verbs] of registry.endpoints.routes) {
    for (const verb of verbs.keys()) out.push(`${verb} ${prefix}${path}`);
  }
  return out;
}

/**
 * The example application: both services under `/api`, the discovery route `GET /api`, and the
 * browser page at `/` (bundled on first request).
 */
export function createExampleServer(
  options: { server?: HttpServerOptions; registry?: RegistryOptions } = {},
): { server: HttpServer; registry: Registry } {
  const registry = new Registry(options.registry);
  registry.on(new UserService()).on(new BookService());
  const server = new HttpServer(options.server);
  server.mount('/api', registry.endpoints);
  server.get('/api', (_req, res) => {
    res.json({ endpoints: endpointList('/api', registry) });
  });
  servePage(server);
  return { server, registry };
}
