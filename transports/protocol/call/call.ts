import type { Call, ContextKey } from '../../../core/contract/call.ts';
import { isBodiless, isSuccessStatus, type HttpMethod } from '../../../core/contract/method.ts';
import { isToken } from '../header-grammar.ts';
import type { CredentialSource } from './security.ts';
import type { EndpointRequest, HeaderValues } from '../types.ts';

/** What an endpoint knows of itself before any request. */
export interface CallSite {
  readonly service: string;
  readonly method: string;
  /** The status of a success when the method names none. */
  readonly status: number;
  /** The method returns `t.void()`: an answer without a body. */
  readonly returnsVoid: boolean;
  /** The method answers a stream, which may end for the server's reasons after the answer began. */
  readonly stream?: boolean;
}

/** A header value: no CR, LF or NUL, so nothing can be injected into the answer. */
const VALUE = /^[^\r\n\0]*$/;
/** Headers the transport writes from the answer itself: set by a method, they would corrupt it. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'x-request-id',
]);

/** A signal that never aborts, for transports without one; made on first use (workerd refuses I/O objects at module scope). */
let never: AbortSignal | undefined;

/** Adds `value` under `name` to `headers`, keeping earlier values as separate lines. */
export function appendHeader(headers: HeaderValues, name: string, value: string): void {
  const earlier = headers[name];
  headers[name] = earlier === undefined ? value : typeof earlier === 'string' ? [earlier, value] : [...earlier, value];
}

/** Why `name: value` cannot be added to an answer, or `undefined` when it can. */
export function headerMistake(name: string, value: unknown): string | undefined {
  if (typeof name !== 'string' || !isToken(name)) return `'${String(name)}' is not a header name`;
  if (typeof value !== 'string' || !VALUE.test(value))
    return `the value of ${name} must be a string without CR, LF or NUL`;
  if (RESERVED.has(name.toLowerCase())) return `${name.toLowerCase()} is written by lacquer and cannot be set`;
  return undefined;
}

/**
 * What endpoint.ts, interceptors.ts and authenticate.ts see of a call beyond {@link Call}. The
 * state lives in `#private` fields of {@link EndpointCall}, reachable only through these functions,
 * which the package does not export: a method (or a logger it hands its call to) sees the members
 * of `Call` and nothing else, in particular nothing of the transport's request, which may link to
 * other requests in flight.
 */
export interface CallInternals {
  /** Stores the decoded parameters. */
  setArgs(call: EndpointCall, args: readonly unknown[]): void;
  /** The first misuse of the call (a status that is not 2xx, a bad header, `next()` twice): answered 500. */
  mistake(call: EndpointCall): Error | undefined;
  /** Records a misuse; the first one is reported and answered 500. */
  misuse(call: EndpointCall, message: string): void;
  /** What made the answer a failure (a thrown error, a ReadError), for `onResponse`. */
  failure(call: EndpointCall): unknown;
  setFailure(call: EndpointCall, failure: unknown): void;
  /** When the call began (`performance.now()`), for `onResponse`'s duration; 0 when nobody asks. */
  started(call: EndpointCall): number;
  /** The request's path as it came, the mount prefix included (see `EndpointRequest.requestPath`). */
  requestPath(call: EndpointCall): string;
  /** The status the transport has answered the call with already (see `EndpointRequest.sentStatus`). */
  sentStatus(call: EndpointCall): number | undefined;
  /** Whether the request's signal has aborted: the client went away (or the transport gave up on the call). */
  clientGone(call: EndpointCall): boolean;
  /** The status of a success. */
  successStatus(call: EndpointCall): number;
  /** The headers added with `header()`, if any. */
  answerHeaders(call: EndpointCall): HeaderValues | undefined;
  /** One request header, without building `headers`. */
  readHeader(call: EndpointCall, name: string): string | null;
  /** Where a security scheme finds its credential: the call's request headers and query. */
  credentials(call: EndpointCall): CredentialSource;
  /** A stream method's stream ended for the server (a limit, a shutdown): its `signal` aborts with `reason`. */
  endStream(call: EndpointCall, reason: Error): void;
  /** Aborted when the transport shuts down, if it can (see `EndpointRequest.shutdown`). */
  shutdown(call: EndpointCall): AbortSignal | undefined;
  /** The `RateLimit` header of a call counted by a rate limit, for every answer after the count. */
  rateLimit(call: EndpointCall): string | undefined;
  setRateLimit(call: EndpointCall, state: string): void;
}

let internals: CallInternals | undefined;

/**
 * The public view of a call, what `util.inspect` and `JSON.stringify` show: no header values (a log
 * line must not carry the caller's `Authorization`, cookies or API key), no query (it may hold an
 * API key), no `platform` (the transport's own objects).
 */
const CallView = class Call {
  constructor(
    readonly service: string,
    readonly method: string,
    readonly verb: HttpMethod,
    readonly path: string,
    readonly prefix: string,
    readonly requestId: string,
    readonly ip: string | undefined,
    readonly args: readonly unknown[],
  ) {}
};
type CallView = InstanceType<typeof CallView>;

/** The {@link Call} of one request to an endpoint: the members of `Call`, everything else private. */
export class EndpointCall implements Call {
  readonly #site: CallSite;
  readonly #request: EndpointRequest;
  readonly #requestId: string;
  readonly #started: number;
  #args: readonly unknown[] = [];
  #mistake: Error | undefined;
  #failure: unknown;
  /** Keys set, and their values at the same index: a call holds a few, where a Map would cost more than a search. */
  #keys: ContextKey<unknown>[] | undefined;
  #values: unknown[] | undefined;
  #headers: Headers | undefined;
  #query: URLSearchParams | undefined;
  #status: number | undefined;
  #answerHeaders: HeaderValues | undefined;
  /** A stream method's: aborted when the request's signal does, or when the stream ends for the server. */
  #streamEnd: AbortController | undefined;
  #rateLimit: string | undefined;

