// A server of feeds whose events are rare, in a child process with a small heap (the spec starts it
// with --max-old-space-size): each stream yields one item, then waits for the next change, which
// never comes. Counts what the streams hold: generators opened and finished (their `finally`), calls
// whose signal aborted, ReadableStream sources opened and cancelled. Prints `PORT n` once listening.
import { Registry, meta, method, service, t, type Call } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';

const Event = t.object({ seq: t.u32(), text: t.string() });
type Event = { seq: number; text: string };

/** A change that never comes: what a feed waits on between its rare events. */
const changes: (() => void)[] = [];
const nextChange = (signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    changes.push(resolve);
    signal?.addEventListener(
      'abort',
      () => {
        changes.splice(changes.indexOf(resolve), 1);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

const counts = { generators: 0, finished: 0, aborted: 0, sources: 0, cancelled: 0 };

class Feed {
  /** The docs' resume pattern: what came so far, then wait for the next change, watching the call's signal. */
  async *watchEvents(call: Call): AsyncIterable<Event> {
    counts.generators++;
    call.signal.addEventListener('abort', () => counts.aborted++, { once: true });
    try {
      yield { seq: 0, text: 'x'.repeat(100) };
      for (let seq = 1; ; seq++) {
        await nextChange(call.signal);
        yield { seq, text: 'x' };
      }
    } finally {
      counts.finished++;
    }
  }
  /** A ReadableStream source whose pull waits on the next change. */
  streamEvents(call: Call): ReadableStream<Event> {
    counts.sources++;
    call.signal.addEventListener('abort', () => counts.aborted++, { once: true });
    let seq = 0;
    return new ReadableStream<Event>(
      {
        async pull(controller) {
          if (seq > 0) await nextChange();
          controller.enqueue({ seq: seq++, text: 'x'.repeat(100) });
        },
        cancel() {
          counts.cancelled++;
        },
      },
      { highWaterMark: 0 },
    );
  }
  stats(): string {
    (globalThis as { gc?: () => void }).gc?.();
    return JSON.stringify({ ...counts, heapMiB: Math.round(process.memoryUsage().heapUsed / 1024 / 1024) });
  }
}
meta(
  Feed,
  service({
    watchEvents: method([], t.stream(Event), { verb: 'GET' }),
    streamEvents: method([], t.stream(Event), { verb: 'GET' }),
    stats: method([], t.string(), { verb: 'GET' }),
  }),
);

const registry = new Registry({ onError: () => {} }).on(new Feed());
const server = await new HttpServer({ onError: () => {} }).mount('/api', registry.endpoints).bind(0).start();
console.log(`PORT ${server.port}`);
