import { problemResponse, type ProblemDocument } from '../problem.ts';
import { ReadError } from '../../../core/errors/read-error.ts';
import type { EndpointRequest, EndpointResponse, Handler, HeaderReader, HeaderValues } from '../types.ts';
import type { Codec } from '../../../core/codec.ts';
import { corsHeaders, mergeHeaders, originAllowed, type CorsOptions } from './cors.ts';
import {
  markEncoded,
  requestBodyCoding,
  type BodyCoding,
  type RequestCoding,
  type ResponseCoding,
} from './content-coding.ts';
import type { Abandonable, Deadlines } from './deadlines.ts';
import { busy, busyHeaders } from './load.ts';
import type { Pipeline } from './pipeline.ts';
import { preRoute } from './pre-route.ts';
import { bodyBroken, bodyOverLimit, BodyCollector, decodedBody, EMPTY_BODY, type BodyResult } from './request-body.ts';
import { requestIdOf, stampRequestId } from './request-id.ts';
import type { Target } from './target.ts';
import { isFrames, stopFrames } from '../answer-body.ts';
import { NO_PARAMS } from './route-table.ts';

type Coding = Exclude<BodyCoding, { kind: 'unsupported' }>;

const NO_CODINGS: readonly RequestCoding[] = [];

const NO_CHUNKS: AsyncIterable<Uint8Array> = {
  [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
};

/** `chunks`, failing with `limit_exceeded` once more than `limit` bytes came; `done` once all were taken. */
async function* limited(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
  done: () => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > limit)
      throw new ReadError('limit_exceeded', '', `the stream's body is over its limit (${limit} bytes)`);
    yield chunk;
  }
  done();
}

/**
 * One request, from its headers to its answer, on any platform: the request id chosen once, CORS,
 * routing, the server's load and deadlines, the body read when the endpoint asks (and only then)
 * under its limit, inflated when coded, and the answer sent once, with the CORS headers and
 * `x-request-id`, compressed when the client asks. It is also the request a registry endpoint sees
 * (`EndpointRequest`).
 *
 * An adapter (`transports/http`, `transports/fetch`) extends it with what only the platform knows:
 * where the body's bytes come from, how an answer is written, when the client goes away. One object
 * per request rather than a closure per step, so that a small call allocates little. `R` is the
 * adapter's own route handler (HttpServer's plain routes); `never` where there are none.
 */
export abstract class Exchange<R = never> implements EndpointRequest, Abandonable {
  readonly requestId: string;
  /** Relative to the mount prefix, once routed to an endpoint. */
  path = '';
  /** The mount prefix, once routed to an endpoint. */
  prefix = '';
  /** The request is for the mount path itself (see `Resolution`). */
  #atMountPath = false;
  /** The query, without `?`. */
  search = '';
  /** The values of the endpoint's `:name` segments, once routed to an endpoint. */
  params: Readonly<Record<string, string>> = NO_PARAMS;
  // The links of the pipeline's deadline list (see Deadlines).
  deadline = -1;
  earlier: Abandonable | undefined;
  later: Abandonable | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  protected readonly pipeline: Pipeline<R>;
  /** HEAD: the answer is written without its body. */
  protected readonly head: boolean;
  /** Whether the body was read whole (an answer before that leaves the rest to be discarded). */
  protected bodyRead = false;
  /** CORS headers of an allowed origin, added to every answer. */
  readonly #cors: Record<string, string> | undefined;
  #codecs: readonly Codec[] | undefined;
  #target: Target | undefined;
  #limit = Infinity;
  /** The status sent, once an answer is. */
  #sent: number | undefined;
  #controller: AbortController | undefined;
  #reason: unknown;
  /** The deadline list the call is in while its handler runs: its endpoint's time limit's. */
  #deadlines: Deadlines<Abandonable> | undefined;
  /** Whether the call counts in the pipeline's load (from routing until its handler settles). */
  #entered = false;
  /** The body bytes this call counts in the load. */
  #held = 0;
  /** Of those, the bytes its request stream's reader holds. */
  #streamBytes = 0;

  constructor(
    pipeline: Pipeline<R>,
    readonly method: string,
    readonly headers: HeaderReader,
  ) {
    this.pipeline = pipeline;
    this.head = method === 'HEAD';
    this.requestId = requestIdOf(headers);
    const cors = pipeline.options.cors;
    this.#cors = cors === undefined ? undefined : allowedOrigin(cors, headers);
  }

