/**
 * One problem of a request body, as a 400 problem document's `errors` lists it (the entries of
 * `ReadError.errors`; `code` is text, as a server of another version may name a code this one does not know).
 */
export interface ProblemEntry {
  readonly code: string;
  /** A JSON Pointer into the request body. */
  readonly path: string;
  readonly message: string;
}

/** Extra members of a problem document an `HttpError` can carry (RFC 9457 allows extensions). */
export interface HttpErrorOptions {
  /** A URI naming the problem type. Default `about:blank`. */
  type?: string;
  /** A short summary. Default the status text (`Not Found`). */
  title?: string;
  /**
   * Extension members, written beside `type`, `title`, `status` and `detail`. A member named like
   * one of those four is ignored when the problem document is written: the error's own win.
   */
  extensions?: Readonly<Record<string, string>>;
  /**
   * Every problem found in a request body, as `ReadError.errors` lists them: what the client puts
   * here from a 400 problem document's `errors`. Default none.
   */
  errors?: readonly ProblemEntry[];
  /**
   * Headers of the answer: `{ 'retry-after': '30' }` on a 429, `www-authenticate` on a 401. The
   * answer's own (`content-type`, `content-length`, ...) cannot be replaced.
   */
  headers?: Readonly<Record<string, string>>;
  cause?: unknown;
}

const BRAND = Symbol.for('lacquer.HttpError');

/**
 * Thrown by a service method (or a route handler) to answer with `status`; `message` is sent as
 * the problem document's `detail`. The client throws it for non-2xx answers, too.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly type: string;
  readonly title: string | undefined;
  readonly extensions: Readonly<Record<string, string>>;
  /**
   * Every problem a server found in the request body (a 400 problem document's `errors`, first the
   * one `code` and `path` name), as the client received them; empty for other errors.
   */
  readonly errors: readonly ProblemEntry[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError: status must be an integer from 400 to 599, got ${status}`);
    }
    this.status = status;
    this.type = options.type ?? 'about:blank';
    this.title = options.title;
    this.extensions = options.extensions ?? {};
    this.errors = options.errors ?? [];
    this.headers = options.headers ?? {};
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** The problem document's `detail`: the message. */
  get detail(): string {
    return this.message;
  }

  /** The `code` extension member, which read errors carry (`missing_key`, ...). */
  get code(): string | undefined {
    return this.extensions.code;
  }

  /** The `path` extension member of read errors: a JSON Pointer into the request body (`/name`). */
  get path(): string | undefined {
    return this.extensions.path;
  }

  static override [Symbol.hasInstance](this: typeof HttpError, value: unknown): boolean {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
    // Subclasses keep their own instanceof: an HttpError is not an InvalidArgument.
    return this === HttpError || Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/** Thrown by a service method when an argument is unacceptable: 400, with the message as `detail`. */
export class InvalidArgument extends HttpError {
  override name = 'InvalidArgument';
  constructor(message: string, options: Omit<HttpErrorOptions, 'type' | 'title'> = {}) {
    super(400, message, options);
  }
}
