import type { Codec } from '../../../core/codec.ts';
import type { EndpointVerb, HttpMethod, MethodContract } from '../../../core/contract/method.ts';
import type { SecurityScheme } from '../call/security.ts';
import type { Opts } from '../../../core/options.ts';
import { preRoute } from './pre-route.ts';
import { requestIdOf, stampRequestId } from './request-id.ts';
import { RouteTable } from './route-table.ts';
import type { EndpointRequest, EndpointResponse, Handler } from '../types.ts';

/**
 * The endpoints of a registry, what `HttpServer.mount` and the fetch handler take: the route table
 * (paths relative to the mount prefix, e.g. `/getAllUsers`) and a `handle` that routes one request.
 */
/** One exposed method, as documents about the API (OpenAPI) describe it. */
export interface Operation {
  /** The service's class name: `'BookService'`. */
  readonly service: string;
  /** The method's name: `'createBook'`. */
  readonly method: string;
  readonly verb: EndpointVerb;
  /** Relative to the mount prefix: `/createBook`, or a route's pattern: `/notes/:id`. */
  readonly path: string;
  readonly contract: MethodContract;
  /** The names of the security schemes that admit a caller; empty for a public method. */
  readonly security: readonly string[];
  /** Whether a rate limit counts its calls (its own, or the registry's); absent: none. */
  readonly rateLimited?: boolean;
}

export class Endpoints {
  /** Path → verb → handler. Live: services registered later appear here too. */
  readonly routes = new Map<string, Map<HttpMethod, Handler>>();
  /** Every exposed method, in the order registered. Live, as `routes`. */
  readonly operations: Operation[] = [];
  /** The registry's security schemes, by the names contracts use. */
  readonly securitySchemes: ReadonlyMap<string, SecurityScheme>;
  #table: RouteTable | undefined;

  constructor(
    /** The largest body the endpoints read; transports stop reading beyond it. */
    readonly maxBodyBytes: number,
    /** The codecs the endpoints speak, used for problem documents about routing too. */
    readonly codecs: readonly Codec[],
    securitySchemes: ReadonlyMap<string, SecurityScheme> = new Map(),
    /** The registry's reading and writing options: documents about the API follow its `required` rules. */
    readonly opts: Readonly<Opts> = {},
  ) {
    this.securitySchemes = securitySchemes;
  }

  /**
   * Routes one request (`path` relative to the prefix, with its query unless `search` gives it) as
   * the transports do: 404 for no route, 405
   * with `Allow`, HEAD as GET without a body (each endpoint checks `maxBodyBytes` itself), and
   * `x-request-id` on every answer. A CORS preflight is refused with 403 here: CORS belongs to the
   * transport (its `cors` option). The answer counts as written when it is returned.
   */
  async handle(request: EndpointRequest): Promise<EndpointResponse> {
    // The id is chosen once, here, for the call and its answer alike.
    const requestId = request.requestId ?? requestIdOf(request.headers);
    const answer = await this.#route(
      request.requestId === undefined
        ? (Object.create(request, { requestId: { value: requestId } }) as EndpointRequest)
        : request,
    );
    stampRequestId(answer.headers, requestId);
    answer.written?.(answer.status);
    return answer;
  }

  async #route(request: EndpointRequest): Promise<EndpointResponse> {
    if (this.#table === undefined) {
      this.#table = new RouteTable();
      this.#table.mount('', this);
    }
    const routing = preRoute(this.#table, request.method, request.path, request.headers, undefined, false);
    if (routing.kind === 'answer') return routing.answer;
    const { route, target } = routing;
    if (route.kind !== 'endpoint') throw new Error('lacquer: a registry route that is not an endpoint');
    // The route's `:name` values, and the query of a path given with one.
    const routed = Object.create(request, {
      params: { value: route.params },
      search: { value: request.search ?? target.search },
    }) as EndpointRequest;
    const response = await route.handler(routed);
    return request.method === 'HEAD' ? { ...response, body: undefined } : response;
  }
}
