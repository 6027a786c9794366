// A server reading request streams in a child process with a small heap (the spec starts it with
// --max-old-space-size), whose options come as JSON in argv: clients that send one unfinished item
// each and wait. `GET /stats` answers the bytes held in ArrayBuffers (off the V8 heap, where
// request bodies live), after a collection. Prints `PORT n` once listening.
import { Registry, meta, method, service, t } from '../../../index.ts';
import { HttpServer, type HttpServerOptions } from '../../../transports/http/index.ts';

const Row = t.object({ n: t.u32(), text: t.string() });

class Imports {
  async importRows(rows: AsyncIterable<{ n: number; text: string }>): Promise<number> {
    let count = 0;
    for await (const _ of rows) count++;
    return count;
  }
}
meta(Imports, service({ importRows: method([t.stream(Row)], t.u32()) }));

const options = JSON.parse(process.argv[2] ?? '{}') as HttpServerOptions;
const server = new HttpServer({ ...options, onError: () => {} }).mount(
  '/api',
  new Registry({ onError: () => {} }).on(new Imports()).endpoints,
);
server.get('/stats', (_req, res) => {
  (globalThis as { gc?: () => void }).gc?.();
  res.json({ arrayBuffers: process.memoryUsage().arrayBuffers });
});
await server.bind(0).start();
console.log(`PORT ${server.port}`);
