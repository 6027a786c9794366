import { ReadError } from '../../core/errors/read-error.ts';
import { callFailure, problemOf, reportCallFailure } from '../protocol/call/call-failure.ts';
import { authenticate } from '../protocol/call/authenticate.ts';
import type { ArgumentSources } from './arguments.ts';
import { namedArguments } from '../protocol/call/named-arguments.ts';
import { argumentsReader } from './read-arguments.ts';
import { EndpointCall, calls, type CallSite } from '../protocol/call/call.ts';
import { intercept } from '../protocol/call/interceptors.ts';
import { isThenable } from '../protocol/thenable.ts';
import { Negotiation, type Choice } from '../protocol/negotiate.ts';
import { chooseStreamType, streamTypes } from '../protocol/streams/choose.ts';
import { StreamType } from '../../core/descriptors/stream.ts';
import { StreamFrames } from '../protocol/streams/frames.ts';
import { iteratorOf } from '../protocol/streams/iterator-of.ts';
import { FIRST_ITEM_WAIT_MS, firstItemWithin } from '../protocol/streams/first-item.ts';
import { oneLine } from '../protocol/streams/text.ts';
import { requestItems } from '../protocol/streams/request-items.ts';
import { requestSequenceCodec, sequenceReader, sequenceWriter } from '../protocol/streams/framing.ts';
import type { SequenceWriter } from '../protocol/streams/writer.ts';
import { reportResponse } from '../protocol/call/response-report.ts';
import {
  notAcceptable,
  problem,
  problemForError,
  problemResponse,
  serverFault,
  unreadableBody,
  type ProblemDocument,
} from '../protocol/problem.ts';
import { requestIdOf, stampRequestId } from '../protocol/pipeline/request-id.ts';
import { bodyOverLimit, pullBody } from '../protocol/pipeline/request-body.ts';
import type { MethodPlan } from '../protocol/call/method-plan.ts';
import type { RegistrySettings } from '../protocol/serving.ts';
import { addVary } from '../protocol/vary.ts';
import type { EndpointRequest, EndpointResponse, Handler, HeaderValues } from '../protocol/types.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { methodLimiter, type RateLimitVerdict } from '../protocol/call/rate-limit.ts';
import { cacheControl } from './cache-control.ts';
import { conditionalAnswer } from './conditional.ts';

/** One service method as a REST registry exposes it. */
export interface EndpointPlan extends MethodPlan {
  /** Where the arguments travel. */
  readonly sources: ArgumentSources;
  /** The path below the mount prefix: `/getUser`, or a route's pattern `/notes/:id`. */
  readonly path: string;
}

/** A copy of `headers` with `Accept` in its `Vary`: every answer of an endpoint depends on it. */
function withVaryOnAccept(headers: HeaderValues): HeaderValues {
  const out = { ...headers };
  addVary(out, 'Accept');
  return out;
}

/**
 * Builds the handler of one service method: authenticates the caller (before the body is read),
 * reads the body under the size cap, checks `Content-Type` and `Accept`, decodes the arguments,
 * runs the interceptors and the method with its {@link EndpointCall}, and writes the result with
 * its status and headers; every failure becomes a problem document.
 */
