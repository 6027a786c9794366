import type { EndpointVerb, MethodContract } from '../../core/contract/method.ts';
import { delay, discard, timerMs } from './abort.ts';
import type { FetchFunction, RetryOptions } from './types.ts';

/** Attempts of a retried call in all, the first included, unless `retry.attempts` says otherwise. */
export const DEFAULT_RETRY_ATTEMPTS = 3;
/** The wait before the first retry, doubled for each next one (before jitter), in milliseconds. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 100;
/** The longest wait between two attempts, `Retry-After` included, in milliseconds. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 5000;

/** `createClient`'s `retry` option, checked and with its defaults. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Statuses that say the same request may succeed later: timeout, too many requests, a gateway's or server's passing failure. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/** Verbs whose request may be sent twice with the effect of once (RFC 9110, 9.2.2); POST and PATCH are not. */
const IDEMPOTENT_VERBS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** The retry policy of `createClient(..., { retry })`; `undefined` when not given (no retries). */
export function retryPolicy(retry: RetryOptions | undefined): RetryPolicy | undefined {
  if (retry === undefined) return undefined;
  if (typeof retry !== 'object' || retry === null)
    throw new TypeError('createClient(): options.retry must be an object');
  const {
    attempts = DEFAULT_RETRY_ATTEMPTS,
    baseDelayMs = DEFAULT_RETRY_BASE_DELAY_MS,
    maxDelayMs = DEFAULT_RETRY_MAX_DELAY_MS,
  } = retry;
  if (typeof attempts !== 'number') throw new TypeError('createClient(): options.retry.attempts must be a number');
  if (!Number.isSafeInteger(attempts) || attempts < 1)
    throw new RangeError(`createClient(): options.retry.attempts must be a whole number from 1, got ${attempts}`);
  return {
    attempts,
    baseDelayMs: timerMs('createClient(): options.retry.baseDelayMs', baseDelayMs),
    maxDelayMs: timerMs('createClient(): options.retry.maxDelayMs', maxDelayMs),
  };
}

/** Whether a call of the method may be sent again: as its contract says (`idempotent`), else by its verb. */
export function isIdempotent(verb: EndpointVerb, contract: MethodContract): boolean {
  return contract.idempotent ?? IDEMPOTENT_VERBS.has(verb);
}

/** The wait before retry number `retry` (1 for the first): exponential backoff with full jitter, at most `maxDelayMs`. */
export function backoff(policy: RetryPolicy, retry: number): number {
  // 2^31 times any base of 1 ms or more is past any maxDelayMs; beyond it, 0 * Infinity would be NaN.
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry - 1, 31));
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: seconds (`120`) or an HTTP date
 * (`Fri, 27 Nov 2026 01:00:00 GMT`, which begins with the day's name); `undefined` when absent or
 * unreadable. A date in the past asks for none.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse takes far more than HTTP dates (`-5`, `1.5`): the day's name first rules those out.
  const date = /^[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The errors `fetch` itself rejected with: network errors, as opposed to an interceptor's or the client's own. */
const networkErrors = new WeakSet<object>();

/** `fetch`, its rejections marked as network errors (a `TypeError`: refused, reset, not resolved). */
export function markingNetworkErrors(fetch: FetchFunction): FetchFunction {
  return (request) =>
    fetch(request).catch((error: unknown) => {
      if (error instanceof TypeError) networkErrors.add(error);
      throw error;
    });
}

function isNetworkError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && networkErrors.has(error);
}

/**
 * Sends with `send` until an answer is not a retryable one (408, 429, 502, 503, 504) and it did
 * not fail with a network error (what `fetch` itself rejected with, see {@link markingNetworkErrors}),
 * at most `policy.attempts` times; then settles as the last attempt did. Waits between attempts as
 * `Retry-After` says, else `backoff`; a `Retry-After` longer than `maxDelayMs` ends the retries with
 * that answer. `signal` aborting ends a wait at once with its reason.
 */
export async function withRetries(
  send: () => Promise<Response>,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      if (attempt >= policy.attempts || !isNetworkError(error) || signal?.aborted === true) throw error;
      await delay(backoff(policy, attempt), signal);
      continue;
    }
    if (attempt >= policy.attempts || !RETRYABLE_STATUSES.has(response.status)) return response;
    const asked = retryAfterMs(response.headers.get('retry-after'));
    // A server asking for a longer wait than the client will make is not asked again sooner: its answer stands.
    if (asked !== undefined && asked > policy.maxDelayMs) return response;
    discard(response);
    await delay(asked ?? backoff(policy, attempt), signal);
  }
}
