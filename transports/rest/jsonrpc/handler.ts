import type { Codec, ParsedMessage } from '../../../core/codec.ts';
import { t } from '../../../core/descriptors/index.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { HttpError, InvalidArgument } from '../../../core/errors/http-error.ts';
import { ReadError } from '../../../core/errors/read-error.ts';
import type { Opts } from '../../../core/options.ts';
import { Negotiation, type Choice } from '../negotiate.ts';
import { problem, problemForError, problemResponse, type ProblemDocument } from '../problem.ts';
import { EMPTY_BODY, bodyOverLimit } from '../pipeline/request-body.ts';
import { requestIdOf, stampRequestId } from '../pipeline/request-id.ts';
import type { Outcome, Procedure } from '../procedures/procedure.ts';
import type { MessagePart } from '../procedures/message-part.ts';
import type { EndpointRequest, EndpointResponse, Handler, HeaderValues } from '../types.ts';
import { ErrorAnswer, RPC_MESSAGES, RpcCode, resultAnswer, type RpcId } from './messages.ts';

/** What the JSON-RPC route of one registry needs. */
export interface RpcSettings {
  readonly codecs: readonly Codec[];
  readonly opts: Opts;
  readonly maxBodyBytes: number;
  /** The most calls one batch may hold. */
  readonly maxBatch: number;
  /** `Accept-Post`: every media type the codecs read. */
  readonly acceptPost: string;
}

/** One message's answer: its encoded form (nothing for a notification), and the call it came from. */
interface Answered {
  readonly encoded: Uint8Array | string | undefined;
  readonly outcome: Outcome | undefined;
  readonly procedure: Procedure | undefined;
}

const NOTHING: Answered = { encoded: undefined, outcome: undefined, procedure: undefined };
const UNKNOWN = t.unknown();

/**
 * The one route of a JSON-RPC 2.0 registry, `POST {prefix}`: a request or a batch in any of the
 * registry's codecs, each call dispatched to its {@link Procedure} by `method`, the answers in the
 * codec `Accept` chooses; 204 without a body when nothing is answered (notifications only).
 */
export function rpcHandler(procedures: ReadonlyMap<string, Procedure>, settings: RpcSettings): Handler {
  const { codecs, opts } = settings;
  const negotiation = new Negotiation(codecs);
  // The answer envelope of each method, compiled once.
  const envelopes = new Map<Procedure, Type>();
  const envelopeOf = (procedure: Procedure): Type => {
    let envelope = envelopes.get(procedure);
    if (envelope === undefined) envelopes.set(procedure, (envelope = resultAnswer(procedure.returns)));
    return envelope;
  };

  return (request: EndpointRequest): EndpointResponse | Promise<EndpointResponse> => {
    const requestId = request.requestId ?? requestIdOf(request.headers);
    const accept = request.headers.get('accept');
    const fail = (doc: ProblemDocument, headers: HeaderValues = {}) => stamped(problemResponse(doc, accept, codecs, headers));
    const stamped = (answer: EndpointResponse): EndpointResponse => {
      if (request.requestId === undefined) stampRequestId(answer.headers, requestId);
      return answer;
    };

    const contentType = request.headers.get('content-type');
    const codec = contentType === null ? codecs[0]! : negotiation.reader(contentType);
    if (codec === undefined) return fail(problem(415, `a body of type '${contentType}' cannot be read`), { 'accept-post': settings.acceptPost });
    const choice = negotiation.answer(accept, codec);
    if (choice === undefined) return fail(problem(406, `none of the accepted types can be written; available: ${settings.acceptPost}`));

    const withBody = (body: Uint8Array): EndpointResponse | Promise<EndpointResponse> => {
      if (body.byteLength > settings.maxBodyBytes) return fail(bodyOverLimit(settings.maxBodyBytes));
      let parsed: ParsedMessage;
      try {
        parsed = codec.parseMessage?.(body, opts) ?? { tree: codec.decode(UNKNOWN, body, opts), source: 'binary' };
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        return answer(choice, [{ ...NOTHING, encoded: errorAnswer(choice.codec, RpcCode.parseError, null, problemForError(e, false)) }], false);
      }
      const { tree } = parsed;
      if (!Array.isArray(tree)) {
        const one = message(request, requestId, choice.codec, parsed, tree, []);
        return one instanceof Promise ? one.then((a) => answer(choice, [a], false)) : answer(choice, [one], false);
      }
      if (tree.length === 0 || tree.length > settings.maxBatch) {
        const detail = tree.length === 0 ? 'a batch holds at least one call' : `a batch holds at most ${settings.maxBatch} calls (maxBatch), this one ${tree.length}`;
        return answer(choice, [{ ...NOTHING, encoded: errorAnswer(choice.codec, RpcCode.invalidRequest, null, problem(400, detail)) }], false);
      }
      const answers = tree.map((item, index) => message(request, requestId, choice.codec, parsed, item, [index]));
      return answers.some((a) => a instanceof Promise) ? Promise.all(answers).then((all) => answer(choice, all, true)) : answer(choice, answers as Answered[], true);
    };

    /** The HTTP answer: the encoded answers (an array for a batch), or 204 when there are none. */
    const answer = (choice: Choice, answered: readonly Answered[], batch: boolean): EndpointResponse => {
      const encoded = answered.flatMap((a) => (a.encoded === undefined ? [] : [a.encoded]));
      const headers: HeaderValues = codecs.length > 1 ? { vary: 'Accept' } : {};
      const refusal = challenge(answered);
      if (refusal !== undefined) headers['www-authenticate'] = refusal;
      let response: EndpointResponse;
      if (encoded.length === 0) response = { status: 204, headers, body: undefined };
      else {
        headers['content-type'] = choice.contentType;
        response = { status: 200, headers, body: batch ? joined(choice.codec, encoded) : encoded[0] };
      }
      if (answered.some((a) => a.outcome !== undefined)) {
        const prefix = request.prefix ?? '';
        response.written = () => {
          for (const a of answered) if (a.outcome !== undefined) a.procedure!.written(a.outcome, prefix);
        };
      }
      return stamped(response);
    };

    /**
     * One request object of the message (`at`: its index in a batch): checked, dispatched, answered.
     * A notification (no `id`) runs, but its answer is dropped, errors included.
     */
    const message = (request: EndpointRequest, requestId: string, codec: Codec, parsed: ParsedMessage, item: unknown, at: readonly number[]): Answered | Promise<Answered> => {
      if (typeof item !== 'object' || item === null || Array.isArray(item) || item instanceof Uint8Array) {
        return { ...NOTHING, encoded: errorAnswer(codec, RpcCode.invalidRequest, null, problem(400, 'a request is an object { jsonrpc, method, params?, id? }')) };
      }
      const fields = item as Record<string, unknown>;
      const hasId = Object.hasOwn(fields, 'id');
      const id = fields.id;
      if (hasId && !isId(id)) {
        return { ...NOTHING, encoded: errorAnswer(codec, RpcCode.invalidRequest, null, problem(400, 'id must be a string, a number or null')) };
      }
      const reply = (code: number, detail: string): Answered => ({ ...NOTHING, encoded: hasId ? errorAnswer(codec, code, id, problem(400, detail)) : undefined });
      if (fields.jsonrpc !== '2.0') return reply(RpcCode.invalidRequest, `jsonrpc must be "2.0"`);
      const name = fields.method;
      if (typeof name !== 'string') return reply(RpcCode.invalidRequest, 'method must be a string');
      const params = fields.params;
      if (params !== undefined && (typeof params !== 'object' || params === null || params instanceof Uint8Array)) {
        return reply(RpcCode.invalidRequest, 'params must be an array or an object');
      }
      const procedure = procedures.get(name);
      if (procedure === undefined) return reply(RpcCode.methodNotFound, `there is no method '${name}'`);
      const part: MessagePart | undefined = params === undefined ? undefined : {
        tree: params,
        source: parsed.source,
        ...(parsed.exact === undefined ? {} : { exact: () => partOf(parsed.exact!(), at) }),
      };
      const outcome = procedure.invoke(request, requestId, part);
      const done = (o: Outcome): Answered => ({ outcome: o, procedure, encoded: hasId ? encodeOutcome(codec, procedure, o, id as RpcId) : undefined });
      return outcome instanceof Promise ? outcome.then(done) : done(outcome);
    };

    /** A call's answer; a value its return descriptor cannot write fails the call as the method would have. */
    const encodeOutcome = (codec: Codec, procedure: Procedure, outcome: Outcome, id: RpcId): Uint8Array | string => {
      if (outcome.ok) {
        try {
          return codec.encode(envelopeOf(procedure), { jsonrpc: '2.0', result: procedure.returns.kind === 'void' ? null : outcome.value, id } as never);
        } catch (e) {
          const failed = procedure.fail(outcome.call, e);
          return errorAnswer(codec, codeOf(failed), id, failed.doc);
        }
      }
      return errorAnswer(codec, codeOf(outcome), id, outcome.doc);
    };

    if (typeof request.body !== 'function') return withBody(request.body ?? EMPTY_BODY);
    // Called as a method: a transport may read the body with `this`.
    const read = request.body();
    if (read instanceof Promise) return read.then((r) => (r instanceof Uint8Array ? withBody(r) : r));
    return read instanceof Uint8Array ? withBody(read) : read;
  };
}

