import type { Call } from '../../../core/contract/call.ts';
import {
  checkRateLimit,
  type MethodRateLimit,
  type RateLimitCount,
  type RateLimitStore,
} from '../../../core/contract/method.ts';
import { hash64 } from '../hash64.ts';
import { problem, type ProblemDocument } from '../problem.ts';
import { MemoryRateLimitStore } from './rate-limit-store.ts';
import { isThenable } from '../thenable.ts';

/** Options of a registry's rate limit (`new Registry({ rateLimit })`); a method's takes the same. */
export type RateLimitOptions = MethodRateLimit;

/** Keys longer than this are counted under their 64-bit hash: a store holds short keys whatever a `key` function returns. */
const LONGEST_KEY = 128;

/** A call counted: the `RateLimit` header's value, and the answer instead of the call when it is over the limit. */
export interface RateLimitVerdict {
  /** `"default";r=41;t=30`: the calls left in the window and the seconds until it ends. */
  readonly state: string;
  /** Over the limit: the 429 problem, with the seconds until the window ends for `Retry-After`. */
  readonly refusal: { readonly doc: ProblemDocument; readonly retryAfter: string } | undefined;
}

/**
 * One rate limit (the registry's, or a method's own): counts each call under its key in the store
 * and says whether it is over the limit. Fixed windows: each key's window begins with its first
 * call and ends `windowMs` later; every call in it counts, refused ones too.
 */
export class RateLimiter {
  /** `RateLimit-Policy`: `"default";q=100;w=60` (IETF httpapi ratelimit-headers draft). */
  readonly policy: string;
  readonly #name: string;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #key: ((call: Call) => string | undefined) | undefined;
  readonly #store: RateLimitStore;
  /**
   * Prefixed to the default key (`call.ip`): a method's own limit without a `key` counts per method
   * in a shared store. A `key`'s value is counted as it is.
   */
  readonly #scope: string;

  constructor(options: MethodRateLimit, name: string, scope: string, store: RateLimitStore) {
    this.#name = name;
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#key = options.key;
    this.#store = store;
    this.#scope = scope;
    this.policy = `"${name}";q=${options.limit};w=${Math.ceil(options.windowMs / 1000)}`;
  }

  /** Counts `call`; a promise when the store answers with one. Throws what the store or `key` throws. */
  hit(call: Call): RateLimitVerdict | Promise<RateLimitVerdict> {
    const counted = this.#store.hit(this.#keyOf(call), this.#windowMs);
    return isThenable(counted) ? Promise.resolve(counted).then((c) => this.#verdict(c)) : this.#verdict(counted);
  }

  /**
   * The key `call` counts under: `key(call)` as it is, else the scope and the client's address. A
   * call with neither (a fetch handler without its `ip` option) counts under one key shared by all
   * such calls.
   */
  #keyOf(call: Call): string {
    const own = this.#key === undefined ? call.ip : this.#key(call);
    if (own !== undefined && typeof own !== 'string')
      throw new TypeError(`rateLimit.key must return a string, got ${typeof own}`);
    const key = own ?? '';
    const short = key.length > LONGEST_KEY ? `#${hash64(key)}` : key;
    return this.#key === undefined ? this.#scope + short : short;
  }

  #verdict(counted: RateLimitCount): RateLimitVerdict {
    const { count, resetMs } = counted ?? {};
    if (!(typeof count === 'number' && count >= 0 && typeof resetMs === 'number' && resetMs >= 0)) {
      throw new TypeError('rateLimit.store.hit() must answer { count, resetMs }: numbers ≥ 0');
    }
    const seconds = Math.ceil(resetMs / 1000);
    const state = `"${this.#name}";r=${Math.max(0, this.#limit - count)};t=${seconds}`;
    if (count <= this.#limit) return { state, refusal: undefined };
    const retryAfter = String(Math.max(1, seconds));
    const doc = problem(
      429,
      `over the rate limit of ${this.#limit} calls in ${this.#windowMs} ms; retry after ${retryAfter} s`,
    );
    return { state, refusal: { doc, retryAfter } };
  }
}

/** The limiter of a registry's `rateLimit` option; `undefined` without one. */
export function registryLimiter(options: RateLimitOptions | undefined): RateLimiter | undefined {
  if (options === undefined) return undefined;
  checkRateLimit('Registry', options);
  return new RateLimiter(options, 'default', '', options.store ?? new MemoryRateLimitStore());
}

/**
 * The limiter of one method: none for `rateLimit: false`, the registry's without an own, else its
 * own, counted in its own store, else the registry's given store, else its own memory. Without a
 * `key`, its keys are prefixed by the method (`Service.method:`), so that each method counts
 * apart; a `key`'s value is counted as it is, so that the methods whose limits share a store and
 * give one key share one count.
 */
export function methodLimiter(
  own: MethodRateLimit | false | undefined,
  registry: RateLimiter | undefined,
  registryStore: RateLimitStore | undefined,
  service: string,
  method: string,
): RateLimiter | undefined {
  if (own === false) return undefined;
  if (own === undefined) return registry;
  const name = /^[\w.$-]{1,64}$/.test(method) ? method : 'method';
  return new RateLimiter(own, name, `${service}.${method}:`, own.store ?? registryStore ?? new MemoryRateLimitStore());
}
