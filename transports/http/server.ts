import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import type { HttpMethod } from '../../core/contract/method.ts';
import { problem } from '../protocol/problem.ts';
import { resolveOptions, type HttpServerOptions, type ResolvedOptions } from './options.ts';
import type { MountableEndpoints } from '../protocol/pipeline/route-table.ts';
import type { RouteHandler } from './route-handler.ts';
import { answerClientError, answerConnect, answerExpectation, answerInternalError } from './write.ts';
import { Connections, onIdle } from './connection.ts';
import { Pipeline } from '../protocol/pipeline/pipeline.ts';
import { NODE_CODINGS } from './coding.ts';
import { NodeExchange, type NodeServer } from './node-exchange.ts';

/** Node's diagnostics channel announcing each answer sent by an HTTP server. */
const ANSWERED = 'http.server.response.finish';

/**
 * The embedded HTTP/1.1 server on `node:http`: registries are mounted under a prefix, plain routes
 * are added with `get/post/put/delete`, and `withSignals()` turns SIGINT/SIGTERM into a graceful
 * shutdown that lets in-flight requests finish.
 */
export class HttpServer {
  readonly #options: ResolvedOptions;
  readonly #server: Server;
  #port = 0;
  #host = '127.0.0.1';
  #stopped: Promise<void> | undefined;
  /** A `start()` whose `listen` has not completed yet (settles either way): `stop()` waits for it. */
  #starting: Promise<void> | undefined;
  readonly #closed: Promise<void>;
  #markClosed!: () => void;
  #signals: (() => void) | undefined;
  /** What the exchanges (one per request) share: the pipeline, the options, the connections. */
  readonly #state: NodeServer;

  constructor(options: HttpServerOptions = {}) {
    this.#options = resolveOptions(options);
    const o = this.#options;
    this.#state = {
      options: o,
      pipeline: new Pipeline<RouteHandler>(o, NODE_CODINGS),
      connections: new Connections(
        o.maxPipelinedRequests,
        o.maxQueuedAnswerBytes,
        o.writeTimeoutMs,
        (req, res, expectContinue) => this.#run(req, res, expectContinue),
      ),
    };
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
    // Node's idle timer per connection, refreshed by every byte read or written: it closes idle
    // connections (onIdle). Answers stalled on a client that does not read are closed at
    // writeTimeoutMs by the server's own check (`Connections`), which Node's timer runs late.
    this.#server.timeout = o.writeTimeoutMs;
    this.#server.on('timeout', onIdle);
    this.#server.on('connection', this.#state.connections.track);
    this.#server.maxConnections = o.maxConnections;
    this.#server.on('request', (req, res) => this.#dispatch(req, res, false));
    this.#server.on('checkContinue', (req, res) => this.#dispatch(req, res, true));
    this.#server.on('clientError', answerClientError);
    this.#closed = new Promise((resolve) => (this.#markClosed = resolve));
  }

  /** Serves `endpoints` (a registry's) under `prefix`: `mount('/api', registry.endpoints)`. */
  mount(prefix: string, endpoints: MountableEndpoints): this {
    this.#state.pipeline.routes.mount(prefix, endpoints);
    return this;
  }

  /** Adds a route; `path` may hold `:param` segments (`/users/:id`). */
  route(method: HttpMethod, path: string, handler: RouteHandler): this {
    this.#state.pipeline.routes.add(method, path, handler);
    return this;
  }

  /** Adds a GET route (HEAD is answered by it too). */
  get(path: string, handler: RouteHandler): this {
    return this.route('GET', path, handler);
  }
  /** Adds a POST route. */
  post(path: string, handler: RouteHandler): this {
    return this.route('POST', path, handler);
  }
  /** Adds a PUT route. */
  put(path: string, handler: RouteHandler): this {
    return this.route('PUT', path, handler);
  }
  /** Adds a DELETE route. */
  delete(path: string, handler: RouteHandler): this {
    return this.route('DELETE', path, handler);
  }
  /** Adds a PATCH route. */
  patch(path: string, handler: RouteHandler): this {
    return this.route('PATCH', path, handler);
  }

  /** Chooses the port (0 picks a free one; `port` tells which after `start`) and the host, loopback by default. */
  bind(port: number, host = '127.0.0.1'): this {
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new RangeError(`bind(): ${port} is not a port number`);
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
      if (this.#state.pipeline.draining) this.#server.closeAllConnections();
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
    if (this.#state.pipeline.draining) return Promise.reject(new Error('HttpServer: start() after stop()'));
    this.#state.connections.watch();
    const started = new Promise<this>((resolve, reject) => {
      // One line that names the address, with the system's code kept (`error.code === 'EADDRINUSE'`).
      const onError = (error: NodeJS.ErrnoException) => {
        const failure: NodeJS.ErrnoException = new Error(
          `HttpServer: cannot listen on ${this.#host}:${this.#port}: ${error.message}`,
          { cause: error },
        );
        if (error.code !== undefined) failure.code = error.code;
        reject(failure);
      };
      this.#server.once('error', onError);
      this.#server.listen(this.#port, this.#host, () => {
        this.#server.off('error', onError);
        resolve(this);
      });
    });
    const starting: Promise<void> = started
      .then(
        () => {},
        () => {},
      )
      .finally(() => {
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
    this.#state.pipeline.draining = true;
    this.#state.pipeline.endStreams();
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
        if ((message as { server?: unknown }).server === this.#server)
          setImmediate(() => this.#server.closeIdleConnections());
      };
      subscribe(ANSWERED, onAnswered);
      const finish = () => {
        unsubscribe(ANSWERED, onAnswered);
        clearTimeout(timer);
        this.#state.connections.unwatch();
        this.#signals?.();
        this.#markClosed();
        resolve();
      };
      const timer = setTimeout(() => {
        const ms = this.#options.drainTimeoutMs;
        this.#state.pipeline.giveUpAll((exchange) =>
          exchange.abandon(
            problem(503, 'the server is shutting down and the call did not finish in time'),
            new Error(`call still running ${ms} ms into shutdown (drainTimeoutMs)`),
          ),
        );
        // The 503s are with the kernel by now; what is left (requests still arriving) is cut.
        setImmediate(() => this.#server.closeAllConnections());
      }, this.#options.drainTimeoutMs);
      if (!this.#server.listening) return finish();
      this.#server.close(() => finish());
      this.#server.closeIdleConnections();
    });
  }

  #dispatch(req: IncomingMessage, res: ServerResponse, expectContinue: boolean): void {
    // A client with too many requests awaiting answers is disconnected, the rest of its flood
    // unhandled; one whose answers wait past the cap has this request held, run once they go out.
    if (this.#state.connections.admit(req, res, expectContinue)) this.#run(req, res, expectContinue);
  }

  #run(req: IncomingMessage, res: ServerResponse, expectContinue: boolean): void {
    try {
      new NodeExchange(this.#state, req, res, expectContinue).start();
    } catch (error) {
      answerInternalError(error, req, res);
    }
  }
}
