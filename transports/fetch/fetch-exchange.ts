import { problem, problemResponse } from '../protocol/problem.ts';
import type { EndpointResponse } from '../protocol/types.ts';
import { Exchange } from '../protocol/pipeline/exchange.ts';
import type { Pipeline } from '../protocol/pipeline/pipeline.ts';
import type { BodyCollector, BodyResult } from '../protocol/pipeline/request-body.ts';
import { requestIdFor, stampRequestId } from '../protocol/pipeline/request-id.ts';
import { chunksOf, discard, readBody } from './body.ts';
import type { ResolvedFetchOptions } from './options.ts';
import { toResponse } from './response.ts';
import { clientAddress } from '../protocol/client-address.ts';

/**
 * The 500 of a fault of the handler itself, not of an endpoint (those answer problem documents):
 * logged, and answered with the request's id (a new one when there is no request to read it from).
 */
export function internalError(error: unknown, requestId = requestIdFor(null)): Response {
  console.error(`lacquer/fetch: internal error (request ${requestId})`, error);
  const answer = problemResponse(problem(500, undefined, { requestId }), null);
  stampRequestId(answer.headers, requestId);
  return toResponse(answer, false);
}

/** `declaredLength` not read yet. */
const UNREAD = Symbol('unread');

/**
 * One request to a fetch handler: the pipeline's {@link Exchange} on a Web `Request`, answered with
 * a `Response`. It adds what only the Fetch API knows: the body's bytes from the `Request`, the
 * client's going away as the `Request`'s signal, the answer as a `Response`.
 */
export class FetchExchange extends Exchange {
  readonly #request: Request;
  readonly #platform: readonly unknown[];
  readonly #options: ResolvedFetchOptions;
  #ip: { readonly value: string | undefined } | undefined;
  #declared: number | undefined | typeof UNREAD = UNREAD;
  #response: Response | undefined;
  #resolve: ((response: Response) => void) | undefined;

  constructor(pipeline: Pipeline, options: ResolvedFetchOptions, request: Request, platform: readonly unknown[]) {
    super(pipeline, request.method, request.headers);
    this.#request = request;
    this.#platform = platform;
    this.#options = options;
  }

  /** Answers the request; a fault of the handler itself is answered 500. */
  start(): void {
    try {
      this.run(targetOf(this.#request.url));
    } catch (error) {
      this.fault(error);
    }
  }

  /** The answer: at once when it was made without waiting, else once it is (asked once, by the handler). */
  get response(): Response | Promise<Response> {
    return this.#response ?? new Promise<Response>((resolve) => (this.#resolve = resolve));
  }

  get platform(): readonly unknown[] {
    return this.#platform;
  }

  /** The client's address, from the `ip` option and `trustProxy`; worked out on first use (most calls never ask). */
  get ip(): string | undefined {
    if (this.#ip === undefined) {
      const { ip, trustProxy } = this.#options;
      const peer = ip?.(this.#request, ...this.#platform) ?? undefined;
      this.#ip = { value: clientAddress(peer, this.#request.headers.get('x-forwarded-for'), trustProxy) };
    }
    return this.#ip.value;
  }

  /** Read once: the pipeline and the body reading both ask, and each header read crosses into the runtime. */
  protected declaredLength(): number | undefined {
    if (this.#declared === UNREAD) {
      const length = this.#request.headers.get('content-length');
      const declared = length === null ? undefined : Number(length);
      // A `Request` made in process may say anything; one that is not a length is read as a stream.
      this.#declared = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined;
    }
    return this.#declared;
  }

  /**
   * A declared length tells without touching `request.body`, which some runtimes (Bun) make a
   * stream for on first access.
   */
  protected bodyIsEmpty(): boolean {
    const declared = this.declaredLength();
    return declared === undefined ? this.#request.body === null : declared === 0;
  }

  protected readBody(collector: BodyCollector, done: (result: BodyResult) => void): void {
    readBody(this.#request, this.declaredLength(), collector, done);
  }

  protected readChunks(): AsyncIterable<Uint8Array> {
    return chunksOf(this.#request);
  }

  protected acceptEncoding(): string | null {
    return this.#request.headers.get('accept-encoding');
  }

  protected write(answer: EndpointResponse, encoded: boolean): void {
    // An answer made before the body was read (a refusal, a 404): the runtime may stop receiving it.
    if (!this.bodyRead) discard(this.#request);
    this.#settle(toResponse(answer, this.head, encoded));
  }

  protected watchClient(controller: AbortController): void {
    const own = this.#request.signal;
    if (own.aborted) controller.abort(own.reason);
    else own.addEventListener('abort', () => controller.abort(own.reason), { once: true });
  }

  /** The fetch handler serves registries only: every route it finds is an endpoint. */
  protected runRoute(): Promise<void> {
    return Promise.reject(new Error('lacquer/fetch: a route that is not an endpoint'));
  }

  protected fault(error: unknown): void {
    this.#settle(internalError(error, this.requestId));
  }

  /** A call given up on is reported by its endpoint, when its handler settles (as the signal's reason). */
  protected abandoned(): void {}

  #settle(response: Response): void {
    if (this.#response !== undefined) return;
    this.#response = response;
    this.#resolve?.(response);
  }
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
