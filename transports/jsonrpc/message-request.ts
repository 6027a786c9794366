import type { Codec, ParsedMessage } from '../../core/codec.ts';
import { ANY_VALUE } from '../protocol/any-value.ts';
import { ReadError } from '../../core/errors/read-error.ts';
import type { Opts } from '../../core/options.ts';
import type { Choice, Negotiation } from '../protocol/negotiate.ts';
import { bodyOverLimit, pullBody } from '../protocol/pipeline/request-body.ts';
import { requestIdOf, stampRequestId } from '../protocol/pipeline/request-id.ts';
import {
  notAcceptable,
  problemResponse,
  serverFault,
  unreadableBody,
  type ProblemDocument,
} from '../protocol/problem.ts';
import type { EndpointRequest, EndpointResponse, HeaderValues } from '../protocol/types.ts';

/** What reading a message over HTTP needs. */
export interface MessageSettings {
  readonly codecs: readonly Codec[];
  readonly opts: Opts;
  readonly maxBodyBytes: number;
  /** `Accept-Post`: every media type the codecs read. */
  readonly acceptPost: string;
}

/** What a protocol does with a message, once it is read. */
export interface MessageHandler {
  /** The answer to the parsed message. */
  answer(exchange: MessageRequest, message: ParsedMessage): EndpointResponse | Promise<EndpointResponse>;
  /** The answer to a body that does not parse. */
  unparsed(exchange: MessageRequest, error: ReadError): EndpointResponse;
}

/**
 * One HTTP request carrying a message in any of the codecs, as a protocol's handler answers it:
 * 415 for a body no codec reads, 406 when no codec can answer, 413 over `maxBodyBytes`; then the
 * body parsed whole and handed on. Every answer carries `x-request-id`.
 */
export class MessageRequest {
  readonly requestId: string;
  /** The codec of the answer, as `Accept` chose it; set once the request is taken. */
  choice!: Choice;
  readonly #accept: string | null;

  constructor(
    readonly request: EndpointRequest,
    readonly settings: MessageSettings,
  ) {
    this.requestId = request.requestId ?? requestIdOf(request.headers);
    this.#accept = request.headers.get('accept');
  }

  /** Takes the request: its codecs, its body, its message, and `handler`'s answer to it. */
  take(negotiation: Negotiation, handler: MessageHandler): EndpointResponse | Promise<EndpointResponse> {
    const { request, settings } = this;
    const contentType = request.headers.get('content-type');
    const codec = contentType === null ? settings.codecs[0]! : negotiation.reader(contentType);
    if (codec === undefined) return this.fail(unreadableBody(contentType!), { 'accept-post': settings.acceptPost });
    const choice = negotiation.answer(this.#accept, codec);
    if (choice === undefined) return this.fail(notAcceptable(settings.acceptPost));
    this.choice = choice;
    const read = pullBody(request);
    if (read instanceof Promise)
      return read.then((r) => (r instanceof Uint8Array ? this.#withBody(codec, r, handler) : r));
    return read instanceof Uint8Array ? this.#withBody(codec, read, handler) : read;
  }

  /** An HTTP problem answer (in the codec `Accept` prefers for problems). */
  fail(doc: ProblemDocument, headers: HeaderValues = {}): EndpointResponse {
    return this.stamped(problemResponse(doc, this.#accept, this.settings.codecs, headers));
  }

  /** `response` with `x-request-id`, when no transport writes it. */
  stamped(response: EndpointResponse): EndpointResponse {
    if (this.request.requestId === undefined) stampRequestId(response.headers, this.requestId);
    return response;
  }

  #withBody(codec: Codec, body: Uint8Array, handler: MessageHandler): EndpointResponse | Promise<EndpointResponse> {
    const { settings } = this;
    if (body.byteLength > settings.maxBodyBytes) return this.fail(bodyOverLimit(settings.maxBodyBytes));
    let message: ParsedMessage;
    try {
      message = codec.parseMessage?.(body, settings.opts) ?? {
        tree: codec.decode(ANY_VALUE, body, settings.opts),
        source: 'binary',
      };
    } catch (e) {
      if (!(e instanceof ReadError)) return this.fail(serverFault(this.requestId));
      return this.stamped(handler.unparsed(this, e));
    }
    const answered = handler.answer(this, message);
    return answered instanceof Promise ? answered.then((a) => this.stamped(a)) : this.stamped(answered);
  }
}

/** The status the transport wrote in place of `response`'s (a 503 at the handler timeout), if it did. */
export function overridden(response: EndpointResponse, sent: number): number | undefined {
  return sent === response.status ? undefined : sent;
}
