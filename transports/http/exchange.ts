import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorHeaders, problem, problemForError, problemResponse, type ProblemDocument } from '../rest/problem.ts';
import type { EndpointRequest, EndpointResponse, Handler, HeaderValues } from '../rest/types.ts';
import { requestIdFor } from '../rest/request-id.ts';
import { clientAddress } from '../rest/client-address.ts';
import { corsHeaders, mergeHeaders, originAllowed } from '../rest/cors.ts';
import { preRoute } from '../rest/pre-route.ts';
import type { Resolution, RouteTable } from '../rest/route-table.ts';
import type { Target } from '../rest/target.ts';
import { markEncoded, requestBodyCoding, type BodyCoding } from '../rest/content-coding.ts';
import { bodyOverLimit, decodedBody } from '../rest/request-body.ts';
import { declaredLength, discardRest, emptyBody, readBody, type BodyResult } from './body.ts';
import { compress, inflate, NODE_REQUEST_CODINGS } from './coding.ts';
import { written, type Connections } from './connection.ts';
import { busy, busyHeaders, type Load } from '../rest/load.ts';
import { InFlightCalls, type InFlight } from './in-flight.ts';
import type { ResolvedOptions } from './options.ts';
import { HttpRequest, NodeHeaders } from './request.ts';
import { HttpResponse } from './response.ts';
import type { RouteHandler } from './route-handler.ts';
import { answerInternalError, writeResponse } from './write.ts';

const EMPTY = new Uint8Array(0);

/** What the exchanges of one `HttpServer` share. */
export interface ServerState {
  readonly options: ResolvedOptions;
  readonly routes: RouteTable<RouteHandler>;
  /** Calls whose handler is running, to be answered for them at their deadline. */
  readonly calls: InFlightCalls<Exchange>;
  /** Set by `stop()`: answers from then on close their connection. */
  draining: boolean;
  /** The calls whose handler has not settled and the body bytes they hold (`maxCallsInFlight`, `maxBufferedBodyBytes`). */
  readonly load: Load;
  /** The connections' pipelined requests and answers waiting, and their write timeout. */
  readonly connections: Connections;
}

/** A route found for the request, as `preRoute` resolves it. */
type Route = Exclude<Resolution<RouteHandler>, { kind: 'none' }>;

/**
 * One request on `HttpServer`, from its headers to its answer: checks, routing, the body read when
 * the handler asks (and only then), the answer written once, compressed when the client asks. It
 * is also the request a registry endpoint sees: its `signal` is made on first use (most calls never
 * look), and aborts when the client disconnects before the answer is written, or when the server
 * gives up on the call (handler timeout, shutdown). One object per request rather than a closure
 * per step, so that a small call allocates less.
 */
export class Exchange implements EndpointRequest, InFlight {
  readonly method: string;
  readonly headers: NodeHeaders;
  readonly requestId: string;
  /** Relative to the mount prefix, once routed to an endpoint. */
  path = '';
  /** The mount prefix, once routed to an endpoint. */
  prefix = '';
  /** The query, without `?`. */
  search = '';
  readonly #state: ServerState;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #head: boolean;
  /** CORS headers of an allowed origin, added to every answer. */
  readonly #cors: Record<string, string> | undefined;
  #route: Route | undefined;
  #target: Target | undefined;
  /** What `onError` is told of the request: made for a plain route's handler, else when a report needs it. */
  #request: HttpRequest | undefined;
  #limit = Infinity;
  #bodyRead = false;
  /** A client waiting for `100 Continue` that has not been told to send its body. */
  #waiting: boolean;
  /** The status written, once an answer is. */
  #written: number | undefined;
  #ip: { readonly value: string | undefined } | undefined;
  #controller: AbortController | undefined;
  #reason: unknown;
  /** Whether the call counts in the server's `load` (from routing until its handler settles). */
  #entered = false;
  /** The body bytes this call counts in the server's `load`. */
  #held = 0;
  // The links of the server's in-flight list (see InFlightCalls).
  deadline = -1;
  earlier: Exchange | undefined;
  later: Exchange | undefined;

  constructor(state: ServerState, req: IncomingMessage, res: ServerResponse, expectContinue: boolean) {
    this.#state = state;
    this.#req = req;
    this.#res = res;
    this.#waiting = expectContinue;
    this.method = req.method ?? 'GET';
    this.#head = this.method === 'HEAD';
    this.headers = new NodeHeaders(req.headers, req.rawHeaders);
    this.requestId = requestIdFor(this.headers.get('x-request-id'));
    const cors = state.options.cors;
    const origin = cors === undefined ? null : this.headers.get('origin');
    this.#cors = cors !== undefined && origin !== null && originAllowed(cors, origin) ? corsHeaders(cors, origin) : undefined;
  }

