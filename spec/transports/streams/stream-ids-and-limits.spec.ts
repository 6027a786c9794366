// Server streams on both transports, past their items: SSE ids given by a method and
// `Last-Event-ID` read back as `call.lastEventId`; the idle limit and the total limit ending a
// stream with a problem frame and stopping the method; heartbeats while idle; and HttpServer's
// stop() ending an open stream with a 503 frame rather than cutting it. Every limit is tens of
// milliseconds, and nothing asserts on speed.
import { expect } from 'chai';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { HttpServer } from '../../../transports/http/index.ts';
import {
  Registry,
  meta,
  method,
  service,
  sse,
  t,
  type Call,
  type Infer,
  type RegistryOptions,
  type SseItem,
} from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Tick = t.object({ n: t.u32() });
type Tick = Infer<typeof Tick>;

const StreamsApi = service({
  listMarked: method([], t.stream(Tick)),
  listResumed: method([], t.stream(t.string())),
  listQuietly: method([], t.stream(Tick)),
  listSteadily: method([], t.stream(Tick)),
  listLate: method([], t.stream(Tick)),
  openLate: method([], t.stream(Tick), { verb: 'GET' }),
});

/** What a method saw and did, for the assertions. */
interface Seen {
  finished: boolean;
  waiting: boolean;
  abortReason: unknown;
}

class Streams {
  seen: Seen = { finished: false, waiting: false, abortReason: undefined };
  async *listMarked(): AsyncIterable<Tick | SseItem<Tick>> {
    yield sse({ n: 0 }, { id: 'a-0' });
    yield { n: 1 };
    yield sse({ n: 2 }, { id: '2' });
  }
  async *listResumed(call: Call): AsyncIterable<string> {
    yield call.lastEventId ?? 'none';
  }
  /** One item, then nothing until the call's signal aborts. */
  async *listQuietly(call: Call): AsyncIterable<Tick> {
    const seen = this.seen;
    try {
      yield { n: 0 };
      seen.waiting = true;
      await new Promise<void>((resolve) => call.signal.addEventListener('abort', () => resolve(), { once: true }));
      seen.abortReason = call.signal.reason;
    } finally {
      seen.finished = true;
    }
  }
  /** Its first item after 80 ms, whatever the signal says. */
  async *listLate(): AsyncIterable<Tick> {
    const seen = this.seen;
    try {
      await new Promise((resolve) => setTimeout(resolve, 80));
      yield { n: 0 };
      yield { n: 1 };
    } finally {
      seen.finished = true;
    }
  }
  /** Makes its stream (a ReadableStream) after 80 ms; `finished` once it is cancelled. */
  async openLate(): Promise<ReadableStream<Tick>> {
    await new Promise((resolve) => setTimeout(resolve, 80));
    const seen = this.seen;
    return new ReadableStream<Tick>(
      {
        pull: (controller) => controller.enqueue({ n: 0 }),
        cancel: () => {
          seen.finished = true;
        },
      },
      { highWaterMark: 0 },
    );
  }
  /** An item every few milliseconds, for ever. */
  async *listSteadily(call: Call): AsyncIterable<Tick> {
    const seen = this.seen;
    try {
      for (let n = 0; !call.signal.aborted; n++) {
        yield { n };
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      seen.abortReason = call.signal.reason;
    } finally {
      seen.finished = true;
    }
  }
}
meta(Streams, StreamsApi);

/** Server-Sent Events and comments as eventsource-parser reads them. */
function parseSse(text: string): { events: EventSourceMessage[]; comments: string[] } {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (event) => events.push(event),
    onComment: (comment) => comments.push(comment),
  });
  parser.feed(text);
  return { events, comments };
}

