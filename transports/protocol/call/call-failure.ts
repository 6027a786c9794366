import { ReadError } from '../../../core/errors/read-error.ts';
import { isRefusal } from './authenticate.ts';
import { calls, type CallSite, type EndpointCall } from './call.ts';
import { markSignalReason } from './log-failure.ts';
import type { ErrorContext } from '../options.ts';
import { errorHeaders, problemForError, serverFault, type ProblemDocument } from '../problem.ts';
import { isRequestStreamError } from '../streams/request-items.ts';
import type { HeaderValues } from '../types.ts';

/** What a registry does with failures, whatever protocol carries its calls. */
export interface FailureSettings {
  readonly exposeErrors: boolean;
  readonly onError: (error: unknown, context: ErrorContext) => void;
}

/** A call's failure: what failed it, its problem document, and the headers its answer carries. */
export interface CallFailure {
  readonly error: unknown;
  readonly doc: ProblemDocument;
  readonly headers: HeaderValues;
}

/**
 * A thrown error as the failure of `call`: a misuse of the call (by `verify`, an interceptor, the
 * method) outweighs what followed it; it is recorded for `onResponse` and told to `onError` (with
 * the status the client gets) unless it is a plain refusal. Never throws, whatever was thrown (a
 * Proxy whose traps throw).
 */
export function callFailure(
  call: EndpointCall,
  site: CallSite,
  thrown: unknown,
  settings: FailureSettings,
): CallFailure {
  const error = calls.mistake(call) ?? thrown;
  calls.setFailure(call, error);
  let doc: ProblemDocument;
  let headers: HeaderValues;
  try {
    doc = problemOf(call, error, settings.exposeErrors);
    // Below 500 the answer keeps the headers the call added, and an HttpError's own.
    headers = errorHeaders(error, doc.status < 500 ? { ...calls.answerHeaders(call) } : {});
  } catch {
    doc = serverFault(call.requestId);
    headers = {};
  }
  reportCallFailure(call, site, error, doc, settings, calls.sentStatus(call));
  return { error, doc, headers };
}

/**
 * 499 (nginx's "client closed request"): the status a failure is reported with when the call's
 * client went away before its answer (an upload abandoned, say). Nobody receives the answer, and
 * the server is not at fault: the default loggers write nothing below 500.
 */
export const CLIENT_CLOSED = 499;

/**
 * Tells `onError` of a call's failure answered (or framed, for a stream) with `doc`, unless it is a
 * plain refusal: with the status the client received (`answered`: the transport's, when it answered
 * for the handler already, a timeout), 499 when the client went away, else the document's.
 */
export function reportCallFailure(
  call: EndpointCall,
  site: CallSite,
  error: unknown,
  doc: ProblemDocument,
  settings: FailureSettings,
  answered: number | undefined,
): void {
  if (isRefusal(error)) return;
  // A method passing on its signal's reason (a timeout, a client gone) failed as expected.
  if (doc.status === 500 && typeof error === 'object' && error !== null) {
    const signal = call.signal;
    if (signal.aborted && signal.reason === error) markSignalReason(error);
  }
  reportFailure(call, site, error, answered ?? (calls.clientGone(call) ? CLIENT_CLOSED : doc.status), settings);
}

/**
 * The problem document of `error`, with the request id when it is a 5xx. A ReadError from inside a
 * method is not about the request: 500 like any other, but for one of the stream it reads (a bad
 * item the client sent).
 */
export function problemOf(call: EndpointCall, error: unknown, exposeErrors: boolean): ProblemDocument {
  const cause =
    error instanceof ReadError && !isRequestStreamError(error) ? new Error(error.message, { cause: error }) : error;
  const doc = problemForError(cause, exposeErrors);
  if (doc.status >= 500) doc.requestId = call.requestId;
  return doc;
}

/** Tells `onError` of `error`, answered with `status`. */
export function reportFailure(
  call: EndpointCall,
  site: CallSite,
  error: unknown,
  status: number,
  settings: FailureSettings,
): void {
  try {
    settings.onError(error, { service: site.service, method: site.method, status, requestId: call.requestId });
  } catch {
    // A failing error hook must not turn one failure into two.
  }
}
