// A server reading request streams in a child process with a small heap (the spec starts it with
// --max-old-space-size): a body larger than the heap is read item by item or the child dies.
// Prints `PORT n` once listening.
import { Registry, meta, method, service, t } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';

const Row = t.object({ n: t.u32(), text: t.string() });

class Imports {
  /** Counts the rows, and answers the most heap it saw in use while reading them, in MiB. */
  async importRows(rows: AsyncIterable<{ n: number; text: string }>): Promise<string> {
    let count = 0;
    let peak = 0;
    for await (const _ of rows) {
      if (++count % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    return `${count} ${Math.round(peak / 1024 / 1024)}`;
  }
}
meta(Imports, service({ importRows: method([t.stream(Row)], t.string()) }));

const server = await new HttpServer().mount('/api', new Registry().on(new Imports()).endpoints).bind(0).start();
console.log(`PORT ${server.port}`);
