// The fetch handler's deadlines: one timer for every call in flight, re-armed for the next
// deadline; a call removed in time is never given up on.
import { expect } from 'chai';
import { Deadlines } from '../../../transports/fetch/deadlines.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('transports/fetch deadlines', () => {
  it('gives up on calls in the order they came, each once, and never on one removed in time', async function () {
    this.timeout(5000);
    const deadlines = new Deadlines(60);
    const given: string[] = [];
    const first = () => given.push('first');
    const removed = () => given.push('removed');
    const second = () => given.push('second');
    deadlines.add(first);
    deadlines.add(removed);
    await sleep(30);
    deadlines.add(second);
    deadlines.remove(removed);
    for (let waited = 0; given.length < 2 && waited < 2000; waited += 10) await sleep(10);
    await sleep(100);
    expect(given).to.deep.equal(['first', 'second']);
  });

  it('holds one timer while calls are in flight, whatever their number, and none once they are done', () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const deadlines = new Deadlines(10_000);
    const calls = Array.from({ length: 100 }, () => () => expect.fail('given up on a call that was removed'));
    for (const giveUp of calls) deadlines.add(giveUp);
    expect(timers()).to.equal(before + 1);
    for (const giveUp of calls) deadlines.remove(giveUp);
    expect(timers()).to.equal(before);
  });
});
