import type { AnswerBody } from '../../transports/protocol/types.ts';

/** An endpoint's answer body read whole: bytes or text (frames are refused: read them as a stream). */
export function answerBytes(body: AnswerBody): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  throw new TypeError('the answer body is a sequence of frames, not bytes');
}

/** An endpoint's answer body as UTF-8 text. */
export function answerText(body: AnswerBody): string {
  return typeof body === 'string' ? body : new TextDecoder().decode(answerBytes(body));
}
