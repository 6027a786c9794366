// What both transports decide before any body is read: the request target, the route, CORS
// preflights, 404, 405 and OPTIONS. Free of node:*, so the fetch handler shares it.
import { shownText } from '../../../core/errors/shown-text.ts';
import { problem, problemResponse } from '../problem.ts';
import type { EndpointResponse, HeaderReader } from '../types.ts';
import { preflightHeaders } from './cors.ts';
import type { CorsOptions } from './cors.ts';
import type { Resolution, RouteTable } from './route-table.ts';
import { parseTarget, type Target } from './target.ts';

export type PreRouting<R = unknown> =
  /** Answered already; `close` when the request itself was malformed. */
  | { readonly kind: 'answer'; readonly answer: EndpointResponse; readonly close: boolean }
  | { readonly kind: 'route'; readonly target: Target; readonly route: Exclude<Resolution<R>, { kind: 'none' }> };

/**
 * Routes `rawTarget` (a path with its query). `allowedOrigin` says whether CORS allows the
 * request's `Origin`. Problem documents are written in a codec of the route's registry that the
 * client accepts.
 */
export function preRoute<R>(
  routes: RouteTable<R>,
  method: string,
  rawTarget: string,
  headers: HeaderReader,
  cors: CorsOptions | undefined,
  allowedOrigin: boolean,
): PreRouting<R> {
  const target = parseTarget(rawTarget);
  if (typeof target === 'string')
    return { kind: 'answer', answer: problemResponse(problem(400, target), headers.get('accept')), close: true };
  const route = routes.resolve(method, target.segments);
  // The common case, a route for a request that is no preflight, reads no more headers here.
  if (route.kind !== 'none' && method !== 'OPTIONS') return { kind: 'route', target, route };
  const answer = (a: EndpointResponse): PreRouting<R> => ({ kind: 'answer', answer: a, close: false });
  const fail = (status: number, detail: string, more: Record<string, string> = {}) =>
    answer(problemResponse(problem(status, detail), headers.get('accept'), route.codecs, more));

  const origin = headers.get('origin');
  const preflight = method === 'OPTIONS' && origin !== null && headers.get('access-control-request-method') !== null;
  // Only preflights and requests without a route need the path's verbs.
  const allow = preflight || route.kind === 'none' ? routes.allowed(target.segments) : [];
  if (preflight && allow.length > 0) {
    if (cors === undefined || !allowedOrigin)
      return fail(403, `cross-origin requests from ${shownText(origin)} are not allowed`);
    return answer({
      status: 204,
      headers: preflightHeaders(cors, origin, allow, headers.get('access-control-request-headers')),
      body: undefined,
    });
  }
  if (route.kind === 'none') {
    if (allow.length === 0) return fail(404, `nothing at ${shownText(target.path)}`);
    const allowHeader = allow.join(', ');
    if (method === 'OPTIONS') return answer({ status: 204, headers: { allow: allowHeader }, body: undefined });
    return fail(405, `${method} is not allowed on ${shownText(target.path)}; use ${allowHeader}`, {
      allow: allowHeader,
    });
  }
  return { kind: 'route', target, route };
}