  /**
   * Answers the request. A fault of the server itself is answered 500 (or ends the connection):
   * thrown at once, or, for a plain route's handler, as the promise's rejection.
   */
  run(): void | Promise<void> {
    const { options, routes, calls } = this.#state;
    const req = this.#req;
    if (req.rawHeaders.length > 2 * options.maxHeadersCount) {
      // Node's parser frames the body from every line it parsed, so framing is sound; but Node
      // hands JavaScript only the first lines: the headers seen here would be incomplete.
      return this.#send(problemResponse(problem(431, `more than ${options.maxHeadersCount} header lines`), null), true);
    }
    if (req.headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
      return this.#send(problemResponse(problem(400, 'an HTTP/1.1 request must carry a Host header'), null), true);
    }
    const routing = preRoute(routes, this.method, req.url ?? '', this.headers, options.cors, this.#cors !== undefined);
    if (routing.kind === 'answer') return this.#send(routing.answer, routing.close);
    const { target, route } = routing;
    this.#route = route;
    this.#target = target;
    this.search = target.search;
    this.#limit = Math.min(options.maxBodyBytes, route.kind === 'endpoint' ? route.limit ?? Infinity : Infinity);
    // Counted until its handler settles, even when abandoned: it still holds its arguments.
    if (!this.#state.load.enter()) return this.#send(this.#busy('calls'));
    this.#entered = true;
    // Until it answers, the call can be answered for it: on timeout, or on shutdown (`abandon`).
    calls.add(this, performance.now() + (options.handlerTimeoutMs || Infinity));
    if (route.kind === 'route') return this.#runRoute(route.handler, route.params);
    this.path = route.path;
    this.prefix = route.prefix;
    let answer: ReturnType<Handler>;
    try {
      answer = route.handler(this);
    } catch (error) {
      this.#settled();
      throw error;
    }
    if (!(answer instanceof Promise)) {
      this.#settled();
      return this.#send(answer);
    }
    // Handled here rather than by the caller: one promise less per call that awaits something.
    void answer.then((own) => {
      this.#settled();
      try {
        this.#send(own);
      } catch (error) {
        answerInternalError(error, this.#req, this.#res);
      }
    }, (error: unknown) => {
      this.#settled();
      answerInternalError(error, this.#req, this.#res);
    });
  }

  /** The handler settled (or threw): the call leaves the in-flight list, and counts out with its body bytes. */
  #settled(): void {
    this.#state.calls.remove(this);
    if (!this.#entered) return;
    this.#entered = false;
    this.#state.load.leave(this.#held);
    this.#held = 0;
  }

  /** The 503 of a server holding too much (`maxCallsInFlight`, `maxBufferedBodyBytes`), with `Retry-After`. */
  #busy(what: 'calls' | 'bytes'): EndpointResponse {
    return this.#problem(busy(what, this.#state.load), busyHeaders());
  }

  /** A plain route: the body read whole first, then the handler with `HttpRequest` and `HttpResponse`. */
  async #runRoute(handler: RouteHandler, params: Readonly<Record<string, string>>): Promise<void> {
    try {
      const pending = this.body();
      const read = pending instanceof Promise ? await pending : pending;
      if (!(read instanceof Uint8Array)) return this.#send(read);
      const response = new HttpResponse();
      const request = (this.#request = this.#requestWith(params, read));
      try {
        await handler(request, response);
      } catch (error) {
        const doc = problemForError(error, this.#state.options.exposeErrors);
        if (doc.status >= 500) doc.requestId = this.requestId;
        this.#report(error, request, doc.status);
        return this.#send(this.#problem(doc, errorHeaders(error)));
      }
      this.#send(response.toEndpointResponse());
    } finally {
      this.#settled();
    }
  }

  /**
   * Reads the body (what `BodySource` asks): the bytes, or the answer instead. Read when the
   * handler asks, so that an endpoint refusing the caller never reads the body (and a client
   * waiting for 100 Continue is told to send it only then). No `Connection: close` on a 413: Node
   * would close at once, resetting a client that is still sending. A body with Content-Encoding is
   * inflated, the limit applying to what it inflates to (and to the bytes received); an unknown
   * coding is refused before anything is read.
   */
  body(): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> {
    const req = this.#req;
    const coding = requestBodyCoding(req.headers['content-encoding'], NODE_REQUEST_CODINGS);
    if (coding.kind === 'unsupported') return this.#problem(coding.problem, coding.headers);
    const declared = declaredLength(req);
    if (declared !== undefined && declared > this.#limit) return this.#problem(bodyOverLimit(this.#limit));
    if (declared !== undefined && !this.#state.load.fits(declared)) return this.#busy('bytes');
    if (this.#waiting) {
      this.#res.writeContinue();
      this.#waiting = false;
    }
    const empty = emptyBody(req);
    if (empty?.kind === 'ok') {
      this.#bodyRead = true;
      return empty.body;
    }
    return this.#readWhole(coding);
  }

  #readWhole(coding: Exclude<BodyCoding, { kind: 'unsupported' }>): Promise<Uint8Array | EndpointResponse> {
    return new Promise((resolve) => readBody(this.#req, this.#limit, this.#state.load, (read) => resolve(this.#received(read, coding))));
  }

  /** The body read whole (or not), inflated if it is coded: the bytes, or the answer instead. */
  #received(read: BodyResult, coding: Exclude<BodyCoding, { kind: 'unsupported' }>): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> {
    const limit = this.#limit;
    if (read.kind === 'too-large') return this.#problem(bodyOverLimit(limit));
    if (read.kind === 'busy') return this.#busy('bytes');
    if (read.kind === 'aborted') return this.#problem(problem(400, 'the request body broke off'));
    this.#bodyRead = true;
    // Counted in the server's load by `readBody` as it arrived; counted out when the call settles.
    this.#held += read.body.byteLength;
    const body = decodedBody(coding, read.body, limit, inflate);
    if (body instanceof Uint8Array) return body;
    return body.then((inflated) => {
      if (!(inflated instanceof Uint8Array)) return this.#problem(inflated);
      // What a body inflates to is held too.
      if (!this.#state.load.take(inflated.byteLength)) return this.#busy('bytes');
      this.#held += inflated.byteLength;
      return inflated;
    });
  }

  /** The status answered already, when the server answered for the handler (timeout, shutdown). */
  get sentStatus(): number | undefined {
    return this.#written;
  }

  /** `[req]`: Node's `IncomingMessage`, for what the call does not carry (TLS details, say). */
  get platform(): readonly unknown[] {
    return [this.#req];
  }

  /** The client's address, as `trustProxy` decides; worked out on first use (most calls never ask). */
  get ip(): string | undefined {
    this.#ip ??= { value: clientAddress(this.#req.socket.remoteAddress, this.headers.get('x-forwarded-for'), this.#state.options.trustProxy) };
    return this.#ip.value;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const res = this.#res;
      if (this.#reason !== undefined) controller.abort(this.#reason);
      else if (this.#req.socket.destroyed && !res.writableFinished) controller.abort(clientGone());
      else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(clientGone());
        });
      }
    }
    return this.#controller.signal;
  }

  /**
   * Answers the call for its handler, which has not answered (timeout, shutdown): `doc` is sent,
   * `reason` aborts the call's signal and is reported to `onError`, as a handler's failure is.
   * What the handler answers later is dropped.
   */
  abandon(doc: ProblemDocument, reason: Error): void {
    this.#reason ??= reason;
    this.#controller?.abort(reason);
    doc.requestId = this.requestId;
    try {
      this.#send(this.#problem(doc));
    } catch (error) {
      this.#res.destroy();
      throw error;
    } finally {
      const route = this.#route;
      this.#report(reason, this.#request ?? this.#requestWith(route?.kind === 'route' ? route.params : {}, EMPTY), doc.status);
    }
  }

  /** The request as route handlers and `onError` see it. */
  #requestWith(params: Readonly<Record<string, string>>, body: Uint8Array): HttpRequest {
    const target = this.#target!;
    return new HttpRequest(this.method, target.path, params, target.query, this.headers, body, this.requestId, this.ip);
  }

  /** A problem document in a codec of the route's registry that the client accepts. */
  #problem(doc: ProblemDocument, more?: HeaderValues): EndpointResponse {
    return problemResponse(doc, this.headers.get('accept'), this.#route?.codecs, more);
  }

  /** Sends `answer` unless one was sent: with CORS headers and `x-request-id`, compressed when asked. */
  #send(answer: EndpointResponse, close = false): void {
    if (this.#written !== undefined) return answer.written?.(this.#written);
    this.#written = answer.status;
    const merged = this.#cors === undefined ? answer : { ...answer, headers: mergeHeaders(answer.headers, this.#cors) };
    merged.headers['x-request-id'] = this.requestId;
    // Without Accept-Encoding (every benchmark client, curl by default) this lookup is all it costs.
    const acceptEncoding = this.#req.headers['accept-encoding'];
    const coding = acceptEncoding === undefined ? undefined : this.#state.options.compression?.plan(merged, this.#head, acceptEncoding);
    if (coding === undefined) return this.#deliver(answer, merged, close);
    // Compressed in zlib's thread pool; `#written` is set, so nothing else answers meanwhile.
    compress(coding, merged.body!).then((bytes) => {
      markEncoded(merged.headers, coding);
      this.#deliver(answer, { ...merged, body: bytes }, close);
    }, (error: unknown) => {
      console.error('lacquer/http: compressing an answer failed; sent uncompressed', error);
      this.#deliver(answer, merged, close);
    }).catch((error: unknown) => {
      console.error('lacquer/http: internal error', error);
      this.#res.destroy();
    });
  }

  #deliver(answer: EndpointResponse, merged: EndpointResponse, close: boolean): void {
    const req = this.#req;
    const early = !this.#bodyRead && !req.complete;
    // A client still waiting for 100 Continue may or may not send its body now: close.
    const bytes = writeResponse(this.#res, merged, this.#head, close || this.#state.draining || (early && this.#waiting));
    written(req.socket, this.#res, bytes);
    // Answered before the body was read: drop it, but not forever.
    if (early) discardRest(req);
    answer.written?.(answer.status);
  }

  #report(error: unknown, request: HttpRequest, status: number): void {
    try {
      this.#state.options.onError(error, request, status);
    } catch {
      // A failing error hook must not take the answer down with it.
    }
  }
}

function clientGone(): DOMException {
  return new DOMException('the client went away before the answer was written', 'AbortError');
}
