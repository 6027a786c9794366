import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import type { HttpMethod } from '../../core/contract/method.ts';
import { problem, problemForError, problemResponse, type ProblemDocument } from '../rest/problem.ts';
import type { EndpointResponse, Handler, HeaderValues } from '../rest/types.ts';
import { requestIdFor } from '../rest/request-id.ts';
import { clientAddress } from '../rest/client-address.ts';
import { NodeEndpointRequest } from './endpoint-request.ts';
import { declaredLength, discardRest, emptyBody, readBody } from './body.ts';
import { corsHeaders, mergeHeaders, originAllowed } from '../rest/cors.ts';
import { preRoute } from '../rest/pre-route.ts';
import { resolveOptions, type HttpServerOptions, type ResolvedOptions } from './options.ts';
import { HttpRequest, NodeHeaders } from './request.ts';
import { HttpResponse } from './response.ts';
import { RouteTable, type MountableEndpoints } from '../rest/route-table.ts';
import type { RouteHandler } from './route-handler.ts';
import { answerClientError, answerConnect, answerExpectation, writeResponse } from './write.ts';
import { admit, onIdle, release, track } from './connection.ts';
import { markEncoded, requestBodyCoding, type BodyCoding } from '../rest/content-coding.ts';
import { bodyOverLimit, decodedBody } from '../rest/request-body.ts';
import { compress, inflate, NODE_REQUEST_CODINGS } from './coding.ts';

const EMPTY = new Uint8Array(0);

/** Node's diagnostics channel announcing each answer sent by an HTTP server. */
const ANSWERED = 'http.server.response.finish';

/**
 * The embedded HTTP/1.1 server on `node:http`: registries are mounted under a prefix, plain routes
 * are added with `get/post/put/delete`, and `withSignals()` turns SIGINT/SIGTERM into a graceful
 * shutdown that lets in-flight requests finish.
 */
export class HttpServer {
  readonly #options: ResolvedOptions;
  readonly #routes = new RouteTable<RouteHandler>();
  readonly #server: Server;
  #port = 0;
  #host = '127.0.0.1';
  #draining = false;
  #stopped: Promise<void> | undefined;
  /** A `start()` whose `listen` has not completed yet (settles either way): `stop()` waits for it. */
  #starting: Promise<void> | undefined;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;
  #signals: (() => void) | undefined;
  /**
   * Calls in flight (handlers running), each by the function answering it with a problem document
   * and reporting why to `onError`, to its deadline (`performance.now()`, monotonic). All share one
   * timeout, so insertion order is deadline order.
   */
  readonly #calls = new Map<(doc: ProblemDocument, reason: Error) => void, number>();
  /** One timer per server answers the calls past `handlerTimeoutMs`. */
  #sweeper: NodeJS.Timeout | undefined;

