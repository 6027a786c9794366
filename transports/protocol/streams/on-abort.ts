/** The callbacks waiting on each shared signal, behind its one listener. */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts; the function returned stops waiting. Each signal
 * gets one listener however many wait on it (a server's shutdown signal, shared by every open
 * stream): a listener per stream would pile up past Node's warning threshold of 10.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const set = (callbacks = new Set());
    waiting.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const call of set) {
          try {
            call();
          } catch {
            // One waiter's failure must not keep the others from being told.
          }
        }
      },
      { once: true },
    );
  }
  callbacks.add(callback);
  return () => void callbacks.delete(callback);
}
