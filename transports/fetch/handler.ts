import { problem, problemResponse, type ProblemDocument } from '../rest/problem.ts';
import type { EndpointResponse } from '../rest/types.ts';
import { corsHeaders, mergeHeaders, originAllowed } from '../rest/cors.ts';
import { preRoute } from '../rest/pre-route.ts';
import { RouteTable, type MountableEndpoints } from '../rest/route-table.ts';
import { discard, readBody } from './body.ts';
import { resolveFetchOptions, type FetchHandlerOptions, type ResolvedFetchOptions } from './options.ts';
import { toResponse } from './response.ts';
import { FetchEndpointRequest } from './endpoint-request.ts';
import { Deadlines } from './deadlines.ts';
import { requestIdFor } from '../rest/request-id.ts';
import { clientAddress } from '../rest/client-address.ts';
import { CompressionPolicy, markEncoded, requestBodyCoding } from '../rest/content-coding.ts';
import { bodyOverLimit, decodedBody } from '../rest/request-body.ts';
import { compress, inflate, webRequestCodings, webResponseCodings } from './coding.ts';
import { busy, busyHeaders, Load } from '../rest/load.ts';

const NO_BODY = new Uint8Array(0);

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
): (request: Request, ...platform: unknown[]) => Promise<Response> {
  const routes = new RouteTable();
  routes.mount(prefix, endpoints);
  const resolved = resolveFetchOptions(options);
  // The runtime's codings are probed on the first request, not here: a Worker may build its
  // handler at module scope, where workerd forbids some work.
  let policy: CompressionPolicy | null | undefined;
  const compression = (): CompressionPolicy | null => {
    if (policy === undefined) {
      const settings = resolved.compression;
      policy = settings === undefined ? null : new CompressionPolicy(settings.threshold, webResponseCodings(settings.encodings));
    }
    return policy;
  };
  const deadlines = resolved.handlerTimeoutMs === 0 ? undefined : new Deadlines(resolved.handlerTimeoutMs);
  const load = new Load(resolved.maxCallsInFlight, resolved.maxBufferedBodyBytes);
  return async (request, ...platform) => {
    const requestId = requestIdFor(request.headers.get('x-request-id'));
    try {
      return await handle(request, requestId, platform, routes, resolved, compression, deadlines, load);
    } catch (error) {
      // A fault of the handler itself, not of an endpoint (those answer problem documents).
      console.error(`lacquer/fetch: internal error (request ${requestId})`, error);
      const answer = problemResponse(problem(500, undefined, { requestId }), null);
      answer.headers['x-request-id'] = requestId;
      return toResponse(answer, false);
    }
  };
}

/**
 * The path and query of `url` as given, not as `new URL()` would normalise them: a dot segment
 * (`/a/%2e%2e/b`) is then refused with 400 as HttpServer does, instead of resolved. A standard
 * `Request` has resolved them already when it was built; runtimes that keep the target as sent
 * get the same answers as HttpServer.
 */
function targetOf(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme === -1) return url;
  const path = url.indexOf('/', scheme + 3);
  if (path === -1) {
    const query = url.indexOf('?', scheme + 3);
    return query === -1 ? '/' : '/' + url.slice(query);
  }
  return url.slice(path);
}

