import { json } from '../../codecs/json/index.ts';
import type { Opts } from '../../core/options.ts';
import type { EndpointResponse } from '../protocol/types.ts';
import type { Infer, Type } from '../../core/descriptors/type.ts';

/**
 * The answer a route handler builds: `res.status(201).header('x-id', '7').json(user, User)`.
 * Nothing is written until the handler returns; a handler that sends nothing answers 204.
 */
export class HttpResponse {
  #status = 200;
  readonly #headers: Record<string, string> = {};
  #body: Uint8Array | string | undefined;
  #sent = false;

  /** Sets the status code. */
  status(code: number): this {
    if (!Number.isInteger(code) || code < 200 || code > 599)
      throw new RangeError(`HttpResponse.status(): ${code} is not a final status code`);
    this.#status = code;
    return this;
  }

  /** Sets a header (names are case-insensitive). */
  header(name: string, value: string): this {
    this.#headers[name.toLowerCase()] = value;
    return this;
  }

  /**
   * Sends `value` as JSON. Without `type` it goes through `JSON.stringify` (no `bigint`); with a
   * descriptor it is written by lacquer's JSON codec (exact `u64`, `f32` shortest form).
   */
  json<T extends Type>(value: Infer<T>, type?: T, opts?: Opts): this {
    const text = type === undefined ? JSON.stringify(value) : json.encode(type, value, opts);
    this.#headers['content-type'] ??= 'application/json';
    return this.send(text ?? 'null');
  }

  /** Sends a body: text as `text/plain; charset=utf-8`, bytes as `application/octet-stream`, unless a type is set. */
  send(body: Uint8Array | string): this {
    if (this.#sent) throw new Error('HttpResponse: the answer was already sent');
    this.#headers['content-type'] ??=
      typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
    this.#body = body;
    this.#sent = true;
    return this;
  }

  /** Ends the answer without a body. */
  end(): this {
    if (this.#sent) throw new Error('HttpResponse: the answer was already sent');
    this.#sent = true;
    return this;
  }

  /** Whether `send`, `json` or `end` was called. */
  get sent(): boolean {
    return this.#sent;
  }

  /** What the transport writes; 204 when the handler sent nothing and kept the default status. */
  toEndpointResponse(): EndpointResponse {
    const status = !this.#sent && this.#status === 200 ? 204 : this.#status;
    return { status, headers: { ...this.#headers }, body: this.#body };
  }
}
