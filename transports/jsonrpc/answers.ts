import type { Codec } from '../../core/codec.ts';
import { t } from '../../core/descriptors/index.ts';
import { ANY_VALUE } from '../protocol/any-value.ts';
import { HttpError, InvalidArgument } from '../../core/errors/http-error.ts';
import type { ProblemDocument } from '../protocol/problem.ts';
import type { Outcome } from '../protocol/call/procedure.ts';
import { ErrorAnswer, RPC_MESSAGES, RpcCode } from './messages.ts';

/** The array of a batch's answers, read back, for a codec that cannot join encoded values. */
const ANY_ARRAY = t.array(ANY_VALUE);

/**
 * The error code of a failed call: `-32602` for arguments that do not read and `InvalidArgument`,
 * `-32000` for an `HttpError` (a refusal included) and a call over its rate limit, `-32603` for
 * any other failure.
 */
export function errorCodeOf(outcome: Outcome & { readonly ok: false }): number {
  if (outcome.stage === 'params' || isInvalidArgument(outcome.error)) return RpcCode.invalidParams;
  return outcome.stage === 'limited' || outcome.error instanceof HttpError
    ? RpcCode.serverError
    : RpcCode.internalError;
}

/**
 * An error answer in `codec`: `message`, else the specification's message for its code, else the
 * problem's detail; the problem document as `data`.
 */
export function errorAnswer(
  codec: Codec,
  code: number,
  id: unknown,
  doc: ProblemDocument,
  message = RPC_MESSAGES[code] ?? doc.detail ?? doc.title ?? 'Server error',
): Uint8Array | string {
  return codec.encode(ErrorAnswer, { jsonrpc: '2.0', error: { code, message, data: { ...doc } }, id } as never);
}

/** A batch's answers as one array in `codec`. */
export function joinAnswers(codec: Codec, encoded: readonly (Uint8Array | string)[]): Uint8Array | string {
  if (codec.joinArray !== undefined) return codec.joinArray(encoded);
  return codec.encode(ANY_ARRAY, encoded.map((e) => codec.decode(ANY_VALUE, e)) as never);
}

function isInvalidArgument(error: unknown): boolean {
  // `InvalidArgument`'s own `instanceof` (see HttpError's `Symbol.hasInstance`).
  return error instanceof (InvalidArgument as unknown as new () => object);
}
