// An idle stream costs the same after a thousand heartbeats as after one: the item it waits for is
// listened to once, however many heartbeats are written while it does not come (an idle feed lives
// for hours at one heartbeat every 15 s), and it is still answered when it comes.
import { expect } from 'chai';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';

const Change = t.object({ n: t.u32() });

/** A source whose next item is a promise that counts the listeners it is given. */
class Waiting implements AsyncIterator<{ n: number }> {
  listeners = 0;
  #resolve!: (result: IteratorResult<{ n: number }>) => void;
  #given = false;
  next(): Promise<IteratorResult<{ n: number }>> {
    if (this.#given) return new Promise(() => {});
    this.#given = true;
    const item = new Promise<IteratorResult<{ n: number }>>((resolve) => (this.#resolve = resolve));
    const then = item.then.bind(item);
    // An own `then`: a native promise is taken as it is, so every listener comes through here.
    Object.defineProperty(item, 'then', {
      value: (...args: Parameters<typeof then>) => {
        this.listeners++;
        return then(...args);
      },
    });
    return item;
  }
  async return(): Promise<IteratorResult<{ n: number }>> {
    return { done: true, value: undefined };
  }
  come(): void {
    this.#resolve({ done: false, value: { n: 7 } });
  }
}

describe('streams: heartbeats while an item does not come', () => {
  it('listen to the pending item once, however many are written, and the item still comes', async () => {
    const source = new Waiting();
    class Feed {
      listChanges() {
        return { [Symbol.asyncIterator]: () => source };
      }
    }
    meta(Feed, service({ listChanges: method([], t.stream(Change)) }));
    const handler = toFetchHandler('/api', new Registry({ heartbeatMs: 1 }).on(new Feed()).endpoints);
    const answer = await handler(
      new Request('http://feed.test/api/listChanges', { headers: { accept: 'text/event-stream' } }),
    );
    expect(answer.status).to.equal(200);
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while ((text.match(/^:/gm) ?? []).length < 200) text += (await reader.read()).value;
    const afterBeats = source.listeners;
    source.come();
    while (!text.includes('data: {"n":7}')) text += (await reader.read()).value;
    await reader.cancel();
    expect(afterBeats, 'listeners after 200 heartbeats').to.be.at.most(2);
  });
});
