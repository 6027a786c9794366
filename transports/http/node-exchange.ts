import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorHeaders, problem, problemForError, problemResponse } from '../protocol/problem.ts';
import type { EndpointResponse } from '../protocol/types.ts';
import { clientAddress } from '../protocol/client-address.ts';
import { clientGone, Exchange } from '../protocol/pipeline/exchange.ts';
import type { Pipeline } from '../protocol/pipeline/pipeline.ts';
import { EMPTY_BODY, type BodyCollector, type BodyResult } from '../protocol/pipeline/request-body.ts';
import { bodyIsEmpty, discardRest, readBody } from './body.ts';
import { written, type Connections } from './connection.ts';
import type { ResolvedOptions } from './options.ts';
import { HttpRequest, NodeHeaders } from './request.ts';
import { HttpResponse } from './response.ts';
import type { RouteHandler } from './route-handler.ts';
import { answerInternalError, writeResponse } from './write.ts';

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** What the exchanges of one `HttpServer` share: the pipeline, the server's own options, its connections. */
export interface NodeServer {
  readonly pipeline: Pipeline<RouteHandler>;
  readonly options: ResolvedOptions;
  readonly connections: Connections;
}

/**
 * One request on `HttpServer`: the pipeline's {@link Exchange} on Node's request and response. It
 * adds what only Node knows: the checks of the request's head, `100 Continue`, the body's bytes
 * from Node's stream, writing through Node with the connection's accounting, the plain routes.
 */
export class NodeExchange extends Exchange<RouteHandler> {
  readonly #server: NodeServer;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  /** A client waiting for `100 Continue` that has not been told to send its body. */
  #waiting: boolean;
  #ip: { readonly value: string | undefined } | undefined;
  /** What `onError` is told of the request: made for a plain route's handler, else when a report needs it. */
  #request: HttpRequest | undefined;
  /** A plain route's `:param` values. */
  #params: Readonly<Record<string, string>> = NO_PARAMS;

  constructor(server: NodeServer, req: IncomingMessage, res: ServerResponse, expectContinue: boolean) {
    super(server.pipeline, req.method ?? 'GET', new NodeHeaders(req.headers, req.rawHeaders));
    this.#server = server;
    this.#req = req;
    this.#res = res;
    this.#waiting = expectContinue;
  }

  /** Answers the request. A fault of the server itself is answered 500 (or ends the connection). */
  start(): void {
    const req = this.#req;
    const { maxHeadersCount } = this.#server.options;
    if (req.rawHeaders.length > 2 * maxHeadersCount) {
      // Node's parser frames the body from every line it parsed, so framing is sound; but Node
      // hands JavaScript only the first lines: the headers seen here would be incomplete.
      return this.send(problemResponse(problem(431, `more than ${maxHeadersCount} header lines`), null), true);
    }
    if (req.headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
      return this.send(problemResponse(problem(400, 'an HTTP/1.1 request must carry a Host header'), null), true);
    }
    this.run(req.url ?? '');
  }

  /** `[req]`: Node's `IncomingMessage`, for what the call does not carry (TLS details, say). */
  get platform(): readonly unknown[] {
    return [this.#req];
  }

  /** The client's address, as `trustProxy` decides; worked out on first use (most calls never ask). */
  get ip(): string | undefined {
    this.#ip ??= {
      value: clientAddress(
        this.#req.socket.remoteAddress,
        this.headers.get('x-forwarded-for'),
        this.#server.options.trustProxy,
      ),
    };
    return this.#ip.value;
  }

  protected declaredLength(): number | undefined {
    // Node has already checked its syntax.
    const value = this.#req.headers['content-length'];
    return value === undefined ? undefined : Number(value);
  }

  protected bodyIsEmpty(): boolean {
    return bodyIsEmpty(this.#req);
  }

  /** The client is told to send its body only now that it will be read (no `Connection: close` on a 413: Node would close at once, resetting a client still sending). */
  protected override willRead(): void {
    if (this.#waiting) {
      this.#res.writeContinue();
      this.#waiting = false;
    }
  }

  protected readBody(collector: BodyCollector, done: (result: BodyResult) => void): void {
    readBody(this.#req, collector, done);
  }

  protected readChunks(): AsyncIterable<Uint8Array> {
    // A loop left early leaves the request to be discarded after the answer, not destroyed with its socket.
    return this.#req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
  }

  protected acceptEncoding(): string | undefined {
    return this.#req.headers['accept-encoding'];
  }

  protected write(answer: EndpointResponse, _encoded: boolean, close: boolean): void {
    const req = this.#req;
    const early = !this.bodyRead && !req.complete;
    // A client still waiting for 100 Continue may or may not send its body now: close.
    const bytes = writeResponse(this.#res, answer, this.head, close || (early && this.#waiting));
    written(req.socket, this.#res, bytes);
    // Answered before the body was read: drop it, but not forever.
    if (early) discardRest(req);
  }

  protected watchClient(controller: AbortController): void {
    const res = this.#res;
    if (this.#req.socket.destroyed && !res.writableFinished) controller.abort(clientGone());
    else {
      res.once('close', () => {
        if (!res.writableFinished) controller.abort(clientGone());
      });
    }
  }

  /** A plain route: the body read whole first, then the handler with `HttpRequest` and `HttpResponse`. */
  protected async runRoute(handler: RouteHandler, params: Readonly<Record<string, string>>): Promise<void> {
    this.#params = params;
    const pending = this.body();
    const read = pending instanceof Promise ? await pending : pending;
    if (!(read instanceof Uint8Array)) return this.send(read);
    const response = new HttpResponse();
    const request = (this.#request = this.#requestWith(params, read));
    try {
      await handler(request, response);
    } catch (error) {
      const doc = problemForError(error, this.#server.options.exposeErrors);
      if (doc.status >= 500) doc.requestId = this.requestId;
      this.#report(error, request, doc.status);
      return this.send(this.problem(doc, errorHeaders(error)));
    }
    this.send(response.toEndpointResponse());
  }

  protected fault(error: unknown): void {
    answerInternalError(error, this.#req, this.#res);
  }

  protected abandoned(reason: Error, status: number): void {
    this.#report(reason, this.#request ?? this.#requestWith(this.#params, EMPTY_BODY), status);
  }

  /** The request as route handlers and `onError` see it. */
  #requestWith(params: Readonly<Record<string, string>>, body: Uint8Array): HttpRequest {
    const target = this.target;
    return new HttpRequest(
      this.method,
      target?.path ?? '',
      params,
      target?.query ?? new URLSearchParams(),
      this.headers as NodeHeaders,
      body,
      this.requestId,
      this.ip,
    );
  }

  #report(error: unknown, request: HttpRequest, status: number): void {
    try {
      this.#server.options.onError(error, request, status);
    } catch {
      // A failing error hook must not take the answer down with it.
    }
  }
}
