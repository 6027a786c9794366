// A child process for the slow-reader spec: an HttpServer with the options given as JSON in argv[2].
// GET /fast answers a small JSON value, GET /big 4 KiB (a new string each time), GET /huge 32 MiB
// (more than the kernel's socket buffers hold), GET /heap the heap after a full collection (run the
// process with --expose-gc) and the number of open connections, its own included. Prints `PORT n`
// once listening.
import { HttpServer, type HttpServerOptions } from '../../transports/http/index.ts';

const options = JSON.parse(process.argv[2] ?? '{}') as HttpServerOptions;
const server = new HttpServer(options);
server.get('/fast', (_req, res) => void res.json('fast'));
const padding = 'x'.repeat(4096);
server.get('/big', (_req, res) => void res.json({ padding }));
const huge = new Uint8Array(32 * 1024 * 1024).fill(120);
server.get('/huge', (_req, res) => void res.send(huge));
server.get('/heap', (_req, res) => {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, external } = process.memoryUsage();
  const connections = process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
  res.json({ heapUsed, external, connections });
});
await server.bind(0).start();
console.log(`PORT ${server.port}`);