  // ---- What the adapter provides ----------------------------------------------------------------

  /** What the platform adds for methods (`call.platform`). */
  abstract readonly platform: readonly unknown[];
  /** The client's address. */
  abstract readonly ip: string | undefined;
  /** The `Content-Length` the client declared, if any. */
  protected abstract declaredLength(): number | undefined;
  /** Whether the body is known to be empty without reading it (a GET). */
  protected abstract bodyIsEmpty(): boolean;
  /**
   * Reads the body whole into `collector` (which holds it under its limit and the load), and calls
   * `done` once with the outcome. A callback rather than a promise: the pipeline makes the one
   * promise a body read needs.
   */
  protected abstract readBody(collector: BodyCollector, done: (result: BodyResult) => void): void;
  /**
   * The body's chunks as the platform delivers them, each asked for only when the one before is
   * taken. Leaving the loop early must leave the rest of the body to be discarded, not the
   * connection closed.
   */
  protected abstract readChunks(): AsyncIterable<Uint8Array>;
  /** The request's `Accept-Encoding`, read where the platform reads it fastest. */
  protected abstract acceptEncoding(): string | null | undefined;
  /** Writes the answer (`encoded`: its body is compressed already); `close` ends the connection after it. */
  protected abstract write(answer: EndpointResponse, encoded: boolean, close: boolean): void;
  /** Aborts `controller` when the client goes away before its answer is written. */
  protected abstract watchClient(controller: AbortController): void;
  /** Runs one of the adapter's own routes. */
  protected abstract runRoute(handler: R, params: Readonly<Record<string, string>>): Promise<void>;
  /** A fault of the pipeline or the adapter (not of an endpoint: those answer problem documents). */
  protected abstract fault(error: unknown): void;
  /** Told of a call answered 503 for its handler (timeout, shutdown). */
  protected abstract abandoned(reason: Error, status: number): void;
  /** Called before the body is read, once it will be (a client waiting for `100 Continue`). */
  protected willRead(): void {}

  // ---- The pipeline -------------------------------------------------------------------------------

  /** Answers the request for `rawTarget` (its path and query, as sent). */
  run(rawTarget: string): void {
    const pipeline = this.pipeline;
    const routing = preRoute(
      pipeline.routes,
      this.method,
      rawTarget,
      this.headers,
      pipeline.options.cors,
      this.#cors !== undefined,
    );
    if (routing.kind === 'answer') return this.send(routing.answer, routing.close);
    const { target, route } = routing;
    this.#target = target;
    this.#codecs = route.codecs;
    this.search = target.search;
    this.#limit = Math.min(
      pipeline.options.maxBodyBytes,
      route.kind === 'endpoint' ? (route.limit ?? Infinity) : Infinity,
    );
    // Counted until its handler settles, even when abandoned: it still holds its arguments.
    if (!pipeline.load.enter()) return this.send(this.#busy('calls'));
    this.#entered = true;
    // Until it answers, the call can be answered for it: on timeout, or on shutdown.
    this.#deadlines = route.kind === 'endpoint' ? pipeline.deadlinesFor(route.handler.timeoutMs) : pipeline.deadlines;
    this.#deadlines.add(this);
    if (route.kind === 'route') {
      this.runRoute(route.handler, route.params).then(
        () => this.#settled(),
        (error: unknown) => {
          this.#settled();
          this.fault(error);
        },
      );
      return;
    }
    this.path = route.path;
    this.prefix = route.prefix;
    this.#atMountPath = route.atMountPath === true;
    this.params = route.params;
    this.#call(route.handler);
  }