/** The error code of a failed call. */
function codeOf(outcome: Outcome & { readonly ok: false }): number {
  if (outcome.stage === 'params' || isInvalidArgument(outcome.error)) return RpcCode.invalidParams;
  return outcome.error instanceof HttpError ? RpcCode.serverError : RpcCode.internalError;
}

/** An error answer in `codec`: the specification's message for its code, or the problem's detail. */
function errorAnswer(codec: Codec, code: number, id: unknown, doc: ProblemDocument): Uint8Array | string {
  const message = RPC_MESSAGES[code] ?? doc.detail ?? doc.title ?? 'Server error';
  return codec.encode(ErrorAnswer, { jsonrpc: '2.0', error: { code, message, data: { ...doc } }, id } as never);
}

/** The batch's answers as one array of the codec's. */
function joined(codec: Codec, encoded: readonly (Uint8Array | string)[]): Uint8Array | string {
  if (codec.joinArray !== undefined) return codec.joinArray(encoded);
  return codec.encode(t.array(UNKNOWN), encoded.map((e) => codec.decode(UNKNOWN, e)) as never);
}

/** The `WWW-Authenticate` of the HTTP answer when every call answered was refused for want of credentials. */
function challenge(answered: readonly Answered[]): string | undefined {
  let found: string | undefined;
  for (const a of answered) {
    const outcome = a.outcome;
    if (outcome === undefined) continue;
    if (outcome.ok || outcome.stage !== 'refused' || outcome.doc.status !== 401) return undefined;
    const value = outcome.headers['www-authenticate'];
    found ??= typeof value === 'string' ? value : value?.join(', ');
  }
  return found;
}

function isInvalidArgument(error: unknown): boolean {
  return error instanceof (InvalidArgument as unknown as new () => object);
}

function isId(value: unknown): value is RpcId {
  return value === null || typeof value === 'string' || typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
}

/** The `params` of the request object at `at` in `tree`. */
function partOf(tree: unknown, at: readonly number[]): unknown {
  let node = tree;
  for (const index of at) node = (node as unknown[])[index];
  return (node as Record<string, unknown>).params;
}
