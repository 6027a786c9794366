import type { RateLimitCount, RateLimitStore } from '../../../core/contract/method.ts';

/** 10,000: the keys a {@link MemoryRateLimitStore} counts at once unless told otherwise. */
export const DEFAULT_RATE_LIMIT_MAX_KEYS = 10_000;

interface Window {
  readonly key: string;
  count: number;
  /** When the window ends (`performance.now()`). */
  readonly endsAt: number;
  /** Dropped from the store (ended, or made room for a new key): its place in the queue is stale. */
  dropped: boolean;
}

/**
 * Counts calls per key in fixed windows, in this process's memory: the store a rate limit uses
 * unless given another. It holds at most `maxKeys` windows: a new key beyond them first drops the
 * windows that have ended, then the window begun first, whose key starts again at 0 on its next
 * call. Memory stays bounded whatever the number of keys (`maxKeys` windows, and a queue of at
 * most twice as many places), and a call costs the same at any number of keys (O(1) amortised);
 * a flood of distinct keys (an attacker with many addresses) makes the limit forget its oldest
 * clients rather than refuse new ones. Cluster workers and several machines each count apart:
 * give them a shared store (see `RateLimitStore`).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>();
  /**
   * The windows in the order they began, the oldest at `#head`: a window dropped stays in place
   * (marked) until the head passes it or the queue is compacted, so that no call scans what
   * was dropped before it.
   */
  #queue: Window[] = [];
  #head = 0;

  constructor(readonly maxKeys: number = DEFAULT_RATE_LIMIT_MAX_KEYS) {
    if (!(Number.isInteger(maxKeys) && maxKeys >= 1))
      throw new RangeError(`MemoryRateLimitStore: maxKeys must be an integer ≥ 1, got ${maxKeys}`);
  }

  hit(key: string, windowMs: number): RateLimitCount {
    const now = performance.now();
    const windows = this.#windows;
    let window = windows.get(key);
    if (window !== undefined && window.endsAt <= now) {
      this.#drop(window);
      window = undefined;
    }
    if (window === undefined) {
      if (windows.size >= this.maxKeys) this.#makeRoom(now);
      window = { key, count: 0, endsAt: now + windowMs, dropped: false };
      windows.set(key, window);
      this.#enqueue(window);
    }
    window.count++;
    // Clamped: `now + windowMs - now` may come out a hair over `windowMs` in floating point.
    return { count: window.count, resetMs: Math.min(windowMs, window.endsAt - now) };
  }

  /** The keys counted now. */
  get size(): number {
    return this.#windows.size;
  }

  #drop(window: Window): void {
    window.dropped = true;
    this.#windows.delete(window.key);
  }

  /** Drops the oldest window, and every ended window after it until one is still running. */
  #makeRoom(now: number): void {
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const window = queue[this.#head]!;
      if (!window.dropped) {
        if (this.#windows.size < this.maxKeys && window.endsAt > now) return;
        this.#drop(window);
      }
      this.#head++;
    }
  }

  /**
   * Appends a window to the queue. Past twice `maxKeys` places, the places passed or dropped are
   * let go: the live windows (at most `maxKeys`) are copied once per `maxKeys` appends or more.
   */
  #enqueue(window: Window): void {
    if (this.#queue.length >= 2 * this.maxKeys) {
      this.#queue = this.#queue.slice(this.#head).filter((w) => !w.dropped);
      this.#head = 0;
    }
    this.#queue.push(window);
  }
}