// No deadline by default: a loaded machine may take long, and mocha's timeout bounds the test.
const until = async (what: string, done: () => boolean, ms = Infinity) => {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const SSE = { accept: 'text/event-stream' };

for (const transport of TRANSPORTS) {
  describe(`transports: stream ids and limits (${transport.kind})`, () => {
    let served: Served | undefined;
    let streams: Streams;
    let errors: unknown[];
    const serve = async (options: RegistryOptions = {}, handlerTimeoutMs?: number) => {
      streams = new Streams();
      errors = [];
      const registry = new Registry({ onError: (e) => errors.push(e), ...options }).on(streams);
      served = await transport.serve(
        '/api',
        registry.endpoints,
        handlerTimeoutMs === undefined ? {} : { handlerTimeoutMs },
      );
      return (path: string) => `${served!.url}/api${path}`;
    };
    afterEach(async () => {
      await served?.stop();
      served = undefined;
    });

    describe('SSE ids', () => {
      it('writes the id a method gives an item, and none for an item without one', async () => {
        const url = await serve();
        const reply = await send(url('/listMarked'), { headers: SSE });
        const { events } = parseSse(reply.text);
        expect(events.map((e) => [e.event ?? 'message', e.id, e.data])).to.deep.equal([
          ['message', 'a-0', '{"n":0}'],
          ['message', undefined, '{"n":1}'],
          ['message', '2', '{"n":2}'],
          ['end', undefined, ''],
        ]);
      });

      it('writes the bare items in the other framings', async () => {
        const url = await serve();
        const reply = await send(url('/listMarked'), { headers: { accept: 'application/jsonl' } });
        expect(reply.text).to.equal('{"n":0}\n{"n":1}\n{"n":2}\n\n\n');
      });

      it('refuses an id that cannot be framed, when it is given', () => {
        expect(() => sse({ n: 0 }, { id: 'a\nb' })).to.throw(TypeError, /line break or NUL/);
        expect(() => sse({ n: 0 }, { id: 7 as unknown as string })).to.throw(TypeError, /string/);
      });

      it("gives the method the request's Last-Event-ID as call.lastEventId", async () => {
        const url = await serve();
        const resumed = await send(url('/listResumed'), { headers: { ...SSE, 'last-event-id': 'a-41' } });
        expect(parseSse(resumed.text).events[0]!.data).to.equal('"a-41"');
        const fresh = await send(url('/listResumed'), { headers: SSE });
        expect(parseSse(fresh.text).events[0]!.data).to.equal('"none"');
        const empty = await send(url('/listResumed'), { headers: { ...SSE, 'last-event-id': '' } });
        expect(parseSse(empty.text).events[0]!.data).to.equal('"none"');
      });
    });

    describe('limits', () => {
      it('ends a stream idle for streamIdleMs with a 504 problem frame, aborting the signal and running the finally', async () => {
        // The process's clock past the bound below, so that a limit counted from its origin shows.
        if (performance.now() < 1500) await new Promise((resolve) => setTimeout(resolve, 1500 - performance.now()));
        const url = await serve({ streamIdleMs: 40 });
        const started = performance.now();
        const reply = await send(url('/listQuietly'), { headers: { accept: 'application/jsonl' } });
        // A generous bound, 25 times the limit: the limit counts from the wait, not from any older clock.
        expect(performance.now() - started).to.be.below(1000);
        const [item, blank, problem, ...rest] = reply.text.split('\n');
        expect(item).to.equal('{"n":0}');
        expect(blank).to.equal('');
        expect(JSON.parse(problem!)).to.include({
          status: 504,
          title: 'Gateway Timeout',
          detail: 'the stream had no item for 40 ms (streamIdleMs)',
        });
        expect(rest).to.deep.equal(['']);
        await until("the method's finally", () => streams.seen.finished);
        expect(streams.seen.abortReason).to.be.instanceOf(DOMException).and.include({ name: 'TimeoutError' });
        expect(errors).to.have.length(1);
        expect(errors[0]).to.include({ status: 504 });
      });

      it('counts no heartbeat as an item: heartbeats are written while idle, then the idle limit ends the stream', async () => {
        const url = await serve({ heartbeatMs: 10, streamIdleMs: 120 });
        const reply = await send(url('/listQuietly'), { headers: SSE });
        const { events, comments } = parseSse(reply.text);
        expect(comments.length).to.be.greaterThan(0);
        expect(events.map((e) => e.event ?? 'message')).to.deep.equal(['message', 'error']);
        expect(JSON.parse(events[1]!.data)).to.include({ status: 504 });
        await until("the method's finally", () => streams.seen.finished);
      });

      it('ends a stream at streamMaxMs with a 504 problem frame, however steadily its items come', async () => {
        const url = await serve({ streamMaxMs: 60, streamIdleMs: 1000 });
        const reply = await send(url('/listSteadily'), { headers: SSE });
        const { events } = parseSse(reply.text);
        const last = events.at(-1)!;
        expect(events.length).to.be.greaterThan(1);
        expect(events.slice(0, -1).every((e) => e.event === undefined)).to.equal(true);
        expect(last.event).to.equal('error');
        expect(JSON.parse(last.data)).to.include({
          status: 504,
          detail: 'the stream reached its limit of 60 ms (streamMaxMs)',
        });
        await until("the method's finally", () => streams.seen.finished);
      });

      it('keeps an idle stream open with streamIdleMs 0, until the client leaves, which aborts the signal', async () => {
        const url = await serve({ streamIdleMs: 0, heartbeatMs: 0 });
        const controller = new AbortController();
        const response = await fetch(url('/listQuietly'), { headers: SSE, signal: controller.signal });
        const reader = response.body!.getReader();
        const first = new TextDecoder().decode((await reader.read()).value);
        expect(first).to.equal('data: {"n":0}\n\n');
        await until('the method waiting', () => streams.seen.waiting);
        // Well past any limit a spec here sets: still open, nothing more written.
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(streams.seen.finished).to.equal(false);
        controller.abort();
        await until("the method's finally", () => streams.seen.finished);
        expect(streams.seen.abortReason).to.be.instanceOf(Error);
      });

      it('answers a stream whose first item comes after the handler timeout: 200, with its items', async () => {
        const url = await serve({}, 20);
        const reply = await send(url('/listLate'), { headers: SSE });
        expect(reply.status).to.equal(200);
        expect(parseSse(reply.text).events.map((e) => e.event ?? e.data)).to.deep.equal(['{"n":0}', '{"n":1}', 'end']);
        expect(streams.seen.finished).to.equal(true);
      });

      it('stops a stream made after the handler timeout answered 503: it is cancelled', async () => {
        const url = await serve({}, 20);
        const reply = await send(url('/openLate'), { headers: SSE });
        expect(reply.status).to.equal(503);
        await until('the stream cancelled', () => streams.seen.finished);
      });

      it('refuses limits that are not numbers ≥ 0', () => {
        expect(() => new Registry({ streamIdleMs: -1 })).to.throw(RangeError, /streamIdleMs/);
        expect(() => new Registry({ streamMaxMs: Number.NaN })).to.throw(RangeError, /streamMaxMs/);
      });
    });
  });
}

describe('transports: HttpServer.stop() with an open stream', () => {
  it("ends the stream with a 503 problem frame, not a cut, and the method's finally runs", async () => {
    const streams = new Streams();
    const server = new HttpServer({ drainTimeoutMs: 5000 }).mount(
      '/api',
      new Registry({ onError: () => {} }).on(streams).endpoints,
    );
    await server.bind(0).start();
    const reply = send(`${server.url}/api/listQuietly`, { headers: SSE });
    await until('the first item written', () => streams.seen.waiting);
    await server.stop();
    const { events } = parseSse((await reply).text);
    expect(events.map((e) => e.event ?? 'message')).to.deep.equal(['message', 'error']);
    expect(JSON.parse(events[1]!.data)).to.include({ status: 503, detail: 'the server is shutting down' });
    await until("the method's finally", () => streams.seen.finished);
    expect(streams.seen.abortReason).to.be.instanceOf(Error);
  });
});
