/** Drops a body not to be read; never awaited: a stream whose `cancel()` never settles cannot hold the call. */
export function discard(response: Response): void {
  response.body?.cancel().catch(() => {});
}

/** `promise`, or the rejection with `signal`'s reason once it aborts, whatever `promise` does. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The longest wait a timer keeps (2^31 - 1 ms, about 24.8 days): runtimes fire longer ones at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `value` when it is a wait a timer keeps, from 0 to `MAX_TIMER_MS` milliseconds; else a TypeError or RangeError naming `what`. */
export function timerMs(what: string, value: unknown): number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number of milliseconds`);
  if (!(value >= 0 && value <= MAX_TIMER_MS))
    throw new RangeError(`${what} must be from 0 to ${MAX_TIMER_MS} ms, got ${value}`);
  return value;
}

/** Resolves after `ms`, or rejects with `signal`'s reason as soon as it aborts, the timer cleared. */
export function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
