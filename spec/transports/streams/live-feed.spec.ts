// A live feed, as an EventSource sees it: a stream whose producer has nothing to send yet (it waits
// for the next change) answers 200 with its headers at once, heartbeats while idle, and is never
// answered 503 because its first item is late; the handler timeout bounds making the stream, not
// waiting for its items; HttpServer.stop() ends such streams at once, not after drainTimeoutMs.
import { expect } from 'chai';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request, type IncomingHttpHeaders } from 'node:http';
import { HttpServer } from '../../../transports/http/index.ts';
import { Registry, meta, method, service, t, type Call, type RegistryOptions } from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Change = t.object({ n: t.u32() });

/** A gate the spec opens: the next change. */
class Gate {
  #open!: () => void;
  readonly opened = new Promise<void>((resolve) => (this.#open = resolve));
  open(): void {
    this.#open();
  }
}

class Feed {
  readonly change = new Gate();
  opened = 0;
  finished = 0;
  /** Waits for the next change (watching its call's signal), then yields it, then waits again. */
  async *watchChanges(call: Call): AsyncIterable<{ n: number }> {
    this.opened++;
    const aborted = new Promise<void>((resolve) =>
      call.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    try {
      await Promise.race([this.change.opened, aborted]);
      if (call.signal.aborted) return;
      yield { n: 0 };
      await aborted;
    } finally {
      this.finished++;
    }
  }
  /** Takes 300 ms to make its stream. */
  async openSlowly(): Promise<AsyncIterable<{ n: number }>> {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return (async function* () {
      yield { n: 0 };
    })();
  }
}
meta(
  Feed,
  service({
    watchChanges: method([], t.stream(Change), { verb: 'GET' }),
    openSlowly: method([], t.stream(Change), { verb: 'GET' }),
  }),
);

/** A stream answer read as it comes: its head, and its text so far. */
interface Opened {
  status: number;
  headers: IncomingHttpHeaders;
  text(): string;
  close(): void;
  ended: Promise<void>;
}

function open(url: string, accept: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept }, agent: false }, (res) => {
      let text = '';
      const ended = new Promise<void>((done) =>
        res
          .on('end', done)
          .on('error', () => done())
          .on('close', done),
      );
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => text,
        close: () => req.destroy(),
        ended,
      });
    });
    req.on('error', reject).end();
  });
}

function sse(text: string): { events: EventSourceMessage[]; comments: number } {
  const events: EventSourceMessage[] = [];
  let comments = 0;
  createParser({ onEvent: (e) => events.push(e), onComment: () => comments++ }).feed(text);
  return { events, comments };
}

const until = async (what: string, done: () => boolean, ms = 5000) => {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

for (const transport of TRANSPORTS) {
  describe(`transports: a live feed with nothing to send yet (${transport.kind})`, () => {
    let served: Served | undefined;
    let feed: Feed;
    const serve = async (options: RegistryOptions = {}) => {
      feed = new Feed();
      const registry = new Registry({ onError: () => {}, ...options }).on(feed);
      served = await transport.serve('/api', registry.endpoints, { handlerTimeoutMs: 50, onError: () => {} });
      return `${served.url}/api`;
    };
    afterEach(async () => {
      await served?.stop();
      served = undefined;
    });

    it('answers an EventSource 200 with its headers before the first item, heartbeats while idle, then the item: never 503', async () => {
      const base = await serve({ heartbeatMs: 20 });
      const stream = await open(`${base}/watchChanges`, 'text/event-stream');
      expect(stream.status).to.equal(200);
      expect(stream.headers['content-type']).to.match(/^text\/event-stream/);
      // Three heartbeats: well past the handler timeout (50 ms) with no item yet.
      await until('three heartbeats', () => sse(stream.text()).comments >= 3);
      expect(sse(stream.text()).events).to.deep.equal([]);
      feed.change.open();
      await until('the first item', () => sse(stream.text()).events.length > 0);
      expect(JSON.parse(sse(stream.text()).events[0]!.data)).to.deep.equal({ n: 0 });
      stream.close();
      await until("the method's finally", () => feed.finished === 1);
    });

    it('answers a JSON Lines feed 200 with its headers before the first item', async () => {
      const base = await serve();
      const stream = await open(`${base}/watchChanges`, 'application/jsonl');
      expect(stream.status).to.equal(200);
      expect(stream.headers['content-type']).to.equal('application/jsonl');
      expect(stream.text()).to.equal('');
      feed.change.open();
      await until('the first item', () => stream.text().includes('\n'));
      expect(JSON.parse(stream.text().split('\n')[0]!)).to.deep.equal({ n: 0 });
      stream.close();
      await until("the method's finally", () => feed.finished === 1);
    });

    it('bounds making the stream by handlerTimeoutMs: a method slower to return its iterable is answered 503', async () => {
      const base = await serve();
      const reply = await send(`${base}/openSlowly`, { headers: { accept: 'application/jsonl' } });
      expect(reply.status).to.equal(503);
    });
  });
}

describe('transports: HttpServer.stop() with live feeds waiting for their first item', () => {
  it('ends every one at once with a 503 error event, without waiting drainTimeoutMs', async () => {
    const feed = new Feed();
    const reports: unknown[] = [];
    const server = new HttpServer({ drainTimeoutMs: 600_000, onError: (e) => reports.push(e) }).mount(
      '/api',
      new Registry({ onError: () => {} }).on(feed).endpoints,
    );
    await server.bind(0).start();
    const streams = await Promise.all(
      Array.from({ length: 5 }, () => open(`${server.url}/api/watchChanges`, 'text/event-stream')),
    );
    expect(streams.map((s) => s.status)).to.deep.equal([200, 200, 200, 200, 200]);
    // A drain of 10 minutes would outlast this spec's timeout: stop() resolving is the count.
    await server.stop();
    await Promise.all(streams.map((s) => s.ended));
    for (const s of streams) {
      const { events } = sse(s.text());
      expect(events.map((e) => e.event)).to.deep.equal(['error']);
      expect(JSON.parse(events[0]!.data)).to.include({ status: 503, detail: 'the server is shutting down' });
    }
    expect(reports, 'calls abandoned at drainTimeoutMs').to.deep.equal([]);
    await until("every method's finally", () => feed.finished === 5);
  });
});
