import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodySource, EndpointRequest } from '../rest/types.ts';
import type { NodeHeaders } from './request.ts';

/**
 * A request to a registry endpoint on `HttpServer`. Its `signal` is made on first use (most calls
 * never look), and aborts when the client disconnects before the answer is written, or when the
 * server gives up on the call (`abort`: handler timeout, shutdown).
 */
export class NodeEndpointRequest implements EndpointRequest {
  #controller: AbortController | undefined;
  #reason: unknown;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly headers: NodeHeaders,
    readonly body: BodySource,
    readonly search: string,
    readonly requestId: string,
    private readonly address: () => string | undefined,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  /** `[req]`: Node's `IncomingMessage`, for what the call does not carry (TLS details, say). */
  get platform(): readonly unknown[] {
    return [this.req];
  }

  get ip(): string | undefined {
    return this.address();
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = (this.#controller = new AbortController());
      if (this.#reason !== undefined) controller.abort(this.#reason);
      else if (this.req.socket.destroyed && !this.res.writableFinished) controller.abort(clientGone());
      else {
        this.res.once('close', () => {
          if (!this.res.writableFinished) controller.abort(clientGone());
        });
      }
    }
    return this.#controller.signal;
  }

  /** Aborts the signal (now, or when it is made) with `reason`. */
  abort(reason: Error): void {
    this.#reason ??= reason;
    this.#controller?.abort(reason);
  }
}

function clientGone(): DOMException {
  return new DOMException('the client went away before the answer was written', 'AbortError');
}
