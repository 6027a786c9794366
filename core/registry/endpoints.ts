import type { Codec } from '../../codecs/codec.ts';
import type { Method } from '../contract/method.ts';
import { problem, problemResponse } from './problem.ts';
import type { EndpointRequest, EndpointResponse, Handler } from './types.ts';

/**
 * The endpoints of a registry, what `HttpServer.mount` and the fetch handler take: the route table
 * (paths relative to the mount prefix, e.g. `/getAllUsers`) and a `handle` that routes one request.
 */
export class Endpoints {
  /** Path → verb → handler. Live: services registered later appear here too. */
  readonly routes = new Map<string, Map<Method, Handler>>();

  constructor(
    /** The largest body the endpoints read; transports stop reading beyond it. */
    readonly maxBodyBytes: number,
    /** The codecs the endpoints speak, used for problem documents about routing too. */
    readonly codecs: readonly Codec[],
  ) {}

  /** The verbs `path` answers, HEAD included when GET is: for `Allow`. */
  allowed(path: string): Method[] {
    const verbs = this.routes.get(path);
    if (verbs === undefined) return [];
    const out = [...verbs.keys()];
    if (verbs.has('GET') && !verbs.has('HEAD')) out.splice(out.indexOf('GET') + 1, 0, 'HEAD');
    return out;
  }

  /** Routes one request (`path` relative to the prefix): 404 for no route, 405 with `Allow`, HEAD as GET without a body. */
  async handle(request: EndpointRequest): Promise<EndpointResponse> {
    const verbs = this.routes.get(request.path);
    const accept = request.headers.get('accept');
    if (verbs === undefined) return problemResponse(problem(404, `no endpoint at ${request.path}`), accept, this.codecs);
    const head = request.method === 'HEAD';
    const handler = verbs.get(request.method as Method) ?? (head ? verbs.get('GET') : undefined);
    if (handler === undefined) {
      const allow = this.allowed(request.path).join(', ');
      return problemResponse(problem(405, `${request.method} is not allowed here; use ${allow}`), accept, this.codecs, { allow });
    }
    const response = await handler(request);
    return head ? { ...response, body: undefined } : response;
  }
}
