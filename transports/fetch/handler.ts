import type { Codec } from '../../codecs/codec.ts';
import { json } from '../../codecs/json/index.ts';
import { problem, problemResponse, type ProblemDocument } from '../../core/registry/problem.ts';
import type { EndpointResponse } from '../../core/registry/types.ts';
import { corsHeaders, mergeHeaders, originAllowed, preflightHeaders } from '../http/cors.ts';
import { RouteTable, type MountableEndpoints } from '../http/route-table.ts';
import { parseTarget } from '../http/target.ts';
import { discard, readBody } from './body.ts';
import { resolveFetchOptions, type FetchHandlerOptions, type ResolvedFetchOptions } from './options.ts';
import { toResponse } from './response.ts';

const JSON_ONLY: readonly Codec[] = [json];

/**
 * Serves `endpoints` (a registry's) under `prefix` on the Fetch API: the handler takes a
 * `Request` and resolves to a `Response`, for Workers, Deno, Bun or any runtime built on
 * `Request`/`Response`. Routes, HEAD, 404/405, negotiation, body limits, problem documents and
 * CORS are those of `HttpServer`. It never rejects.
 */
export function toFetchHandler(
  prefix: string,
  endpoints: MountableEndpoints,
  options: FetchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const routes = new RouteTable();
  routes.mount(prefix, endpoints);
  const resolved = resolveFetchOptions(options);
  return async (request) => {
    try {
      return await handle(request, routes, resolved);
    } catch (error) {
      // A fault of the handler itself, not of an endpoint (those answer problem documents).
      console.error('lacquer/fetch: internal error', error);
      return toResponse(problemResponse(problem(500), null), false);
    }
  };
}

async function handle(request: Request, routes: RouteTable, options: ResolvedFetchOptions): Promise<Response> {
  const { method, headers } = request;
  const head = method === 'HEAD';
  const accept = headers.get('accept');
  const origin = headers.get('origin');
  const { cors } = options;
  const extra = cors !== undefined && origin !== null && originAllowed(cors, origin) ? corsHeaders(cors, origin) : undefined;
  let codecs = JSON_ONLY;
  const send = async (answer: EndpointResponse) => {
    await discard(request);
    return toResponse(extra === undefined ? answer : { ...answer, headers: mergeHeaders(answer.headers, extra) }, head);
  };
  const fail = (doc: ProblemDocument, more: Record<string, string> = {}) => send(problemResponse(doc, accept, codecs, more));

  const url = new URL(request.url);
  const target = parseTarget(url.pathname + url.search);
  if (typeof target === 'string') return fail(problem(400, target));
  const route = routes.resolve(method, target.segments);
  codecs = route.codecs;
  const allow = routes.allowed(target.segments);

  if (method === 'OPTIONS' && origin !== null && headers.get('access-control-request-method') !== null && allow.length > 0) {
    if (cors === undefined || extra === undefined) return fail(problem(403, `cross-origin requests from ${origin} are not allowed`));
    return send({ status: 204, headers: preflightHeaders(cors, origin, allow, headers.get('access-control-request-headers')), body: undefined });
  }
  if (route.kind !== 'endpoint') {
    if (allow.length === 0) return fail(problem(404, `nothing at ${target.path}`));
    const allowHeader = allow.join(', ');
    if (method === 'OPTIONS') return send({ status: 204, headers: { allow: allowHeader }, body: undefined });
    return fail(problem(405, `${method} is not allowed on ${target.path}; use ${allowHeader}`), { allow: allowHeader });
  }

  const limit = Math.min(options.maxBodyBytes, route.limit ?? Infinity);
  const read = await readBody(request, limit);
  if (read.kind === 'too-large') return fail(problem(413, `the request body is over ${limit} bytes`));
  if (read.kind === 'broken') return fail(problem(400, 'the request body could not be read'));
  const body = read.body.byteLength === 0 ? undefined : read.body;
  return send(await route.handler({ method, path: route.path, headers, body }));
}
