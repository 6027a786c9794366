/** A signal that aborts when the caller's does or once the time is up, and the end of its timer. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Clears the timer and stops following the caller's signal: the call has its answer. */
  release(): void;
}

/**
 * The deadline of a call of `name` with `timeoutMs` of `ms`: once they pass, its signal aborts
 * with a `DOMException` named `TimeoutError` (as `AbortSignal.timeout` does) that names the method
 * and the time; `signal`, the caller's, aborts it with its own reason.
 */
export function deadline(name: string, ms: number, signal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal!.reason);
  const timer = setTimeout(
    () =>
      controller.abort(
        new DOMException(`lacquer/client: ${name}() took longer than its timeoutMs (${ms} ms)`, 'TimeoutError'),
      ),
    ms,
  );
  if (signal?.aborted === true) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
