import { Registry, type RegistryOptions, type ResponseReport } from '../index.ts';
import { HttpServer, type HttpServerOptions } from '../transports/http/index.ts';
import { CALLER, demoBearer, demoTokens, type DemoTokens } from './auth.ts';
import { serveApiDocs } from './openapi.ts';
import { servePage } from './page/serve.ts';
import { BookEventService, BookService, UserService } from './services.ts';

/** `"VERB /prefix/path"` for every route of a registry: what the discovery route lists. */
export function endpointList(prefix: string, registry: Registry): string[] {
  const out: string[] = [];
  for (const [path, verbs] of registry.endpoints.routes) {
    for (const verb of verbs.keys()) out.push(`${verb} ${prefix}${path}`);
  }
  return out;
}

/** What `GET /api` lists: the registry's endpoints, then the OpenAPI document's route. */
export function exampleRoutes(registry: Registry): string[] {
  return [...endpointList('/api', registry), 'GET /api/openapi.json'];
}

/** One line per answer of an endpoint: `POST /api/books 201 0.4 ms req=<id> caller=demo`. */
export function logLine(prefix: string, { call, status, durationMs }: ResponseReport): string {
  const caller = call.has(CALLER) ? ` caller=${call.get(CALLER).name}` : '';
  return `${call.verb} ${prefix}${call.path} ${status} ${durationMs.toFixed(1)} ms req=${call.requestId}${caller}`;
}

/** Options of {@link createExampleServer}. */
export interface ExampleOptions {
  server?: HttpServerOptions;
  /** More registry options; `security` and `onResponse` are the example's own. */
  registry?: RegistryOptions;
  /** The bearer tokens. Default: from the environment (see examples/auth.ts). */
  tokens?: DemoTokens;
  /** Gets the request log, a line per call. Default `console.log`; `() => {}` silences it. */
  log?: (line: string) => void;
}

/** The example's parts: the server, and the registry of its endpoints. */
export interface ExampleServer {
  server: HttpServer;
  /** The users, the books and their activity: every endpoint the OpenAPI document describes. */
  registry: Registry;
}

/**
 * The example application: the services under `/api` behind bearer tokens (but the reading of
 * books and their activity), the public discovery route `GET /api`, the OpenAPI document
 * `GET /api/openapi.json` and its reference page `/docs`, and the browser page at `/` (bundled on
 * first request).
 */
export function createExampleServer(options: ExampleOptions = {}): ExampleServer {
  const log = options.log ?? console.log;
  const registryOptions: RegistryOptions = {
    ...options.registry,
    security: { bearer: demoBearer(options.tokens ?? demoTokens()) },
    onResponse: (report) => log(logLine('/api', report)),
  };
  const books = new BookService('/api/books');
  const registry = new Registry(registryOptions).on(new UserService()).on(books).on(new BookEventService(books));
  const server = new HttpServer(options.server);
  server.mount('/api', registry.endpoints);
  server.get('/api', (_req, res) => {
    res.json({ endpoints: exampleRoutes(registry) });
  });
  serveApiDocs(server, registry, '/api');
  servePage(server);
  return { server, registry };
}
