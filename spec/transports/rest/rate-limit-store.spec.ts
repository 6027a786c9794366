// The in-memory rate limit store: fixed windows per key, and at most maxKeys of them, dropping
// ended windows first, then the window begun first.
import { expect } from 'chai';
import { DEFAULT_RATE_LIMIT_MAX_KEYS, MemoryRateLimitStore } from '../../../index.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('transports/rest/rate-limit-store', () => {
  it('counts the calls of a key in its window, and the time left in it', () => {
    const store = new MemoryRateLimitStore();
    const first = store.hit('a', 60_000);
    expect(first.count).to.equal(1);
    expect(first.resetMs).to.be.within(59_000, 60_000);
    expect(store.hit('a', 60_000).count).to.equal(2);
    expect(store.hit('b', 60_000).count).to.equal(1);
  });

  it('never says more time is left than the window is long (no floating-point excess)', () => {
    const store = new MemoryRateLimitStore(100_000);
    for (let windowMs = 1; windowMs <= 20_000; windowMs++) {
      const { resetMs } = store.hit(`k${windowMs}`, windowMs);
      if (resetMs > windowMs) expect.fail(`${resetMs} ms left of a ${windowMs} ms window`);
    }
  });

  it('starts a key at 0 again once its window ended', async () => {
    const store = new MemoryRateLimitStore();
    store.hit('a', 30);
    store.hit('a', 30);
    await wait(40);
    expect(store.hit('a', 30).count).to.equal(1);
  });

  it(`holds at most maxKeys windows (default ${DEFAULT_RATE_LIMIT_MAX_KEYS}), dropping the oldest for a new key`, () => {
    expect(new MemoryRateLimitStore().maxKeys).to.equal(10_000);
    const store = new MemoryRateLimitStore(3);
    for (const key of ['a', 'b', 'c']) store.hit(key, 60_000);
    store.hit('a', 60_000);
    store.hit('d', 60_000);
    expect(store.size).to.equal(3);
    // 'a' began first: dropped, it starts again at 1; 'b' and 'c' kept their counts.
    expect(store.hit('a', 60_000).count).to.equal(1);
    expect(store.size).to.equal(3);
    expect(store.hit('d', 60_000).count).to.equal(2);
  });

  it('drops the ended windows before one still running', async () => {
    const store = new MemoryRateLimitStore(3);
    store.hit('short1', 20);
    store.hit('short2', 20);
    store.hit('long', 60_000);
    store.hit('long', 60_000);
    await wait(30);
    store.hit('new', 60_000);
    expect(store.size).to.equal(2);
    expect(store.hit('long', 60_000).count).to.equal(3);
  });

  it('stays bounded under a flood of distinct keys', () => {
    const store = new MemoryRateLimitStore(100);
    for (let i = 0; i < 10_000; i++) store.hit(`client-${i}`, 60_000);
    expect(store.size).to.equal(100);
    expect(store.hit('client-9999', 60_000).count).to.equal(2);
  });

  it('refuses a maxKeys that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new MemoryRateLimitStore(bad)).to.throw(RangeError);
  });
});
