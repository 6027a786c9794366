// The waits between attempts, for all inputs: backoff with full jitter within its bounds, and
// Retry-After read as seconds or as an HTTP date.
import { expect } from 'chai';
import fc from 'fast-check';
import { MAX_TIMER_MS } from '../../../transports/client/abort.ts';
import { backoff, retryAfterMs, type RetryPolicy } from '../../../transports/client/retry.ts';

const ms = fc.integer({ min: 0, max: MAX_TIMER_MS });
const policies = fc.record({
  attempts: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  baseDelayMs: ms,
  maxDelayMs: ms,
});

describe('transports/client retry delays', () => {
  it('backoff before retry n is a number from 0 to min(maxDelayMs, baseDelayMs * 2^(n-1)), whatever n', () => {
    fc.assert(
      fc.property(
        policies,
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (policy: RetryPolicy, n, random) => {
          const saved = Math.random;
          Math.random = () => random;
          try {
            const wait = backoff(policy, n);
            expect(Number.isFinite(wait)).to.equal(true);
            const doubled = policy.baseDelayMs === 0 ? 0 : policy.baseDelayMs * 2 ** (n - 1); // Infinity for a large n
            expect(wait).to.be.at.least(0).and.at.most(Math.min(policy.maxDelayMs, doubled));
          } finally {
            Math.random = saved;
          }
        },
      ),
      {
        examples: [
          [{ attempts: 2000, baseDelayMs: 0, maxDelayMs: 0 }, 1025, 0.5],
          [{ attempts: 40, baseDelayMs: 1, maxDelayMs: MAX_TIMER_MS }, 40, 0.999],
        ],
      },
    );
  });

  it('Retry-After in whole seconds is that many seconds, spaces around it allowed', () => {
    fc.assert(
      fc.property(fc.nat(), (s) => {
        expect(retryAfterMs(` ${s} `)).to.equal(s * 1000);
      }),
    );
  });

  it('Retry-After as an HTTP date is the time until then, nothing for a date past', () => {
    const now = Date.UTC(2026, 10, 27, 1, 0, 0);
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), (s) => {
        expect(retryAfterMs(new Date(now + s * 1000).toUTCString(), now)).to.equal(Math.max(0, s * 1000));
      }),
    );
  });

  it('a Retry-After that is neither is not read (the backoff applies)', () => {
    for (const text of ['soon', '', '-5', 'Fri, 99 Foo 2026']) expect(retryAfterMs(text), text).to.equal(undefined);
    expect(retryAfterMs(null)).to.equal(undefined);
  });
});
