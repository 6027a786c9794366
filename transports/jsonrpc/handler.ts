import type { Codec, ParsedMessage } from '../../core/codec.ts';
import type { ReadError } from '../../core/errors/read-error.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { shownText } from '../../core/errors/shown-text.ts';
import { Negotiation } from '../protocol/negotiate.ts';
import { problem, problemForError } from '../protocol/problem.ts';
import type { Outcome, Procedure } from '../protocol/call/procedure.ts';
import type { EndpointResponse, Handler, HeaderValues } from '../protocol/types.ts';
import { errorAnswer, errorCodeOf, joinAnswers } from './answers.ts';
import { MessageRequest, overridden, type MessageHandler, type MessageSettings } from './message-request.ts';
import { RpcCode, resultAnswer, type RpcId } from './messages.ts';
import { exactId, requestObject } from './request-object.ts';

/** What the JSON-RPC route of one registry needs. */
export interface RpcSettings extends MessageSettings {
  /** The most calls one batch may hold. */
  readonly maxBatch: number;
}

/** One request object's answer: its encoded form (nothing for a notification), and the call it made. */
interface Answered {
  readonly encoded: Uint8Array | string | undefined;
  readonly outcome?: Outcome;
  readonly procedure?: Procedure;
}

/**
 * The one route of a JSON-RPC 2.0 registry, `POST {prefix}`: a request or a batch in any of the
 * registry's codecs, each call dispatched to its {@link Procedure} by `method`, the calls of a
 * batch at once, the answers in the codec `Accept` chooses; 204 without a body when nothing is
 * answered (notifications only). Every answer with a body is a 200.
 */
export function rpcHandler(procedures: ReadonlyMap<string, Procedure>, settings: RpcSettings): Handler {
  const negotiation = new Negotiation(settings.codecs);
  const route = new RpcRoute(procedures, settings);
  return (request) => new MessageRequest(request, settings).take(negotiation, route);
}

class RpcRoute implements MessageHandler {
  constructor(
    readonly procedures: ReadonlyMap<string, Procedure>,
    readonly settings: RpcSettings,
  ) {}

  /** The message: one request object, or a batch of them. */
  answer(exchange: MessageRequest, message: ParsedMessage): EndpointResponse | Promise<EndpointResponse> {
    const { tree } = message;
    if (!Array.isArray(tree)) {
      const one = this.#dispatch(exchange, message, tree, undefined);
      return one instanceof Promise ? one.then((a) => this.#respondOne(exchange, a)) : this.#respondOne(exchange, one);
    }
    const { maxBatch } = this.settings;
    if (tree.length === 0 || tree.length > maxBatch) {
      const detail =
        tree.length === 0
          ? 'a batch holds at least one call'
          : `a batch holds at most ${maxBatch} calls (maxBatch), this one ${tree.length}`;
      return this.#respondOne(exchange, {
        encoded: errorAnswer(exchange.choice.codec, RpcCode.invalidRequest, null, problem(400, detail)),
      });
    }
    const answers = this.#dispatchAll(exchange, message, tree);
    return answers instanceof Promise
      ? answers.then((all) => this.#respond(exchange, all))
      : this.#respond(exchange, answers);
  }

