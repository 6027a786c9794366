import type { BodySource, EndpointRequest } from '../rest/types.ts';

/**
 * A request to a registry endpoint from the fetch handler. Its `signal` follows the `Request`'s
 * own (aborted by the runtime when the client disconnects) and the handler's timeout; made on
 * first use, since most calls never look.
 */
export class FetchEndpointRequest implements EndpointRequest {
  #controller: AbortController | undefined;
  #reason: unknown;
  /** Set when the handler gives up on the call: the 503 sent in its place. */
  sentStatus: number | undefined = undefined;

  constructor(
    readonly request: Request,
    readonly prefix: string,
    readonly path: string,
    readonly body: BodySource,
    readonly search: string,
    readonly requestId: string,
    readonly ip: string | undefined,
    readonly platform: readonly unknown[],
  ) {}

  get method(): string { return this.request.method; }
  get headers(): Headers { return this.request.headers; }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      const own = this.request.signal;
      if (this.#reason !== undefined) controller.abort(this.#reason);
      else if (own.aborted) controller.abort(own.reason);
      else own.addEventListener('abort', () => controller.abort(own.reason), { once: true });
    }
    return this.#controller.signal;
  }

  /** Aborts the signal (now, or when it is made) with `reason`. */
  abort(reason: Error): void {
    this.#reason ??= reason;
    this.#controller?.abort(reason);
  }
}
