/** Reads request headers by case-insensitive name; a Web `Headers` object is one. */
export interface HeaderReader {
  get(name: string): string | null;
  /** Visits every header (a Web `Headers` has it): how a `Call` builds its `Headers` when asked. */
  forEach?(visit: (value: string, name: string) => void): void;
}

/**
 * Reads the body on demand, under the transport's cap: the bytes, or the answer to give instead
 * (413 over the cap, 400 when the body broke off), at once when that is known without waiting (no
 * body). An endpoint calls it only for a call it admits, so a refused call's body is never read.
 */
export type BodySource = () => Uint8Array | EndpointResponse | Promise<Uint8Array | EndpointResponse>;

/**
 * A request as every transport hands it to the registry. `path` is relative to the mount prefix;
 * `body` is read already (capped by the transport) or read on demand. The other members default
 * to what a request without them has: no query, a signal that never aborts, an id generated from
 * `x-request-id`, no platform values, no address.
 */
export interface EndpointRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: HeaderReader;
  readonly body: Uint8Array | undefined | BodySource;
  /**
   * The body as its chunks arrive, for a method that reads a stream, with at most `limit` bytes in
   * all: the chunks, or the answer to give instead (415 for a coded body, 413). Without it, the
   * endpoint reads `body` whole.
   */
  bodyStream?(limit: number): AsyncIterable<Uint8Array> | EndpointResponse;
  /**
   * A stream method has made its stream (returned its iterable): the transport's handler time
   * limit (`handlerTimeoutMs`) no longer applies to the call, which waits for items now.
   */
  streaming?(): void;
  /**
   * The bytes a request stream's reader holds now (its unfinished item), counted against the
   * transport's cap on the body bytes it holds (`maxBufferedBodyBytes`) in place of what was
   * counted before; `false` when they do not fit (nothing is counted then, and the stream is
   * answered 503). Without it, a stream's bytes count against no cap but its own limits.
   */
  holdStreamBytes?(bytes: number): boolean;
  /** The query, without `?`. */
  readonly search?: string;
  /** The values of the route's `:name` segments, decoded: `{ id: '5' }` for `/notes/5` on `/notes/:id`. */
  readonly params?: Readonly<Record<string, string>>;
  /** Aborted when the client goes away or the transport gives up on the call. */
  readonly signal?: AbortSignal;
  /**
   * Aborted when the transport shuts down (`HttpServer.stop()`): a stream answer under way ends
   * with a 503 problem frame. Absent for a transport that never shuts down.
   */
  readonly shutdown?: AbortSignal;
  /**
   * The id the transport chose for the request, which it writes in the answer's `x-request-id`.
   * Without it, the endpoint chooses one (from the request's `x-request-id`) and writes it itself.
   */
  readonly requestId?: string;
  /** What the transport adds for methods (`call.platform`). */
  readonly platform?: readonly unknown[];
  /** The client's address. */
  readonly ip?: string | undefined;
  /** The mount prefix the request came through (`/api`), for `onResponse`; `''` at the root. */
  readonly prefix?: string;
  /**
   * The request's path as it came, mount prefix included (`/rpc` for a request to the mount path
   * itself, whose `path` is `/`), for reports. Default: `prefix` and `path` joined.
   */
  readonly requestPath?: string;
  /**
   * The status the transport has answered the call with already, if it has (503 at the handler
   * timeout or on shutdown): what the endpoint answers later is dropped, and reports of it say
   * this status, the one the client received.
   */
  readonly sentStatus?: number | undefined;
}

/** Header values of an answer: one line, or several lines of one name (`set-cookie`). */
export type HeaderValues = Record<string, string | string[]>;

/**
 * An answer body written as it is produced: each frame is sent as it comes, the answer has no
 * `Content-Length` (HTTP/1.1 chunked framing) and is not compressed. The transport stops asking for
 * frames (`return()` on the iterator) when the client goes away.
 */
export type Frames = AsyncIterable<Uint8Array>;

/** What an answer carries: bytes, text (written as UTF-8), frames, or nothing. */
export type AnswerBody = Uint8Array | string | Frames | undefined;

/** An answer every transport can write: lower-case header names, a body or none. */
export interface EndpointResponse {
  status: number;
  headers: HeaderValues;
  body: AnswerBody;
  /** Called by the transport once it has written the answer, with the status it wrote. */
  written?: (status: number) => void;
}

/**
 * One endpoint: a request in, an answer out, at once when nothing had to be awaited. It never
 * rejects; failures become problem documents.
 */
export type Handler = ((request: EndpointRequest) => EndpointResponse | Promise<EndpointResponse>) & {
  /**
   * The endpoint's own time limit (`method(..., { timeoutMs })`), in place of the transport's
   * `handlerTimeoutMs`; absent for the transport's.
   */
  readonly timeoutMs?: number;
};