  /**
   * The calls of a batch, in order, at most {@link BATCH_LANES} of them waiting at once: one
   * request cannot start a hundred slow methods together. A call answered at once costs no promise.
   * Once the message is answered for the handler (the timeout, the client gone, a shutdown: the
   * request's signal aborted), no further call starts: a client that sends the batch again would
   * run it twice. A call not started is left out of the answer and of the reports.
   */
  #dispatchAll(
    exchange: MessageRequest,
    message: ParsedMessage,
    tree: readonly unknown[],
  ): Answered[] | Promise<Answered[]> {
    const answers = new Array<Answered>(tree.length).fill(NOT_STARTED);
    const { signal } = exchange.request;
    let next = 0;
    // A lane takes the next call until one has to be waited for, then goes on once it is answered.
    const lane = (): Promise<void> | undefined => {
      while (next < tree.length) {
        if (signal?.aborted === true) return undefined;
        const index = next++;
        const answered = this.#dispatch(exchange, message, tree[index], index);
        if (answered instanceof Promise) {
          return answered.then((a) => {
            answers[index] = a;
            return lane();
          });
        }
        answers[index] = answered;
      }
      return undefined;
    };
    const waiting: Promise<void>[] = [];
    for (let i = 0; i < BATCH_LANES && next < tree.length; i++) {
      const pending = lane();
      if (pending !== undefined) waiting.push(pending);
    }
    return waiting.length === 0 ? answers : Promise.all(waiting).then(() => answers);
  }

  unparsed(exchange: MessageRequest, error: ReadError): EndpointResponse {
    return this.#respondOne(exchange, {
      encoded: errorAnswer(exchange.choice.codec, RpcCode.parseError, null, problemForError(error, false)),
    });
  }

  /**
   * One request object (`index`: its place in a batch): checked, run, answered. A notification (no
   * `id`) runs, but its answer is dropped, errors included.
   */
  #dispatch(
    exchange: MessageRequest,
    message: ParsedMessage,
    item: unknown,
    index: number | undefined,
  ): Answered | Promise<Answered> {
    const codec = exchange.choice.codec;
    const request = requestObject(item);
    if (request.kind === 'invalid')
      return { encoded: errorAnswer(codec, request.code, request.id, problem(400, request.detail)) };
    const { hasId } = request;
    const id = exactId(message, index, request.id);
    const procedure = this.procedures.get(request.method);
    if (procedure === undefined) {
      return {
        encoded: hasId
          ? errorAnswer(
              codec,
              RpcCode.methodNotFound,
              id,
              problem(400, `there is no method '${shownText(request.method)}'`),
            )
          : undefined,
      };
    }
    const params =
      request.params === undefined
        ? undefined
        : { tree: request.params, message, at: index === undefined ? PARAMS : [index, 'params'] };
    const outcome = procedure.invoke(exchange.request, exchange.requestId, params);
    if (outcome instanceof Promise) return outcome.then((o) => this.#answered(codec, procedure, o, hasId, id));
    return this.#answered(codec, procedure, outcome, hasId, id);
  }

  #answered(codec: Codec, procedure: Procedure, outcome: Outcome, hasId: boolean, id: RpcId): Answered {
    return { outcome, procedure, encoded: hasId ? this.#encode(codec, procedure, outcome, id) : undefined };
  }

  /** A call's answer; a value its return descriptor cannot write fails the call as the method would have. */
  #encode(codec: Codec, procedure: Procedure, outcome: Outcome, id: RpcId): Uint8Array | string {
    if (!outcome.ok) return errorAnswer(codec, errorCodeOf(outcome), id, outcome.doc);
    try {
      // `result` is never left out: nothing (`t.void()`, an optional's absence) is `null`, as a REST answer writes it.
      return codec.encode(resultEnvelope(procedure, this.settings), {
        jsonrpc: '2.0',
        result: outcome.value ?? null,
        id,
      } as never);
    } catch (e) {
      const failed = procedure.fail(outcome.call, e);
      return errorAnswer(codec, errorCodeOf(failed), id, failed.doc);
    }
  }

  /** The HTTP answer to a message of one request object: its answer, or 204 for a notification. */
  #respondOne(exchange: MessageRequest, answered: Answered): EndpointResponse {
    const { outcome, procedure } = answered;
    const response = this.#response(
      exchange,
      answered.encoded,
      outcome === undefined ? undefined : challenge([answered]),
    );
    if (outcome !== undefined && procedure!.observed) {
      const prefix = exchange.request.prefix ?? '';
      response.written = (sent) => procedure!.written(outcome, prefix, overridden(response, sent));
    }
    return response;
  }

  /** The HTTP answer to a batch: the answers as one array, or 204 when every call was a notification. */
  #respond(exchange: MessageRequest, answered: readonly Answered[]): EndpointResponse {
    const response = this.#response(exchange, joined(exchange.choice.codec, answered), challenge(answered));
    if (answered.some((a) => a.outcome !== undefined && a.procedure!.observed)) {
      const prefix = exchange.request.prefix ?? '';
      response.written = (sent) => {
        for (const a of answered)
          if (a.outcome !== undefined) a.procedure!.written(a.outcome, prefix, overridden(response, sent));
      };
    }
    return response;
  }

  /** A 200 with `body` in the codec `Accept` chose, or a 204 without one; `refusal`, a challenge every call earned. */
  #response(
    exchange: MessageRequest,
    body: Uint8Array | string | undefined,
    refusal: string | undefined,
  ): EndpointResponse {
    const headers: HeaderValues = this.settings.codecs.length > 1 ? { vary: 'Accept' } : {};
    if (refusal !== undefined) headers['www-authenticate'] = refusal;
    if (body !== undefined) headers['content-type'] = exchange.choice.contentType;
    return { status: body === undefined ? 204 : 200, headers, body };
  }
}

/** The place of a batch's call that did not start. */
const NOT_STARTED: Answered = { encoded: undefined };

/** The most calls of one batch whose methods are under way at once. */
export const BATCH_LANES = 8;

/** Where a lone request's params are. */
const PARAMS: readonly string[] = ['params'];

/** A batch's answers as one array, or nothing when every call was a notification. */
function joined(codec: Codec, answered: readonly Answered[]): Uint8Array | string | undefined {
  const encoded = answered.flatMap((a) => (a.encoded === undefined ? [] : [a.encoded]));
  return encoded.length === 0 ? undefined : joinAnswers(codec, encoded);
}

/** The answer envelope of each method, made once. */
const envelopes = new WeakMap<Procedure, Type>();

/**
 * The answer envelope of `procedure`'s results, made and compiled for every codec on first use: the
 * registry asks for it when it registers the method, while the platform allows generating code.
 */
export function resultEnvelope(procedure: Procedure, settings: Pick<RpcSettings, 'codecs' | 'opts'>): Type {
  let envelope = envelopes.get(procedure);
  if (envelope === undefined) {
    envelopes.set(procedure, (envelope = resultAnswer(procedure.returns)));
    for (const codec of settings.codecs) codec.prepare?.(envelope, settings.opts);
  }
  return envelope;
}

/** The `WWW-Authenticate` of the HTTP answer when every call was refused for want of credentials. */
function challenge(answered: readonly Answered[]): string | undefined {
  let found: string | undefined;
  for (const { outcome, encoded } of answered) {
    // An invalid request, an unknown method: answered, and not refused.
    if (outcome === undefined) {
      if (encoded !== undefined) return undefined;
      continue;
    }
    if (outcome.ok || outcome.stage !== 'refused' || outcome.doc.status !== 401) return undefined;
    const value = outcome.headers['www-authenticate'];
    found ??= typeof value === 'string' ? value : value?.join(', ');
  }
  return found;
}
