// The server of bench/streams/idle.ts: a Server-Sent Events stream that sends one item and then
// waits until its client leaves, and the server's resident memory. Prints `PORT n`.
import { Registry, meta, method, service, t, type Call } from '../../index.ts';
import { HttpServer } from '../../transports/http/index.ts';

class Feed {
  async *listUpdates(call: Call): AsyncIterable<string> {
    yield 'hello';
    await new Promise((resolve) => call.signal.addEventListener('abort', resolve, { once: true }));
  }
  getMemory(): number {
    globalThis.gc?.();
    return process.memoryUsage().rss;
  }
}
meta(Feed, service({ listUpdates: method([], t.stream(t.string())), getMemory: method([], t.f64()) }));

const server = await new HttpServer({ maxConnections: 5000 })
  .mount('/api', new Registry().on(new Feed()).endpoints)
  .bind(0)
  .start();
console.log(`PORT ${server.port}`);