  #call(handler: Handler): void {
    let answer: ReturnType<Handler>;
    try {
      answer = handler(this);
    } catch (error) {
      this.#settled();
      return this.fault(error);
    }
    if (!(answer instanceof Promise)) {
      this.#settled();
      return this.send(answer);
    }
    // Handled here rather than by the caller: one promise less per call that awaits something.
    answer.then(
      (own) => {
        this.#settled();
        try {
          this.send(own);
        } catch (error) {
          this.fault(error);
        }
      },
      (error: unknown) => {
        this.#settled();
        this.fault(error);
      },
    );
  }

  /** See `EndpointRequest.holdStreamBytes`: counted with the body bytes the call holds, until it settles. */
  holdStreamBytes(bytes: number): boolean {
    // Settled (or never counted): the load has counted the call out with what it held.
    if (!this.#entered) return true;
    const more = bytes - this.#streamBytes;
    if (more > 0 && !this.pipeline.load.take(more)) return false;
    if (more < 0) this.pipeline.load.give(-more);
    this.#streamBytes = bytes;
    this.#held += more;
    return true;
  }

  /** A stream method made its stream (see `EndpointRequest.streaming`): the call leaves the deadline list. */
  streaming(): void {
    this.#deadlines?.remove(this);
  }

  /** The handler settled (or threw): the call leaves the deadline list, and counts out with its body bytes. */
  #settled(): void {
    this.#deadlines?.remove(this);
    if (!this.#entered) return;
    this.#entered = false;
    this.pipeline.load.leave(this.#held);
    this.#held = 0;
  }

  /** The target as parsed, once routed. */
  protected get target(): Target | undefined {
    return this.#target;
  }

  /**
   * Reads the body (what `BodySource` asks): the bytes, or the answer instead. Read when the
   * endpoint asks, so that an endpoint refusing the caller never reads the body. A body with
   * Content-Encoding is inflated, the limit applying to what it inflates to (and to the bytes
   * received); an unknown coding is refused before anything is read, as a declared length over
   * the limit is.
   */
  body(): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> {
    const contentEncoding = this.headers.get('content-encoding');
    // The platform's codings are asked for only once a body names one.
    const coding = requestBodyCoding(
      contentEncoding,
      contentEncoding === null ? NO_CODINGS : this.pipeline.codings.requestCodings(),
    );
    if (coding.kind === 'unsupported') return this.problem(coding.problem, coding.headers);
    const declared = this.declaredLength();
    if (declared !== undefined && declared > this.#limit) return this.problem(bodyOverLimit(this.#limit));
    if (declared !== undefined && !this.pipeline.load.fits(declared)) return this.#busy('bytes');
    this.willRead();
    if (this.bodyIsEmpty()) {
      this.bodyRead = true;
      return EMPTY_BODY;
    }
    const collector = new BodyCollector(this.#limit, this.pipeline.load);
    return new Promise((resolve) => this.readBody(collector, (read) => resolve(this.#received(read, coding))));
  }

  /**
   * The body as its chunks arrive, for a method reading a stream: each chunk is asked of the
   * platform only when the one before is taken, so that memory stays bounded whatever the body's
   * length; past `limit` bytes in all, reading fails with a `ReadError` (`limit_exceeded`). A coded
   * body is refused (415: a stream is not inflated), as is a declared length over `limit` (413),
   * both before anything is read.
   */
  bodyStream(limit: number): AsyncIterable<Uint8Array> | EndpointResponse {
    // A stream is read as it arrives, not inflated: only identity is accepted.
    const coding = requestBodyCoding(this.headers.get('content-encoding'), NO_CODINGS);
    if (coding.kind === 'unsupported') return this.problem(coding.problem, coding.headers);
    const declared = this.declaredLength();
    if (declared !== undefined && declared > limit) return this.problem(bodyOverLimit(limit));
    this.willRead();
    if (this.bodyIsEmpty()) {
      this.bodyRead = true;
      return NO_CHUNKS;
    }
    return limited(this.readChunks(), limit, () => {
      this.bodyRead = true;
    });
  }

  /** The body read whole (or not), inflated if it is coded: the bytes, or the answer instead. */
  #received(read: BodyResult, coding: Coding): Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse> {
    const limit = this.#limit;
    if (read.kind === 'too-large') return this.problem(bodyOverLimit(limit));
    if (read.kind === 'busy') return this.#busy('bytes');
    if (read.kind === 'broken') return this.problem(bodyBroken());
    this.bodyRead = true;
    // Counted in the load as it arrived; counted out when the call settles.
    this.#held += read.body.byteLength;
    const body = decodedBody(coding, read.body, limit, this.pipeline.codings.inflate);
    if (body instanceof Uint8Array) return body;
    return body.then((inflated) => {
      if (!(inflated instanceof Uint8Array)) return this.problem(inflated);
      // What a body inflates to is held too.
      if (!this.pipeline.load.take(inflated.byteLength)) return this.#busy('bytes');
      this.#held += inflated.byteLength;
      return inflated;
    });
  }

  /** The path as requested, the mount prefix included (see `EndpointRequest.requestPath`). */
  get requestPath(): string {
    return this.#atMountPath ? this.prefix : this.prefix + this.path;
  }

  /** The status answered already, when the pipeline answered for the handler (timeout, shutdown). */
  get sentStatus(): number | undefined {
    return this.#sent;
  }

  /** Aborted when the server shuts down (see `EndpointRequest.shutdown`). */
  get shutdown(): AbortSignal {
    return this.pipeline.shutdown;
  }

  /** Aborted when the client goes away before its answer is written, or when the call is given up on. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      if (this.#reason !== undefined) controller.abort(this.#reason);
      else this.watchClient(controller);
    }
    return this.#controller.signal;
  }

  /**
   * Answers the call for its handler, which has not answered (timeout, shutdown): `doc` is sent,
   * `reason` aborts the call's signal and is reported, as a handler's failure is. What the handler
   * answers later is dropped.
   */
  abandon(doc: ProblemDocument, reason: Error): void {
    this.#reason ??= reason;
    this.#controller?.abort(reason);
    doc.requestId = this.requestId;
    try {
      this.send(this.problem(doc));
    } catch (error) {
      this.fault(error);
    } finally {
      this.abandoned(reason, doc.status);
    }
  }

  /** A problem document in a codec of the route's registry that the client accepts. */
  protected problem(doc: ProblemDocument, more?: HeaderValues): EndpointResponse {
    return problemResponse(doc, this.headers.get('accept'), this.#codecs, more);
  }

  /** The 503 of a server holding too much (`maxCallsInFlight`, `maxBufferedBodyBytes`), with `Retry-After`. */
  #busy(what: 'calls' | 'bytes'): EndpointResponse {
    return this.problem(busy(what, this.pipeline.load), busyHeaders());
  }

  /**
   * Sends `answer` unless one was sent: with the CORS headers and `x-request-id`, compressed when
   * the client asks. `close` ends the connection after it (a malformed request).
   */
  protected send(answer: EndpointResponse, close = false): void {
    if (this.#sent !== undefined) {
      // Answered already (the handler's timeout): a stream's source is told to stop.
      if (isFrames(answer.body)) stopFrames(answer.body);
      return answer.written?.(this.#sent);
    }
    this.#sent = answer.status;
    const merged = this.#cors === undefined ? answer : { ...answer, headers: mergeHeaders(answer.headers, this.#cors) };
    stampRequestId(merged.headers, this.requestId);
    // `Accept-Encoding` is read only for an answer that may be compressed (most are below the threshold).
    const policy = this.pipeline.compression();
    let coding: ResponseCoding | undefined;
    if (policy?.qualifies(merged)) {
      const acceptEncoding = this.acceptEncoding();
      if (acceptEncoding != null) coding = policy.planQualified(merged, this.head, acceptEncoding);
    }
    if (coding === undefined) return this.#deliver(answer, merged, false, close);
    // Compressed off the event loop where the platform can; the answer is marked sent meanwhile.
    this.pipeline.codings
      .compress(coding, merged.body as Uint8Array | string)
      .then(
        (bytes) => {
          markEncoded(merged.headers, coding);
          this.#deliver(answer, { ...merged, body: bytes }, true, close);
        },
        (error: unknown) => {
          console.error('lacquer: compressing an answer failed; sent uncompressed', error);
          this.#deliver(answer, merged, false, close);
        },
      )
      .catch((error: unknown) => this.fault(error));
  }

  #deliver(answer: EndpointResponse, merged: EndpointResponse, encoded: boolean, close: boolean): void {
    this.write(merged, encoded, close || this.pipeline.draining);
    answer.written?.(answer.status);
  }
}

/** The CORS headers of a request from an origin `cors` allows; `undefined` for any other. */
function allowedOrigin(cors: CorsOptions, headers: HeaderReader): Record<string, string> | undefined {
  const origin = headers.get('origin');
  return origin !== null && originAllowed(cors, origin) ? corsHeaders(cors, origin) : undefined;
}

/** The reason a call's signal aborts when the client goes away before its answer is written. */
export function clientGone(): DOMException {
  return new DOMException('the client went away before the answer was written', 'AbortError');
}
