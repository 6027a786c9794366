import type { RateLimitCount, RateLimitStore } from '../../core/contract/method.ts';

/** 10,000: the keys a {@link MemoryRateLimitStore} counts at once unless told otherwise. */
export const DEFAULT_RATE_LIMIT_MAX_KEYS = 10_000;

interface Window {
  count: number;
  /** When the window ends (`performance.now()`). */
  readonly endsAt: number;
}

/**
 * Counts calls per key in fixed windows, in this process's memory: the store a rate limit uses
 * unless given another. It holds at most `maxKeys` windows: a new key beyond them first drops the
 * windows that have ended, then the window begun first, whose key starts again at 0 on its next
 * call. Memory stays bounded whatever the number of keys; a flood of distinct keys (an attacker
 * with many addresses) makes the limit forget its oldest clients rather than refuse new ones.
 * Cluster workers and several machines each count apart: give them a shared store (see
 * `RateLimitStore`).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** In the order the windows began (a window that ends is removed, its key set again): the oldest first. */
  readonly #windows = new Map<string, Window>();

  constructor(readonly maxKeys: number = DEFAULT_RATE_LIMIT_MAX_KEYS) {
    if (!(Number.isInteger(maxKeys) && maxKeys >= 1)) throw new RangeError(`MemoryRateLimitStore: maxKeys must be an integer ≥ 1, got ${maxKeys}`);
  }

  hit(key: string, windowMs: number): RateLimitCount {
    const now = performance.now();
    const windows = this.#windows;
    let window = windows.get(key);
    if (window !== undefined && window.endsAt <= now) {
      windows.delete(key);
      window = undefined;
    }
    if (window === undefined) {
      if (windows.size >= this.maxKeys) this.#makeRoom(now);
      window = { count: 0, endsAt: now + windowMs };
      windows.set(key, window);
    }
    window.count++;
    // Clamped: `now + windowMs - now` may come out a hair over `windowMs` in floating point.
    return { count: window.count, resetMs: Math.min(windowMs, window.endsAt - now) };
  }

  /** The keys counted now. */
  get size(): number {
    return this.#windows.size;
  }

  /** Drops the oldest window, and every ended window after it until one is still running. */
  #makeRoom(now: number): void {
    const windows = this.#windows;
    for (const [key, window] of windows) {
      if (windows.size < this.maxKeys && window.endsAt > now) return;
      windows.delete(key);
    }
  }
}
