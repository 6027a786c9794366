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
