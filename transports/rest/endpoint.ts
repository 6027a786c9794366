import type { Codec } from '../../core/codec.ts';
import type { MethodContract } from '../../core/contract/method.ts';
import { ReadError } from '../../core/errors/read-error.ts';
import type { Opts } from '../../core/options.ts';
import { bodyType } from './body-type.ts';
import { chooseResponseCodec, codecForContentType } from './negotiate.ts';
import type { ErrorContext } from './options.ts';
import { problem, problemForError, problemResponse, type ProblemDocument } from './problem.ts';
import type { EndpointRequest, EndpointResponse, Handler } from './types.ts';

/** What every endpoint of one registry shares. */
export interface EndpointSettings {
  readonly codecs: readonly Codec[];
  readonly opts: Opts;
  readonly exposeErrors: boolean;
  readonly onError: (error: unknown, context: ErrorContext) => void;
  readonly maxBodyBytes: number;
  /** `Accept-Post`: every media type the codecs read. */
  readonly acceptPost: string;
}

const EMPTY = new Uint8Array(0);

/**
 * Builds the handler of one service method: checks size, `Content-Type` and `Accept`, reads the
 * arguments, calls the method and writes its result; every failure becomes a problem document.
 */
export function createEndpoint(
  instance: Record<string, unknown>,
  name: string,
  contract: MethodContract,
  settings: EndpointSettings,
): Handler {
  const { codecs, opts, maxBodyBytes } = settings;
  const input = bodyType(contract.params);
  const returnsVoid = contract.returns.kind === 'void';
  const call = instance[name] as (...args: unknown[]) => unknown;

  const fail = (accept: string | null, doc: ProblemDocument, headers: Record<string, string> = {}) =>
    problemResponse(doc, accept, codecs, { vary: 'Accept', ...headers });
  // The method threw, or its result could not be written: the server's fault, unless it says otherwise.
  const failed = (accept: string | null, error: unknown) => {
    // A ReadError from inside a method is not about the request body: 500 like any other.
    const cause = error instanceof ReadError ? new Error(error.message, { cause: error }) : error;
    const doc = problemForError(cause, settings.exposeErrors);
    try {
      settings.onError(error, { method: name, status: doc.status });
    } catch {
      // A failing error hook must not turn one failure into two.
    }
    return fail(accept, doc);
  };

  return async (request: EndpointRequest): Promise<EndpointResponse> => {
    const accept = request.headers.get('accept');
    const body = request.body ?? EMPTY;
    if (body.byteLength > maxBodyBytes) {
      return fail(accept, problem(413, `the request body is over ${maxBodyBytes} bytes`));
    }
    const contentType = request.headers.get('content-type');
    let requestCodec = contentType === null ? undefined : codecForContentType(codecs, contentType);
    if (input !== undefined && body.byteLength > 0 && requestCodec === undefined) {
      if (contentType !== null) {
        return fail(accept, problem(415, `a body of type '${contentType}' cannot be read`), { 'accept-post': settings.acceptPost });
      }
      requestCodec = codecs[0];
    }
    const answer = returnsVoid ? undefined : chooseResponseCodec(codecs, accept, requestCodec);
    if (!returnsVoid && answer === undefined) {
      return fail(accept, problem(406, `none of the accepted types can be written; available: ${settings.acceptPost}`));
    }

    let args: unknown[] = [];
    if (input !== undefined) {
      try {
        const value = (requestCodec ?? codecs[0]!).decode(input, body, opts);
        args = contract.params.length === 1 ? [value] : (value as unknown[]);
      } catch (e) {
        if (e instanceof ReadError) return fail(accept, problemForError(e, false));
        return failed(accept, e);
      }
    }

    let encoded: Uint8Array | string | undefined;
    try {
      const result = await call.apply(instance, args);
      if (answer !== undefined) encoded = answer.codec.encode(contract.returns, result as never, opts);
    } catch (e) {
      return failed(accept, e);
    }
    if (answer === undefined) return { status: 204, headers: { vary: 'Accept' }, body: undefined };
    return { status: 200, headers: { 'content-type': answer.contentType, vary: 'Accept' }, body: encoded };
  };
}
