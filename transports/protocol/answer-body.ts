import type { AnswerBody, Frames } from './types.ts';

/** Whether an answer's body is frames (written as they come) rather than bytes or text. */
export function isFrames(body: AnswerBody): body is Frames {
  return body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array);
}

/** Tells a frame source that no frame will be asked for (a HEAD, an answer with no body, a client gone). */
export function stopFrames(frames: Frames): void {
  void frames[Symbol.asyncIterator]()
    .return?.()
    ?.catch(() => {});
}
