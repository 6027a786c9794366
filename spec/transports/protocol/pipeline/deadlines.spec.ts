// The deadlines of a server's calls in flight: one timer for them all, re-armed for the next
// deadline; a call removed in time is never given up on; a shutdown gives up on every call.
import { expect } from 'chai';
import { Deadlines, type Due } from '../../../../transports/protocol/pipeline/deadlines.ts';

/** Waits on the timer of the runtime itself, which the counting below does not see. */
const realSetTimeout = globalThis.setTimeout;
const sleep = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));

/** A call named for the report. */
interface Named extends Due {
  readonly name: string;
}
const call = (name: string): Named => ({ name, deadline: -1, earlier: undefined, later: undefined, timer: undefined });

/** Counts the timers armed and not yet fired or cleared while `run` runs (they are unref'd, so Node does not list them). */
async function countingTimers(run: (armed: () => number, made: () => number) => Promise<void> | void): Promise<void> {
  const { setTimeout: set, clearTimeout: clear } = globalThis;
  const live = new Set<unknown>();
  let made = 0;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    made++;
    const timer = set(() => {
      live.delete(timer);
      fn();
    }, ms);
    live.add(timer);
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer: ReturnType<typeof setTimeout>) => {
    live.delete(timer);
    clear(timer);
  }) as typeof clearTimeout;
  try {
    await run(
      () => live.size,
      () => made,
    );
  } finally {
    globalThis.setTimeout = set;
    globalThis.clearTimeout = clear;
  }
}

describe('transports/rest pipeline deadlines', () => {
  it('gives up on calls in the order they came, each once, and never on one removed in time', async function () {
    this.timeout(5000);
    const given: string[] = [];
    const deadlines = new Deadlines<Named>(60, (c) => given.push(c.name));
    const [first, removed, second] = [call('first'), call('removed'), call('second')];
    deadlines.add(first);
    deadlines.add(removed);
    await sleep(30);
    deadlines.add(second);
    deadlines.remove(removed);
    for (let waited = 0; given.length < 2 && waited < 2000; waited += 10) await sleep(10);
    await sleep(100);
    expect(given).to.deep.equal(['first', 'second']);
  });

  it('holds one timer while calls are in flight, whatever their number, and none once it has fired with no call left', async function () {
    this.timeout(5000);
    await countingTimers(async (armed) => {
      const deadlines = new Deadlines<Named>(50, () => expect.fail('gave up on a call that was removed'));
      const calls = Array.from({ length: 100 }, (_, i) => call(String(i)));
      for (const c of calls) deadlines.add(c);
      expect(armed()).to.equal(1);
      for (const c of calls) deadlines.remove(c);
      await sleep(150);
      expect(armed()).to.equal(0);
    });
  });

  it('never gives up on its own with a timeout of 0, and gives up on every call at a shutdown', () =>
    countingTimers((armed) => {
      const deadlines = new Deadlines<Named>(0, () => expect.fail('a call given up on without a timeout'));
      const calls = [call('a'), call('b'), call('c')];
      for (const c of calls) deadlines.add(c);
      expect(armed()).to.equal(0);
      deadlines.remove(calls[1]!);
      const shutDown: string[] = [];
      deadlines.giveUpUntil(Infinity, (c) => shutDown.push(c.name));
      expect(shutDown).to.deep.equal(['a', 'c']);
      deadlines.giveUpUntil(Infinity, (c) => shutDown.push(c.name));
      expect(shutDown).to.deep.equal(['a', 'c']);
    }));

  it('take a timeout longer than a timer can wait (2^31 - 1 ms) without firing early or spinning', () =>
    countingTimers(async (armed, made) => {
      const deadlines = new Deadlines<Named>(3e9, () => expect.fail('gave up on a call long before its deadline'));
      const c = call('far');
      deadlines.add(c);
      await sleep(60);
      expect(made(), 'timers armed').to.equal(1);
      expect(armed()).to.equal(1);
      deadlines.remove(c);
    }));
});
