import type { Codec, ParsedMessage } from '../../../core/codec.ts';
import { t } from '../../../core/descriptors/index.ts';
import { ReadError } from '../../../core/errors/read-error.ts';
import type { Opts } from '../../../core/options.ts';
import type { Choice, Negotiation } from '../negotiate.ts';
import { EMPTY_BODY, bodyOverLimit } from '../pipeline/request-body.ts';
import { requestIdOf, stampRequestId } from '../pipeline/request-id.ts';
import { problem, problemResponse, type ProblemDocument } from '../problem.ts';
import type { EndpointRequest, EndpointResponse, HeaderValues } from '../types.ts';

/** What reading a message over HTTP needs. */
export interface MessageSettings {
  readonly codecs: readonly Codec[];
  readonly opts: Opts;
  readonly maxBodyBytes: number;
  /** `Accept-Post`: every media type the codecs read. */
  readonly acceptPost: string;
}

/** One HTTP request carrying a message, as a protocol's handler answers it. */
export interface MessageExchange {
  readonly request: EndpointRequest;
  readonly requestId: string;
  /** The codec of the answer, as `Accept` chose it. */
  readonly choice: Choice;
  /** An HTTP problem answer (in the codec `Accept` prefers for problems). */
  fail(doc: ProblemDocument, headers?: HeaderValues): EndpointResponse;
}

const UNKNOWN = t.unknown();

/**
 * Takes an HTTP request carrying a message in any of the codecs: 415 for a body no codec reads,
 * 406 when no codec can answer, 413 over `maxBodyBytes`; then the body parsed whole, given to
 * `answer` (or `ReadError` to `unparsed`). Every answer carries `x-request-id`.
 */
export function takeMessage(
  request: EndpointRequest,
  settings: MessageSettings,
  negotiation: Negotiation,
  answer: (exchange: MessageExchange, message: ParsedMessage) => EndpointResponse | Promise<EndpointResponse>,
  unparsed: (exchange: MessageExchange, error: ReadError) => EndpointResponse,
): EndpointResponse | Promise<EndpointResponse> {
  const { codecs, opts } = settings;
  const requestId = request.requestId ?? requestIdOf(request.headers);
  const stamped = (response: EndpointResponse): EndpointResponse => {
    // Without a transport's id, the endpoint writes its own.
    if (request.requestId === undefined) stampRequestId(response.headers, requestId);
    return response;
  };
  const accept = request.headers.get('accept');
  const fail = (doc: ProblemDocument, headers: HeaderValues = {}) => stamped(problemResponse(doc, accept, codecs, headers));

  const contentType = request.headers.get('content-type');
  const codec = contentType === null ? codecs[0]! : negotiation.reader(contentType);
  if (codec === undefined) return fail(problem(415, `a body of type '${contentType}' cannot be read`), { 'accept-post': settings.acceptPost });
  const choice = negotiation.answer(accept, codec);
  if (choice === undefined) return fail(problem(406, `none of the accepted types can be written; available: ${settings.acceptPost}`));
  const exchange: MessageExchange = { request, requestId, choice, fail };

  const withBody = (body: Uint8Array): EndpointResponse | Promise<EndpointResponse> => {
    if (body.byteLength > settings.maxBodyBytes) return fail(bodyOverLimit(settings.maxBodyBytes));
    let message: ParsedMessage;
    try {
      message = codec.parseMessage?.(body, opts) ?? { tree: codec.decode(UNKNOWN, body, opts), source: 'binary' };
    } catch (e) {
      if (!(e instanceof ReadError)) return fail(problem(500, 'The server failed to handle the request.', { requestId }));
      return stamped(unparsed(exchange, e));
    }
    const answered = answer(exchange, message);
    return answered instanceof Promise ? answered.then(stamped) : stamped(answered);
  };

  if (typeof request.body !== 'function') return withBody(request.body ?? EMPTY_BODY);
  // Called as a method: a transport may read the body with `this`.
  const read = request.body();
  if (read instanceof Promise) return read.then((r) => (r instanceof Uint8Array ? withBody(r) : r));
  return read instanceof Uint8Array ? withBody(read) : read;
}