  constructor(options: HttpServerOptions = {}) {
    this.#options = resolveOptions(options);
    const o = this.#options;
    const timeouts = [o.headersTimeoutMs, o.requestTimeoutMs].filter((t) => t > 0);
    this.#server = createServer({
      requestTimeout: o.requestTimeoutMs,
      headersTimeout: o.headersTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default), which would make them late.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, ...timeouts.map((t) => t / 2))),
      // Checked in #handle, to answer with a problem document rather than Node's bare 400.
      requireHostHeader: false,
    });
    // One more than the limit, so that `rawHeaders` shows a request over it (Node drops the rest).
    // Node reads 0 as "no limit"; `Infinity + 1` would not do (Node computes `max << 1`, which is 0
    // for Infinity by chance only, and wraps for large finite values: those are refused in options).
    this.#server.maxHeadersCount = o.maxHeadersCount === Infinity ? 0 : o.maxHeadersCount + 1;
    this.#server.on('checkExpectation', answerExpectation);
    this.#server.on('connect', answerConnect);
    this.#server.keepAliveTimeout = o.keepAliveTimeoutMs;
    // Node's idle timer per connection, refreshed by every byte read or written: it notices an
    // answer stalled on a client that does not read (onIdle), at no cost per request.
    this.#server.timeout = o.writeTimeoutMs;
    this.#server.on('timeout', onIdle);
    this.#server.on('connection', track);
    this.#server.maxConnections = o.maxConnections;
    this.#server.on('request', (req, res) => this.#dispatch(req, res, false));
    this.#server.on('checkContinue', (req, res) => this.#dispatch(req, res, true));
    this.#server.on('clientError', answerClientError);
    this.#closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  /** Serves `endpoints` (a registry's) under `prefix`: `mount('/api', registry.endpoints)`. */
  mount(prefix: string, endpoints: MountableEndpoints): this {
    this.#routes.mount(prefix, endpoints);
    return this;
  }

  /** Adds a route; `path` may hold `:param` segments (`/users/:id`). */
  route(method: HttpMethod, path: string, handler: RouteHandler): this {
    this.#routes.add(method, path, handler);
    return this;
  }

  /** Adds a GET route (HEAD is answered by it too). */
  get(path: string, handler: RouteHandler): this { return this.route('GET', path, handler); }
  /** Adds a POST route. */
  post(path: string, handler: RouteHandler): this { return this.route('POST', path, handler); }
  /** Adds a PUT route. */
  put(path: string, handler: RouteHandler): this { return this.route('PUT', path, handler); }
  /** Adds a DELETE route. */
  delete(path: string, handler: RouteHandler): this { return this.route('DELETE', path, handler); }
  /** Adds a PATCH route. */
  patch(path: string, handler: RouteHandler): this { return this.route('PATCH', path, handler); }

  /** Chooses the port (0 picks a free one; `port` tells which after `start`) and the host, loopback by default. */
  bind(port: number, host = '127.0.0.1'): this {
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`bind(): ${port} is not a port number`);
    this.#port = port;
    this.#host = host;
    return this;
  }

  /** The port listened on (the chosen one once started). */
  get port(): number {
    const address = this.#server.address();
    return address !== null && typeof address === 'object' ? (address as AddressInfo).port : this.#port;
  }

  /** `http://host:port`, for messages and clients. */
  get url(): string {
    return `http://${this.#host.includes(':') ? `[${this.#host}]` : this.#host}:${this.port}`;
  }

  /** Makes SIGINT and SIGTERM start a graceful shutdown; a second signal closes every connection at once. */
  withSignals(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): this {
    if (this.#signals !== undefined) return this;
    const onSignal = () => {
      if (this.#draining) this.#server.closeAllConnections();
      else void this.stop();
    };
    for (const s of signals) process.on(s, onSignal);
    this.#signals = () => {
      for (const s of signals) process.off(s, onSignal);
    };
    return this;
  }

  /** Starts listening; resolves once it does. A server cannot be started again after `stop()`. */
  start(): Promise<this> {
    if (this.#draining) return Promise.reject(new Error('HttpServer: start() after stop()'));
    const timeout = this.#options.handlerTimeoutMs;
    if (timeout > 0 && this.#sweeper === undefined) {
      this.#sweeper = setInterval(() => this.#sweep(), Math.min(1000, Math.max(10, timeout / 10))).unref();
    }
    const started = new Promise<this>((resolve, reject) => {
      // One line that names the address, with the system's code kept (`error.code === 'EADDRINUSE'`).
      const onError = (error: NodeJS.ErrnoException) => {
        const failure: NodeJS.ErrnoException = new Error(`HttpServer: cannot listen on ${this.#host}:${this.#port}: ${error.message}`, { cause: error });
        if (error.code !== undefined) failure.code = error.code;
        reject(failure);
      };
      this.#server.once('error', onError);
      this.#server.listen(this.#port, this.#host, () => {
        this.#server.off('error', onError);
        resolve(this);
      });
    });
    const starting: Promise<void> = started.then(() => {}, () => {}).finally(() => {
      if (this.#starting === starting) this.#starting = undefined;
    });
    this.#starting = starting;
    return started;
  }

  /**
   * Resolves once the server has shut down (after a signal or `stop()`): every call has answered,
   * or was answered 503 and abandoned at `drainTimeoutMs`, and every connection is closed.
   */
  waitForSignal(): Promise<void> {
    return this.#closed;
  }

  /**
   * Shuts down gracefully: stops accepting connections, closes idle keep-alive connections, lets
   * in-flight requests finish (their connections close after the answer). After `drainTimeoutMs`,
   * calls still running are answered 503 and abandoned (what they answer later is dropped), and the
   * remaining connections are closed. Resolves once every connection is closed.
   */
  stop(): Promise<void> {
    if (this.#stopped !== undefined) return this.#stopped;
    this.#draining = true;
    // Called while `listen` is pending: the server would start serving after a close that found it
    // not listening. Shut down once it listens (or failed to).
    const starting = this.#starting;
    this.#stopped = starting === undefined ? this.#shutDown() : starting.then(() => this.#shutDown());
    return this.#stopped;
  }

  #shutDown(): Promise<void> {
    return new Promise<void>((resolve) => {
      // A keep-alive connection whose answer was under way when the drain began goes idle when
      // that answer is sent: close it then. Node announces every finished answer on this channel;
      // listening only while draining keeps the cost off ordinary requests.
      const onAnswered = (message: unknown) => {
        if ((message as { server?: unknown }).server === this.#server) setImmediate(() => this.#server.closeIdleConnections());
      };
      subscribe(ANSWERED, onAnswered);
      const finish = () => {
        unsubscribe(ANSWERED, onAnswered);
        clearTimeout(timer);
        clearInterval(this.#sweeper);
        this.#signals?.();
        this.#markClosed();
        resolve();
      };
      const timer = setTimeout(() => {
        const ms = this.#options.drainTimeoutMs;
        this.#abandon(Infinity, problem(503, 'the server is shutting down and the call did not finish in time'),
          new Error(`call still running ${ms} ms into shutdown (drainTimeoutMs)`));
        // The 503s are with the kernel by now; what is left (requests still arriving) is cut.
        setImmediate(() => this.#server.closeAllConnections());
      }, this.#options.drainTimeoutMs);
      if (!this.#server.listening) return finish();
      this.#server.close(() => finish());
      this.#server.closeIdleConnections();
    });
  }

  #dispatch(req: IncomingMessage, res: ServerResponse, expectContinue: boolean): void {
    // A client with too many requests awaiting answers is disconnected, the rest of its flood unhandled.
    if (!admit(req.socket, this.#options.maxPipelinedRequests)) return;
    this.#handle(req, res, expectContinue).catch((error: unknown) => {
      // A fault of the server itself: answer if still possible, never crash.
      console.error('lacquer/http: internal error', error);
      if (!res.headersSent) {
        release(req.socket);
        writeResponse(res, problemResponse(problem(500), null), false, true);
      } else res.destroy();
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse, expectContinue: boolean): Promise<void> {
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    const headers = new NodeHeaders(req.headers, req.rawHeaders);
    const requestId = requestIdFor(headers.get('x-request-id'));
    const origin = headers.get('origin');
    const cors = this.#options.cors;
    const allowedOrigin = cors !== undefined && origin !== null && originAllowed(cors, origin);
    const extra = allowedOrigin ? corsHeaders(cors, origin) : undefined;
    let bodyRead = false;
    let waiting = expectContinue;
    /** The status written, once an answer is. */
    let written: number | undefined;
    const deliver = (answer: EndpointResponse, merged: EndpointResponse, close: boolean) => {
      release(req.socket);
      const early = !bodyRead && !req.complete;
      // A client still waiting for 100 Continue may or may not send its body now: close.
      writeResponse(res, merged, head, close || this.#draining || (early && waiting));
      // Answered before the body was read: drop it, but not forever.
      if (early) discardRest(req);
      answer.written?.(answer.status);
    };
    const send = (answer: EndpointResponse, close = false) => {
      if (written !== undefined) return answer.written?.(written);
      written = answer.status;
      const merged = extra === undefined ? answer : { ...answer, headers: mergeHeaders(answer.headers, extra) };
      merged.headers['x-request-id'] = requestId;
      // Without Accept-Encoding (every benchmark client, curl by default) this lookup is all it costs.
      const acceptEncoding = req.headers['accept-encoding'];
      const coding = acceptEncoding === undefined ? undefined : this.#options.compression?.plan(merged, head, acceptEncoding);
      if (coding === undefined) return deliver(answer, merged, close);
      // Compressed in zlib's thread pool; `written` is set, so nothing else answers meanwhile.
      compress(coding, merged.body!).then((bytes) => {
        markEncoded(merged.headers, coding);
        deliver(answer, { ...merged, body: bytes }, close);
      }, (error: unknown) => {
        console.error('lacquer/http: compressing an answer failed; sent uncompressed', error);
        deliver(answer, merged, close);
      }).catch((error: unknown) => {
        console.error('lacquer/http: internal error', error);
        res.destroy();
      });
    };

    if (req.rawHeaders.length > 2 * this.#options.maxHeadersCount) {
      // Node's parser frames the body from every line it parsed, so framing is sound; but Node
      // hands JavaScript only the first lines: the headers seen here would be incomplete.
      return send(problemResponse(problem(431, `more than ${this.#options.maxHeadersCount} header lines`), null), true);
    }
    if (req.headers.host === undefined && req.httpVersionMinor === 1 && req.httpVersionMajor === 1) {
      return send(problemResponse(problem(400, 'an HTTP/1.1 request must carry a Host header'), null), true);
    }
    const routing = preRoute(this.#routes, method, req.url ?? '', headers, cors, allowedOrigin);
    if (routing.kind === 'answer') return send(routing.answer, routing.close);
    const { target, route } = routing;
    const problemAnswer = (doc: ProblemDocument, more?: HeaderValues) => problemResponse(doc, headers.get('accept'), route.codecs, more);

    const limit = Math.min(this.#options.maxBodyBytes, route.kind === 'endpoint' ? route.limit ?? Infinity : Infinity);
    // Read when the handler asks, so that an endpoint refusing the caller never reads the body (and
    // a client waiting for 100 Continue is told to send it only then). No `Connection: close` on a
    // 413: Node would close at once, resetting a client that is still sending.
    // A body with Content-Encoding is inflated, the limit applying to what it inflates to (and to
    // the bytes received); an unknown coding is refused before anything is read.
    const readRequestBody = (): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> => {
      const coding = requestBodyCoding(req.headers['content-encoding'], NODE_REQUEST_CODINGS);
      if (coding.kind === 'unsupported') return problemAnswer(coding.problem, coding.headers);
      const declared = declaredLength(req);
      if (declared !== undefined && declared > limit) return problemAnswer(bodyOverLimit(limit));
      if (waiting) {
        res.writeContinue();
        waiting = false;
      }
      const empty = emptyBody(req);
      if (empty?.kind === 'ok') {
        bodyRead = true;
        return empty.body;
      }
      return readWhole(coding);
    };
    const readWhole = async (coding: Exclude<BodyCoding, { kind: 'unsupported' }>): Promise<Uint8Array | EndpointResponse> => {
      const read = await readBody(req, limit);
      if (read.kind === 'too-large') return problemAnswer(bodyOverLimit(limit));
      if (read.kind === 'aborted') return problemAnswer(problem(400, 'the request body broke off'));
      bodyRead = true;
      const body = await decodedBody(coding, read.body, limit, inflate);
      return body instanceof Uint8Array ? body : problemAnswer(body);
    };
    // Worked out on first use: most calls never ask.
    let ip: { readonly value: string | undefined } | undefined;
    const address = () => (ip ??= { value: clientAddress(req.socket.remoteAddress, headers.get('x-forwarded-for'), this.#options.trustProxy) }).value;

    // Built for a route handler; for an endpoint only when a report needs it.
    const params = route.kind === 'route' ? route.params : {};
    let body: Uint8Array = EMPTY;
    let request: HttpRequest | undefined;
    const requestOf = (): HttpRequest => (request ??= new HttpRequest(method, target.path, params, target.query, headers, body, requestId, address()));
    const endpointRequest = route.kind === 'endpoint'
      ? new NodeEndpointRequest(method, route.path, headers, readRequestBody, target.search, requestId, address, req, res)
      : undefined;
    // Until it answers, the call can be answered for it: on timeout, or on shutdown (`#abandon`).
    // Either is reported to `onError`, as a handler's failure is, and aborts the call's signal.
    const abandon = (doc: ProblemDocument, reason: Error) => {
      endpointRequest?.abort(reason);
      doc.requestId = requestId;
      try {
        send(problemAnswer(doc));
      } catch (error) {
        res.destroy();
        throw error;
      } finally {
        this.#report(reason, requestOf(), doc.status);
      }
    };
    const calls = this.#calls;
    calls.set(abandon, performance.now() + (this.#options.handlerTimeoutMs || Infinity));
    try {
      if (endpointRequest !== undefined) return send(await (route as { handler: Handler }).handler(endpointRequest));
      const pending = readRequestBody();
      const read = pending instanceof Promise ? await pending : pending;
      if (!(read instanceof Uint8Array)) return send(read);
      body = read;
      const response = new HttpResponse();
      const request = requestOf();
      try {
        await (route as { handler: RouteHandler }).handler(request, response);
      } catch (error) {
        const doc = problemForError(error, this.#options.exposeErrors);
        if (doc.status >= 500) doc.requestId = requestId;
        this.#report(error, request, doc.status);
        return send(problemAnswer(doc));
      }
      send(response.toEndpointResponse());
    } finally {
      calls.delete(abandon);
    }
  }

  /** Answers the calls past their deadline with 503 (the handler timeout). */
  #sweep(): void {
    const now = performance.now();
    const first = this.#calls.values().next();
    if (first.done === true || first.value > now) return;
    const ms = this.#options.handlerTimeoutMs;
    this.#abandon(now, problem(503, `the handler did not answer within ${ms} ms`), new Error(`handler timed out after ${ms} ms`));
  }

  /**
   * Answers every call whose deadline is at or before `until` with `doc` and reports `reason`;
   * their own answers will be dropped. Runs from a timer: a failure is logged, never thrown.
   */
  #abandon(until: number, doc: ProblemDocument, reason: Error): void {
    for (const [abandon, deadline] of this.#calls) {
      if (deadline > until) break;
      this.#calls.delete(abandon);
      try {
        abandon(doc, reason);
      } catch (error) {
        console.error('lacquer/http: internal error answering an abandoned call', error);
      }
    }
  }

  #report(error: unknown, request: HttpRequest, status: number): void {
    try {
      this.#options.onError(error, request, status);
    } catch {
      // A failing error hook must not take the answer down with it.
    }
  }
}