async function handle(
  request: Request,
  requestId: string,
  platform: readonly unknown[],
  routes: RouteTable,
  options: ResolvedFetchOptions,
  compression: () => CompressionPolicy | null,
  deadlines: Deadlines | undefined,
  load: Load,
): Promise<Response> {
  const { method, headers } = request;
  const head = method === 'HEAD';
  const origin = headers.get('origin');
  const { cors } = options;
  const allowedOrigin = cors !== undefined && origin !== null && originAllowed(cors, origin);
  const extra = allowedOrigin ? corsHeaders(cors, origin) : undefined;
  const deliver = (answer: EndpointResponse, merged: EndpointResponse, encoded: boolean) => {
    const response = toResponse(merged, head, encoded);
    answer.written?.(answer.status);
    return response;
  };
  const send = (answer: EndpointResponse): Response | Promise<Response> => {
    discard(request);
    const merged = extra === undefined ? answer : { ...answer, headers: mergeHeaders(answer.headers, extra) };
    merged.headers['x-request-id'] = requestId;
    // Without Accept-Encoding this lookup is all compression costs.
    const acceptEncoding = headers.get('accept-encoding');
    const coding = acceptEncoding === null ? undefined : compression()?.plan(merged, head, acceptEncoding);
    if (coding === undefined) return deliver(answer, merged, false);
    return compress(coding, merged.body!).then((bytes) => {
      markEncoded(merged.headers, coding);
      return deliver(answer, { ...merged, body: bytes }, true);
    }, (error: unknown) => {
      console.error('lacquer/fetch: compressing an answer failed; sent uncompressed', error);
      return deliver(answer, merged, false);
    });
  };

  const routing = preRoute(routes, method, targetOf(request.url), headers, cors, allowedOrigin);
  if (routing.kind === 'answer') return send(routing.answer);
  const { route, target } = routing;
  // The fetch handler serves registries only: every route it finds is an endpoint.
  if (route.kind !== 'endpoint') throw new Error('lacquer/fetch: a route that is not an endpoint');
  const answerFor = (doc: ProblemDocument) => problemResponse(doc, headers.get('accept'), route.codecs);
  const busyFor = (what: 'calls' | 'bytes') => problemResponse(busy(what, load), headers.get('accept'), route.codecs, busyHeaders());
  /** The body bytes the call counts in `load`. */
  let held = 0;

  const limit = Math.min(options.maxBodyBytes, route.limit ?? Infinity);
  // Read when the endpoint asks: a call it refuses never has its body read.
  // A body with Content-Encoding is inflated, the limit applying to what it inflates to (and to
  // the bytes received); an unknown coding is refused before anything is read.
  const readRequestBody = (): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> => {
    const contentEncoding = headers.get('content-encoding');
    // No body (a GET): nothing to wait for.
    if (request.body === null && contentEncoding === null) return NO_BODY;
    return readWhole(contentEncoding);
  };
  const readWhole = async (contentEncoding: string | null): Promise<Uint8Array | EndpointResponse> => {
    // The runtime's DecompressionStream formats are probed only once a body names a coding.
    const coding = requestBodyCoding(contentEncoding, contentEncoding === null ? [] : webRequestCodings());
    if (coding.kind === 'unsupported') return problemResponse(coding.problem, headers.get('accept'), route.codecs, coding.headers);
    const read = await readBody(request, limit, load);
    if (read.kind === 'too-large') return answerFor(bodyOverLimit(limit));
    if (read.kind === 'busy') return busyFor('bytes');
    if (read.kind === 'broken') return answerFor(problem(400, 'the request body could not be read'));
    held += read.body.byteLength;
    const body = await decodedBody(coding, read.body, limit, inflate);
    if (!(body instanceof Uint8Array)) return answerFor(body);
    if (body === read.body) return body;
    // What a body inflates to is held too.
    if (!load.take(body.byteLength)) return busyFor('bytes');
    held += body.byteLength;
    return body;
  };
  const peer = options.ip?.(request, ...platform) ?? undefined;
  const ip = clientAddress(peer, headers.get('x-forwarded-for'), options.trustProxy);
  const call = new FetchEndpointRequest(request, route.prefix, route.path, readRequestBody, target.search, requestId, ip, platform);
  // The call counts in `load` until its handler settles, given up on or not, with the body bytes it holds.
  if (!load.enter()) return send(busyFor('calls'));
  let answer: ReturnType<typeof route.handler>;
  try {
    answer = route.handler(call);
  } catch (error) {
    load.leave(held);
    throw error;
  }
  // Answered at once (nothing awaited), or no deadline to race.
  if (!(answer instanceof Promise)) {
    load.leave(held);
    return send(answer);
  }
  if (deadlines === undefined) {
    try {
      return send(await answer);
    } finally {
      load.leave(held);
    }
  }
  // The call races its deadline; a call past it is answered 503 and its own answer dropped (its
  // observers still hear of it, as a 503).
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const settle = (first: EndpointResponse) => {
      settled = true;
      deadlines.remove(giveUp);
      try {
        resolve(send(first));
      } catch (error) {
        reject(error);
      }
    };
    const giveUp = () => {
      const ms = deadlines.timeoutMs;
      call.abort(new DOMException(`the call did not answer within ${ms} ms`, 'TimeoutError'));
      call.sentStatus = 503;
      settle(answerFor(problem(503, `the handler did not answer within ${ms} ms`, { requestId })));
    };
    deadlines.add(giveUp);
    answer.then((own) => {
      load.leave(held);
      if (settled) own.written?.(503);
      else settle(own);
    }, (error: unknown) => {
      load.leave(held);
      deadlines.remove(giveUp);
      reject(error);
    });
  });
}
