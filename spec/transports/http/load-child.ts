// A child process for spec/transports/http/load.spec.ts, run with a small heap so that a server
// that keeps what it should not dies (a failed spec) instead of growing:
//   node --max-old-space-size=64 --expose-gc --import tsx spec/transports/http/load-child.ts '<options JSON>'
// An HttpServer with these routes, and `PORT n` printed once listening:
//   GET  /text/:kib   a new string of that many KiB (on the V8 heap), as text
//   GET  /bytes/:kib  a new zero-filled byte array of that many KiB (outside the heap)
//   POST /api/hang    a service method taking a string and never answering (its downstream hangs)
//   POST /api/take    a service method taking a string, answering its length
//   GET  /api/getHalf a service method answering a new string of 512 KiB at once (no promise)
//   GET  /stats       after a full collection: heapUsed, external, arrayBuffers, open connections,
//                     and how many calls of /api/hang have begun
import { Registry, meta, method, service, t } from '../../../index.ts';
import { HttpServer, type HttpServerOptions } from '../../../transports/http/index.ts';

/** The callbacks of a downstream that never answers: kept, as a pending socket's would be. */
const waiting: ((n: number) => void)[] = [];

class Downstream {
  hang(_text: string): Promise<number> {
    return new Promise((resolve) => waiting.push(resolve));
  }
  take(text: string): number {
    return text.length;
  }
  getHalf(): string {
    return 'h'.repeat(512 * 1024);
  }
}
meta(
  Downstream,
  service({
    hang: method([t.string()], t.u32()),
    take: method([t.string()], t.u32()),
    getHalf: method([], t.string()),
  }),
);

const options = JSON.parse(process.argv[2] ?? '{}') as HttpServerOptions;
const server = new HttpServer({ ...options, onError: () => {} })
  .mount('/api', new Registry({ onError: () => {} }).on(new Downstream()).endpoints)
  .get('/text/:kib', (req, res) => void res.send('x'.repeat(Number(req.params.kib) * 1024)))
  .get('/bytes/:kib', (req, res) => void res.send(new Uint8Array(Number(req.params.kib) * 1024)))
  .get('/stats', async (_req, res) => {
    // `gc()` without an argument: on Node 20, any argument (`{ type: 'major' }` included) makes it
    // a young-generation collection, which leaves the bodies read a while ago, long promoted,
    // counted. Byte arrays are freed after a full collection by V8's concurrent sweeper: on a busy
    // machine a reading taken at once still counts some. Collect, let the sweeper run, collect again.
    const gc = (globalThis as { gc?: () => unknown }).gc;
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc?.();
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    const connections = process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    res.json({ heapUsed, external, arrayBuffers, connections, hanging: waiting.length });
  });
await server.bind(0).start();
console.log(`PORT ${server.port}`);
