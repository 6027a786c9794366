type Timer = ReturnType<typeof setTimeout>;

/**
 * The calls of one fetch handler in flight, each with the function that gives up on it, answered
 * when their deadline passes. One timer serves them all, armed for the earliest deadline while
 * calls are in flight, rather than a timer and a race per request (on a throwaway build, Bun
 * answered small requests twice as fast without them). All calls share one timeout, so insertion
 * order is deadline order.
 *
 * workerd ties a timer to the request that set it (it may not outlive that request), so there each
 * call gets a timer of its own.
 */
export class Deadlines {
  /** Each call's deadline (`performance.now()`), or on workerd the call's own timer. */
  readonly #calls = new Map<() => void, number | Timer>();
  #timer: Timer | undefined;
  readonly #perCall = isWorkerd();

  constructor(readonly timeoutMs: number) {}

  /** Calls `giveUp` once `timeoutMs` has passed, unless `remove` comes first. */
  add(giveUp: () => void): void {
    if (this.#perCall) {
      const timer = setTimeout(() => {
        this.#calls.delete(giveUp);
        giveUp();
      }, this.timeoutMs);
      this.#calls.set(giveUp, timer);
      return;
    }
    this.#calls.set(giveUp, performance.now() + this.timeoutMs);
    this.#timer ??= setTimeout(() => this.#sweep(), this.timeoutMs);
  }

  remove(giveUp: () => void): void {
    const entry = this.#calls.get(giveUp);
    if (entry === undefined) return;
    this.#calls.delete(giveUp);
    // On workerd the entry is the call's timer (a number there, as in browsers).
    if (this.#perCall) clearTimeout(entry as Timer);
    else if (this.#calls.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #sweep(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (const [giveUp, deadline] of this.#calls) {
      if ((deadline as number) > now) {
        this.#timer = setTimeout(() => this.#sweep(), (deadline as number) - now);
        return;
      }
      this.#calls.delete(giveUp);
      try {
        giveUp();
      } catch (error) {
        console.error('lacquer/fetch: internal error giving up on a call', error);
      }
    }
  }
}

/** Cloudflare's runtime names itself in `navigator.userAgent`. */
function isWorkerd(): boolean {
  return (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers';
}
