/**
 * How long a stream answer waits for its first item before it begins without it: 50 ms. A source
 * that fails within it (an `HttpError` thrown before the first `yield`) gets an ordinary problem
 * answer, with its status and headers; a source with nothing to send yet (a live feed waiting for
 * the next change) gets its 200 and headers then, heartbeats while idle, and whatever it yields or
 * throws later as frames.
 */
export const FIRST_ITEM_WAIT_MS = 50;

/**
 * The first item, if it comes (or fails) within `ms`; else `undefined`, `pending` still under way
 * (its failure is caught here, so that it never rejects unheard before the stream takes it).
 */
export function firstItemWithin(
  pending: Promise<IteratorResult<unknown>>,
  ms: number,
): Promise<IteratorResult<unknown> | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    // The stream's own connection keeps a process alive; this timer need not.
    (timer as { unref?: () => void }).unref?.();
    pending.then(
      (item) => {
        clearTimeout(timer);
        resolve(item);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