export function createEndpoint(plan: EndpointPlan, settings: RegistrySettings): Handler {
  const { contract, schemes, interceptors } = plan;
  const { codecs, opts, maxBodyBytes, onResponse, telemetry } = settings;
  const negotiation = new Negotiation(codecs);
  const input = plan.sources.body;
  const readArguments = argumentsReader(contract, plan.sources, opts, schemes);
  const returnsVoid = contract.returns.kind === 'void';
  // A method reading a stream gets items of this descriptor, read from the body as it takes them.
  const incoming = contract.bodyStream?.item;
  const streamName = contract.paramNames?.[0];
  const acceptStreams = codecs.flatMap((c) => (c.sequenceType === undefined ? [] : [c.sequenceType])).join(', ');
  const answerStreamTypes = streamTypes(codecs);
  // A stream method answers items of this descriptor, framed as `Accept` chooses.
  const stream = contract.returns instanceof StreamType ? contract.returns.item : undefined;
  const returns = contract.returns instanceof StreamType ? contract.returns.item : contract.returns;
  const site: CallSite = {
    service: plan.service,
    method: plan.name,
    status: contract.status ?? (returnsVoid ? 204 : 200),
    returnsVoid,
    stream: stream !== undefined,
  };
  // Compiled now, while the platform allows generating code (see Codec.prepare).
  for (const codec of codecs) {
    if (input !== undefined) codec.prepare?.(input, opts);
    // A stream's items are written on one line whatever `prettify` says (see `oneLine`).
    if (!returnsVoid) codec.prepare?.(returns, stream === undefined ? opts : oneLine(opts));
  }
  const limiter = methodLimiter(
    contract.rateLimit,
    settings.rateLimit,
    settings.rateLimitStore,
    plan.service,
    plan.name,
  );
  // The Cache-Control of GET answers; `no-store` also means no ETag.
  const control = cacheControl(contract.cache, schemes.length > 0);
  const method = (plan.instance as Record<string, (...args: unknown[]) => unknown>)[plan.name]!;
  // Named parameters are one argument, the object of them (none: no argument).
  const oneArgument =
    contract.paramNames === undefined ? contract.paramTypes.length === 1 : contract.paramNames.length > 0;
  const run = oneArgument
    ? (call: EndpointCall) => method.call(plan.instance, call.args[0], call)
    : (call: EndpointCall) => method.apply(plan.instance, [...call.args, call]);

  const fail = (accept: string | null, doc: ProblemDocument, headers: HeaderValues = {}) =>
    problemResponse(doc, accept, codecs, withVaryOnAccept(headers));

  /** A thrown error as an answer, told to `onError` unless it is a plain refusal. Never throws. */
  const failed = (call: EndpointCall, accept: string | null, thrown: unknown): EndpointResponse => {
    const { doc, headers } = callFailure(call, site, thrown, settings);
    try {
      return fail(accept, doc, headers);
    } catch {
      return fail(accept, serverFault(call.requestId));
    }
  };

  /**
   * The answer to one call, in steps that each go on at once when they can: a promise only where
   * something is awaited (a `verify`, a body still arriving, a method that is async). Most calls
   * of a plain endpoint are answered without one.
   */
  const respond = (call: EndpointCall, request: EndpointRequest): EndpointResponse | Promise<EndpointResponse> => {
    const accept = request.headers.get('accept');
    if (schemes.length > 0) {
      let pending: void | Promise<void>;
      try {
        pending = authenticate(call, schemes);
      } catch (e) {
        return failed(call, accept, e);
      }
      if (pending !== undefined)
        return pending.then(
          () => settle(call, admitted(call, request, accept)),
          (e: unknown) => finish(call, failed(call, accept, e)),
        );
    }
    return admitted(call, request, accept);
  };

  /** The caller is admitted: counted by the rate limit, if any, before the body is read. */
  const admitted = (
    call: EndpointCall,
    request: EndpointRequest,
    accept: string | null,
  ): EndpointResponse | Promise<EndpointResponse> => {
    if (calls.mistake(call) !== undefined) return failed(call, accept, undefined);
    if (limiter === undefined) return withinLimit(call, request, accept);
    let verdict: RateLimitVerdict | Promise<RateLimitVerdict>;
    try {
      verdict = limiter.hit(call);
    } catch (e) {
      return failed(call, accept, e);
    }
    if (verdict instanceof Promise)
      return verdict.then(
        (v) => settle(call, counted(call, request, accept, v)),
        (e: unknown) => finish(call, failed(call, accept, e)),
      );
    return counted(call, request, accept, verdict);
  };

  /** The call counted: answered 429 over the limit, else gone on with; its answer will say the limit's state. */
  const counted = (
    call: EndpointCall,
    request: EndpointRequest,
    accept: string | null,
    verdict: RateLimitVerdict,
  ): EndpointResponse | Promise<EndpointResponse> => {
    calls.setRateLimit(call, verdict.state);
    const refusal = verdict.refusal;
    return refusal === undefined
      ? withinLimit(call, request, accept)
      : fail(accept, refusal.doc, { 'retry-after': refusal.retryAfter });
  };

  /** Reads the body (only now), then goes on. */
  const withinLimit = (
    call: EndpointCall,
    request: EndpointRequest,
    accept: string | null,
  ): EndpointResponse | Promise<EndpointResponse> => {
    if (incoming !== undefined && typeof request.bodyStream === 'function') {
      // Called as a method: the transport reads its body with `this`.
      const chunks = request.bodyStream(settings.maxStreamBytes);
      return isChunks(chunks) ? withStream(call, request, accept, chunks) : chunks;
    }
    const read = pullBody(request);
    // Most bodies are known to be empty at once (a GET): no promise to wait for then.
    if (read instanceof Promise)
      return read.then((r) => settle(call, r instanceof Uint8Array ? withBody(call, request, accept, r) : r));
    return read instanceof Uint8Array ? withBody(call, request, accept, read) : read;
  };

  /**
   * A method reading a stream: its body's media type names the sequence, and the method gets the
   * items as an `AsyncIterable` read from `chunks` as it takes them, closed when it settles.
   */
  const withStream = (
    call: EndpointCall,
    request: EndpointRequest,
    accept: string | null,
    chunks: AsyncIterable<Uint8Array>,
  ): EndpointResponse | Promise<EndpointResponse> => {
    const contentType = request.headers.get('content-type');
    const codec = contentType === null ? undefined : requestSequenceCodec(contentType, codecs);
    if (codec === undefined) {
      return fail(accept, problem(415, `a stream's body is a sequence: one of ${acceptStreams}`), {
        'accept-post': acceptStreams,
      });
    }
    const answer = returnsVoid ? undefined : negotiation.answer(accept, codec);
    if (!returnsVoid && answer === undefined) {
      return fail(accept, notAcceptable(settings.acceptPost));
    }
    const hold =
      typeof request.holdStreamBytes === 'function' ? (bytes: number) => request.holdStreamBytes!(bytes) : undefined;
    const items = requestItems(
      chunks,
      sequenceReader(contentType!, codec, incoming!, { opts, maxItemBytes: settings.maxItemBytes, endAtEof: true }),
      hold,
    );
    // Named, the stream is the one member of the arguments object.
    calls.setArgs(call, [streamName === undefined ? items : namedArguments([streamName], { [streamName]: items })]);
    // The rest of the body is the transport's to discard once the method no longer reads it.
    const close = () => void items.return(undefined).catch(() => {});
    let result: unknown;
    try {
      result = interceptors.length === 0 ? run(call) : intercept(interceptors, call, run);
    } catch (e) {
      close();
      return failed(call, accept, e);
    }
    return Promise.resolve(result).then(
      (value) => {
        close();
        return finish(call, returned(call, accept, answer, value));
      },
      (e: unknown) => {
        close();
        return finish(call, failed(call, accept, e));
      },
    );
  };

  /** Checks the body's size and media type and `Accept`, decodes the arguments, runs the call. */
  const withBody = (
    call: EndpointCall,
    request: EndpointRequest,
    accept: string | null,
    body: Uint8Array,
  ): EndpointResponse | Promise<EndpointResponse> => {
    // Read whole already (a caller without `bodyStream`, such as `Endpoints.handle`): one chunk.
    if (incoming !== undefined) return withStream(call, request, accept, oneChunk(body));
    if (body.byteLength > maxBodyBytes) {
      return fail(accept, bodyOverLimit(maxBodyBytes));
    }
    const contentType = request.headers.get('content-type');
    let requestCodec = contentType === null ? undefined : negotiation.reader(contentType);
    if (input !== undefined && body.byteLength > 0 && requestCodec === undefined) {
      if (contentType !== null) {
        return fail(accept, unreadableBody(contentType), { 'accept-post': settings.acceptPost });
      }
      requestCodec = codecs[0];
    }
    const answer = returnsVoid
      ? undefined
      : stream === undefined
        ? negotiation.answer(accept, requestCodec)
        : chooseStreamType(codecs, accept, requestCodec);
    if (!returnsVoid && answer === undefined) {
      return fail(accept, notAcceptable(stream === undefined ? settings.acceptPost : answerStreamTypes));
    }

    if (readArguments !== undefined) {
      try {
        calls.setArgs(call, readArguments(request, requestCodec ?? codecs[0]!, body));
      } catch (e) {
        if (!(e instanceof ReadError)) return failed(call, accept, e);
        calls.setFailure(call, e);
        return fail(accept, problemForError(e, false));
      }
    }

    let result: unknown;
    let pending: boolean;
    try {
      result = interceptors.length === 0 ? run(call) : intercept(interceptors, call, run);
      // Inside the try: reading `then` of a Proxy may throw.
      pending = isThenable(result);
    } catch (e) {
      return failed(call, accept, e);
    }
    if (stream !== undefined) return streamed(call, request, accept, answer!, result);
    if (pending) {
      return Promise.resolve(result).then(
        (value) => finish(call, returned(call, accept, answer, value)),
        (e: unknown) => finish(call, failed(call, accept, e)),
      );
    }
    return returned(call, accept, answer, result);
  };

  /**
   * A stream method returned `result` (an `AsyncIterable`, or a promise of one), within the handler
   * timeout: the stream has begun, and the timeout no longer applies. Its first item is waited for
   * a moment (`FIRST_ITEM_WAIT_MS`), so that a failure before it is an ordinary problem answer;
   * then the answer begins, with the first item or without it (a live feed with nothing to send
   * yet), and the items follow as the transport takes them.
   */
  const streamed = async (
    call: EndpointCall,
    request: EndpointRequest,
    accept: string | null,
    choice: Choice,
    result: unknown,
  ): Promise<EndpointResponse> => {
    let source: AsyncIterator<unknown>;
    let first: IteratorResult<unknown> | Promise<IteratorResult<unknown>>;
    try {
      source = iteratorOf(await result);
      request.streaming?.();
      const pending = Promise.resolve(source.next());
      first = (await firstItemWithin(pending, FIRST_ITEM_WAIT_MS)) ?? pending;
      const mistake = calls.mistake(call);
      if (mistake !== undefined) throw mistake;
    } catch (e) {
      return finish(call, failed(call, accept, e));
    }
    if (calls.sentStatus(call) !== undefined) {
      // Answered already (its handler timed out): no frame will be pulled, so the source stops now.
      void Promise.resolve()
        .then(() => source.return?.())
        .catch(() => {});
      return finish(call, { status: calls.successStatus(call), headers: {}, body: undefined });
    }
    const framing = writerFor(choice);
    const ends = {
      fail: (error: unknown) => endOfStream(call, error),
      stopped: (reason: Error) => calls.endStream(call, reason),
    };
    const frames = new StreamFrames(source, first, framing, ends, settings.streamLimits, calls.shutdown(call));
    const own = calls.answerHeaders(call);
    const headers: HeaderValues = own === undefined ? { vary: 'Accept' } : withVaryOnAccept(own);
    headers['content-type'] = choice.contentType;
    headers['cache-control'] = 'no-store';
    return finish(call, { status: calls.successStatus(call), headers, body: frames });
  };

  /** A stream's writer per media type, made on first use: writers keep no state of a stream. */
  const writers = new Map<string, SequenceWriter<Type>>();
  const writerFor = (choice: Choice): SequenceWriter<Type> => {
    let writer = writers.get(choice.contentType);
    if (writer === undefined)
      writers.set(choice.contentType, (writer = sequenceWriter(choice.contentType, choice.codec, stream!, opts)));
    return writer;
  };

  /**
   * The problem document ending a stream whose source failed, reported to `onError` as any failure,
   * with the document's status (the answer's 200 was the stream's beginning). Never throws, whatever
   * was thrown (a Proxy whose traps throw is a 500).
   */
  const endOfStream = (call: EndpointCall, error: unknown): ProblemDocument => {
    let doc: ProblemDocument;
    try {
      doc = problemOf(call, error, settings.exposeErrors);
    } catch {
      doc = serverFault(call.requestId);
    }
    // Its answer's 200 was the stream's beginning: the frame's status is what the client reads.
    reportCallFailure(call, site, error, doc, settings, undefined);
    return doc;
  };

  /** The method returned `result`: the success answer, with the call's status and headers. */
  const returned = (
    call: EndpointCall,
    accept: string | null,
    answer: Choice | undefined,
    result: unknown,
  ): EndpointResponse => {
    let encoded: Uint8Array | string | undefined;
    try {
      const mistake = calls.mistake(call);
      if (mistake !== undefined) throw mistake;
      if (answer !== undefined) encoded = answer.codec.encode(returns, result as never, opts);
    } catch (e) {
      return failed(call, accept, e);
    }
    const own = calls.answerHeaders(call);
    const headers: HeaderValues = own === undefined ? { vary: 'Accept' } : withVaryOnAccept(own);
    const status = calls.successStatus(call);
    const read = call.verb === 'GET' || call.verb === 'HEAD';
    if (answer === undefined) {
      if (read && control !== undefined) headers['cache-control'] ??= control;
      return { status, headers, body: undefined };
    }
    if (read && status === 200)
      return conditionalAnswer(headers, encoded!, answer.contentType, control, calls.readHeader(call, 'if-none-match'));
    headers['content-type'] = answer.contentType;
    return { status, headers, body: encoded };
  };

  /**
   * Adds the report `onResponse` gets once the transport has written a call's answer. Applied
   * where an answer is made at the end of a step that was awaited, rather than in one more step
   * after it: each `then` is a turn of the microtask queue per call.
   */
  const finish = (call: EndpointCall, answer: EndpointResponse): EndpointResponse => {
    if (limiter !== undefined) rateLimitHeaders(call, answer.headers, limiter.policy);
    if (onResponse !== undefined) {
      answer.written = (status) => reportResponse(onResponse, call, call.prefix, status);
    }
    return answer;
  };

  /** A step's outcome: an answer made at once is finished here; a promise comes from a later step, which finishes its own. */
  const settle = (
    call: EndpointCall,
    answer: EndpointResponse | Promise<EndpointResponse>,
  ): EndpointResponse | Promise<EndpointResponse> => (answer instanceof Promise ? answer : finish(call, answer));

  /** A request answered inside its span, which ends when the answer is written. */
  const traced = (
    call: EndpointCall,
    request: EndpointRequest,
    stampId: string | undefined,
  ): EndpointResponse | Promise<EndpointResponse> => {
    const prefix = request.prefix ?? '';
    const span = telemetry!.serverSpan({
      protocol: 'REST',
      verb: request.method,
      route: prefix + plan.path,
      path: request.requestPath ?? prefix + request.path,
      service: plan.service,
      method: plan.name,
      headers: request.headers,
      clientAddress: request.ip,
    });
    const ended = (answer: EndpointResponse): EndpointResponse => {
      const written = answer.written;
      answer.written = (status) => {
        written?.(status);
        span.end(status, calls.failure(call));
      };
      if (stampId !== undefined) stampRequestId(answer.headers, stampId);
      return answer;
    };
    const answer = settle(call, respond(call, request));
    return answer instanceof Promise ? answer.then(ended) : ended(answer);
  };

  const handle = (request: EndpointRequest): EndpointResponse | Promise<EndpointResponse> => {
    // A transport chose the id and writes it on the answer (`EndpointRequest.requestId`); called
    // without one, the endpoint chooses it and writes it itself.
    const chosen = request.requestId;
    const requestId = chosen ?? requestIdOf(request.headers);
    const call = new EndpointCall(site, request, requestId, onResponse === undefined ? 0 : performance.now());
    if (telemetry !== undefined) return traced(call, request, chosen === undefined ? requestId : undefined);
    const answer = settle(call, respond(call, request));
    if (chosen !== undefined) return answer;
    const stamped = (own: EndpointResponse) => {
      stampRequestId(own.headers, requestId);
      return own;
    };
    return answer instanceof Promise ? answer.then(stamped) : stamped(answer);
  };
  // The pipeline reads an endpoint's own time limit from its handler.
  return contract.timeoutMs === undefined ? handle : Object.assign(handle, { timeoutMs: contract.timeoutMs });
}

/**
 * Every answer of a rate-limited endpoint says its limit (`RateLimit-Policy`), and, once the call
 * was counted (after its credential was checked), the state of its key's window (`RateLimit`).
 */
function rateLimitHeaders(call: EndpointCall, headers: HeaderValues, policy: string): void {
  headers['ratelimit-policy'] = policy;
  const state = calls.rateLimit(call);
  if (state !== undefined) headers.ratelimit = state;
}

/** Whether the transport gave chunks, not an answer of its own. */
function isChunks(value: AsyncIterable<Uint8Array> | EndpointResponse): value is AsyncIterable<Uint8Array> {
  return typeof (value as Partial<AsyncIterable<Uint8Array>>)[Symbol.asyncIterator] === 'function';
}

async function* oneChunk(body: Uint8Array): AsyncGenerator<Uint8Array, void, undefined> {
  if (body.byteLength > 0) yield body;
}
