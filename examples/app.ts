import { JSONRPC, MCP, Registry, type RegistryOptions, type ResponseReport } from '../index.ts';
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

/**
 * One line per answer of an endpoint, `POST /api/books 201 0.4 ms req=<id> caller=demo`, or per
 * call of a JSON-RPC or MCP message: `POST /rpc getBook 200 0.1 ms req=<id>`.
 */
export function logLine({ call, path, status, durationMs }: ResponseReport, byName = false): string {
  const caller = call.has(CALLER) ? ` caller=${call.get(CALLER).name}` : '';
  const target = byName ? `${path.replace(/\/$/, '')} ${call.method}` : path;
  return `${call.verb} ${target} ${status} ${durationMs.toFixed(1)} ms req=${call.requestId}${caller}`;
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

/** The example's parts: the server, and the registries of the same services in three protocols. */
export interface ExampleServer {
  server: HttpServer;
  /** The users, the books and their activity: every endpoint the OpenAPI document describes (`/api`). */
  registry: Registry;
  /** The same service instances as JSON-RPC 2.0 methods (`POST /rpc`). */
  rpc: Registry;
  /** The same service instances as MCP tools (`POST /mcp`), but streams and positional parameters. */
  mcp: Registry;
}

/**
 * The example application: the services under `/api` behind bearer tokens (but the reading of
 * books and their activity), the public discovery route `GET /api`, the OpenAPI document
 * `GET /api/openapi.json` and its reference page `/docs`, and the browser page at `/` (bundled on
 * first request). The same instances answer JSON-RPC 2.0 at `POST /rpc` and MCP at `POST /mcp`.
 */
export function createExampleServer(options: ExampleOptions = {}): ExampleServer {
  const log = options.log ?? console.log;
  const registryOptions: RegistryOptions = {
    ...options.registry,
    security: { bearer: demoBearer(options.tokens ?? demoTokens()) },
    onResponse: (report) => log(logLine(report)),
    // What a JSON-RPC or MCP registry leaves out (streams; for MCP, positional parameters) shows in the log.
    onWarning: log,
  };
  const byName: RegistryOptions = { ...registryOptions, onResponse: (report) => log(logLine(report, true)) };
  const services = [new UserService(), new BookService()] as const;
  const events = new BookEventService(services[1]);
  const registry = new Registry(registryOptions).on(services[0]).on(services[1]).on(events);
  const rpc = new Registry(byName, JSONRPC).on(services[0]).on(services[1]);
  const mcp = new Registry(
    {
      ...byName,
      mcp: { name: 'lacquer-example', instructions: 'A small library: find, read and change books; list users.' },
    },
    MCP,
  )
    .on(services[0])
    .on(services[1]);
  const server = new HttpServer(options.server);
  server.mount('/api', registry.endpoints);
  server.mount('/rpc', rpc.endpoints);
  server.mount('/mcp', mcp.endpoints);
  server.get('/api', (_req, res) => {
    res.json({ endpoints: exampleRoutes(registry) });
  });
  serveApiDocs(server, registry, '/api');
  servePage(server);
  return { server, registry, rpc, mcp };
}
