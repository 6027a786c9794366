// The in-memory rate limit store: fixed windows per key, and at most maxKeys of them, dropping
// ended windows first, then the window begun first.
import { expect } from 'chai';
import fc from 'fast-check';
import { DEFAULT_RATE_LIMIT_MAX_KEYS, MemoryRateLimitStore } from '../../../../index.ts';

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

  it('counts as a list of windows in the order they began would, over any sequence of calls', () => {
    // The model: windows of 0 ms have ended by the next call; those of a minute run throughout.
    const windowOf = (key: string) => (key < 'c' ? 0 : 60_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 300 }),
        (maxKeys, keys) => {
          const store = new MemoryRateLimitStore(maxKeys);
          let model: { key: string; count: number }[] = [];
          for (const key of keys) {
            const ended = (w: { key: string }) => windowOf(w.key) === 0;
            model = model.filter((w) => !(w.key === key && ended(w)));
            let window = model.find((w) => w.key === key);
            if (window === undefined) {
              if (model.length >= maxKeys)
                while (model.length > 0 && (model.length >= maxKeys || ended(model[0]!))) model.shift();
              window = { key, count: 0 };
              model.push(window);
            }
            window.count++;
            expect(store.hit(key, windowOf(key)).count).to.equal(window.count);
            expect(store.size).to.equal(model.length);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses a maxKeys that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new MemoryRateLimitStore(bad)).to.throw(RangeError);
  });
});
