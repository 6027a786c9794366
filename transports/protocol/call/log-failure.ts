import { HttpError } from '../../../core/errors/http-error.ts';

/**
 * What the default `onError`s write for an answer of `status` (`heading` names the call): nothing
 * below 500; the error with its stack for a real fault (a thrown error answered 500); one line for
 * an expected refusal (a handler timeout, a call abandoned on shutdown, a client gone, which a
 * flood repeats thousands of times, or an `HttpError` thrown on purpose).
 */
export function logFailure(heading: string, error: unknown, status: number): void {
  if (status < 500) return;
  const line = status === 500 ? refusalLine(error) : describe(error);
  if (line === undefined) console.error(`${heading}:`, error);
  else console.error(`${heading}: ${line}`);
}

/**
 * Errors that are the reason a call's signal aborted (a timeout, a shutdown, a client gone), which
 * a method passed on: expected, though answered 500. Marked by the endpoint, which knows the signal.
 */
const signalReasons = new WeakSet<object>();

/** Marks `error` as the reason of a call's aborted signal: logged on one line. */
export function markSignalReason(error: object): void {
  signalReasons.add(error);
}

/** The one line of an expected refusal answered 500 (a client gone, an `HttpError`); `undefined` for a fault. */
function refusalLine(error: unknown): string | undefined {
  try {
    if (
      error instanceof HttpError ||
      isAbort(error) ||
      (typeof error === 'object' && error !== null && signalReasons.has(error))
    )
      return describe(error);
  } catch {
    // What was thrown cannot be looked at (a Proxy whose traps throw): a fault.
  }
  return undefined;
}

/** An abort or a timeout, by its Web name: what a call's signal gives (`DOMException`), or a method rethrows. */
function isAbort(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const name = (error as { name?: unknown }).name;
  return name === 'AbortError' || name === 'TimeoutError';
}

/** `Name: message` on one line. */
function describe(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = 'an error that cannot be described';
  }
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}