  constructor(site: CallSite, request: EndpointRequest, requestId: string, started = 0) {
    this.#site = site;
    this.#request = request;
    this.#requestId = requestId;
    this.#started = started;
  }

  get service(): string {
    return this.#site.service;
  }
  get method(): string {
    return this.#site.method;
  }
  get verb(): HttpMethod {
    return this.#request.method as HttpMethod;
  }
  get path(): string {
    return this.#request.path;
  }
  get prefix(): string {
    return this.#request.prefix ?? '';
  }
  get requestId(): string {
    return this.#requestId;
  }
  get args(): readonly unknown[] {
    return this.#args;
  }
  get platform(): readonly unknown[] {
    return this.#request.platform ?? [];
  }
  get ip(): string | undefined {
    return this.#request.ip;
  }
  get signal(): AbortSignal {
    if (this.#site.stream === true) return this.#streamController().signal;
    return this.#request.signal ?? (never ??= new AbortController().signal);
  }
  get lastEventId(): string | undefined {
    return this.#request.headers.get('last-event-id') || undefined;
  }

  /** Made on first use: a stream may end after its answer began, when the request's own signal no longer aborts. */
  #streamController(): AbortController {
    if (this.#streamEnd !== undefined) return this.#streamEnd;
    const controller = (this.#streamEnd = new AbortController());
    const own = this.#request.signal;
    if (own?.aborted === true) controller.abort(own.reason);
    else own?.addEventListener('abort', () => controller.abort(own.reason), { once: true });
    return controller;
  }

  get headers(): Headers {
    if (this.#headers === undefined) {
      const source = this.#request.headers;
      if (source instanceof Headers) this.#headers = source;
      else {
        const copy = new Headers();
        source.forEach?.((value, name) => copy.append(name, value));
        this.#headers = copy;
      }
    }
    return this.#headers;
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.#request.search ?? ''));
  }

  get<T>(key: ContextKey<T>): T {
    const at = this.#keys === undefined ? -1 : this.#keys.indexOf(key);
    if (at === -1) {
      throw new TypeError(
        `call.get(): nothing is stored under '${key.name}' for ${this.#site.method} (is the method public, or the key another one?)`,
      );
    }
    return this.#values![at] as T;
  }

  has(key: ContextKey<unknown>): boolean {
    return this.#keys?.includes(key) ?? false;
  }

  set<T>(key: ContextKey<T>, value: T): void {
    if (this.#keys === undefined) {
      this.#keys = [key];
      this.#values = [value];
      return;
    }
    const at = this.#keys.indexOf(key);
    if (at === -1) {
      this.#keys.push(key);
      this.#values!.push(value);
    } else this.#values![at] = value;
  }

  status(code: number): void {
    if (!isSuccessStatus(code))
      return this.#misuse(`call.status(${String(code)}): a success status must be a 2xx; throw HttpError for an error`);
    if (isBodiless(code) && !this.#site.returnsVoid)
      return this.#misuse(
        `call.status(${code}): a ${code} answer has no body, but ${this.#site.method} returns a value`,
      );
    this.#status = code;
  }

  header(name: string, value: string): void {
    const wrong = headerMistake(name, value);
    if (wrong !== undefined) return this.#misuse(`call.header(): ${wrong}`);
    appendHeader((this.#answerHeaders ??= {}), name.toLowerCase(), value);
  }

  /** What `JSON.stringify(call)` writes: the public view. */
  toJSON(): CallView {
    return new CallView(
      this.service,
      this.method,
      this.verb,
      this.path,
      this.prefix,
      this.#requestId,
      this.ip,
      this.#args,
    );
  }

  /** What `util.inspect(call)` (`console.log`, loggers) shows: the public view, named `Call`. */
  [Symbol.for('nodejs.util.inspect.custom')](): CallView {
    return this.toJSON();
  }

  #misuse(message: string): void {
    this.#mistake ??= new Error(`${this.#site.service}.${this.#site.method}: ${message}`);
  }

  static {
    internals = {
      setArgs: (call, args) => void (call.#args = args),
      mistake: (call) => call.#mistake,
      misuse: (call, message) => call.#misuse(message),
      failure: (call) => call.#failure,
      setFailure: (call, failure) => void (call.#failure = failure),
      started: (call) => call.#started,
      requestPath: (call) => call.#request.requestPath ?? call.prefix + call.#request.path,
      sentStatus: (call) => call.#request.sentStatus,
      clientGone: (call) => call.#request.signal?.aborted === true,
      successStatus: (call) => call.#status ?? call.#site.status,
      answerHeaders: (call) => call.#answerHeaders,
      readHeader: (call, name) => call.#request.headers.get(name),
      credentials: (call) => new CallCredentials(call),
      endStream: (call, reason) => call.#streamController().abort(reason),
      shutdown: (call) => call.#request.shutdown,
      rateLimit: (call) => call.#rateLimit,
      setRateLimit: (call, state) => void (call.#rateLimit = state),
    };
  }
}

/** A call's request headers and query, as a security scheme reads them; made only for a secured call. */
class CallCredentials implements CredentialSource {
  readonly #call: EndpointCall;

  constructor(call: EndpointCall) {
    this.#call = call;
  }

  readHeader(name: string): string | null {
    return internals!.readHeader(this.#call, name);
  }

  readQuery(name: string): string | null {
    return this.#call.query.get(name);
  }
}

/** See {@link CallInternals}. */
export const calls: CallInternals = internals!;
