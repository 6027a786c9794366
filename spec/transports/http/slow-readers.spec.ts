// Clients that send requests and never read the answers: the server must not keep the answers for
// them (heap bounded), must close them, and must keep answering everyone else meanwhile. The server
// runs in a child process so that its heap can be read back without this process's own in it.
import { expect } from 'chai';
import { ChildServers } from '../../support/child-server.ts';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_PIPELINED_REQUESTS,
  DEFAULT_WRITE_TIMEOUT_MS,
  HttpServer,
  type HttpServerOptions,
} from '../../../transports/http/index.ts';
import { listen, send } from '../../support/http-client.ts';

const script = fileURLToPath(new URL('../../support/pipeline-server.ts', import.meta.url));
const MiB = 1024 * 1024;

interface Child {
  readonly port: number;
  /** The child's heap after a full collection, and its open connections (this request's included). */
  stats(): Promise<{ heapUsed: number; connections: number }>;
}

describe('transports/http slow readers', function () {
  this.timeout(15_000);
  const servers = new ChildServers();
  /** Other connections a spec opens, closed after it. */
  const sockets: Socket[] = [];
  afterEach(() => {
    servers.end();
    for (const s of sockets.splice(0)) s.destroy();
  });
  /** A raw connection that sends `bytes` and never reads (so it cannot tell when the server closes it). */
  const unread = (port: number, bytes: string) => servers.unread(port, bytes);

  async function start(options: HttpServerOptions): Promise<Child> {
    const { port } = await servers.start(script, options);
    return {
      port,
      stats: async () => {
        const reply = await send(`http://127.0.0.1:${port}/heap`);
        expect(reply.status).to.equal(200);
        return reply.json() as { heapUsed: number; connections: number };
      },
    };
  }

  /** Resolves once the child has only the asking connection open (no deadline: mocha's timeout bounds it). */
  async function allClosed(child: Child): Promise<void> {
    while ((await child.stats()).connections > 1) await new Promise((r) => setTimeout(r, 50));
  }

  it('documents its defaults', () => {
    expect([DEFAULT_WRITE_TIMEOUT_MS, DEFAULT_MAX_PIPELINED_REQUESTS, DEFAULT_MAX_CONNECTIONS]).to.deep.equal([
      30_000, 32, 10_000,
    ]);
    for (const key of ['writeTimeoutMs', 'maxPipelinedRequests', 'maxConnections'] as const) {
      expect(() => new HttpServer({ [key]: -1 }), key).to.throw(RangeError, key);
    }
  });

  it('20 connections pipelining 2,000 requests each without reading: heap bounded, connections closed, others answered', async () => {
    const child = await start({});
    const before = (await child.stats()).heapUsed;
    // 2,000 requests for 4 KiB answers per connection: 160 MiB of answers if the server kept them.
    const burst = 'GET /big HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(2000);
    for (let i = 0; i < 20; i++) unread(child.port, burst);
    let peak = 0;
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 300));
      // A normal request is answered while the flood is on (however long a loaded machine takes: mocha's timeout bounds it).
      await child.stats().then((s) => (peak = Math.max(peak, s.heapUsed)));
    }
    expect((peak - before) / MiB, 'heap growth in MiB').to.be.below(24);
    await allClosed(child);
  });

  it('closes a connection whose answer the client stops reading after writeTimeoutMs, and answers others meanwhile', async () => {
    const child = await start({ writeTimeoutMs: 300 });
    // 32 MiB: more than the kernel's buffers take, so the answer stalls in the server.
    for (let i = 0; i < 3; i++) unread(child.port, 'GET /huge HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 100));
    expect((await child.stats()).connections, 'stalled, still open').to.be.above(1);
    expect((await send(`http://127.0.0.1:${child.port}/fast`)).json()).to.equal('fast');
    await allClosed(child);
  });

  it('keeps a client that reads slowly but steadily', async () => {
    const child = await start({ writeTimeoutMs: 1000 });
    const socket = connect(child.port, '127.0.0.1');
    sockets.push(socket);
    let received = 0;
    let closed = false;
    socket.on('close', () => (closed = true));
    socket.on('data', (d: Buffer) => {
      received += d.length;
      // One chunk every 100 ms: slow, but never stalled for a second.
      socket.pause();
      setTimeout(() => socket.resume(), 100);
    });
    socket.write('GET /huge HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => setTimeout(r, 1200));
    const halfway = received;
    await new Promise((r) => setTimeout(r, 1200));
    expect(closed, 'closed by the server').to.equal(false);
    expect(received).to.be.above(halfway);
    expect(halfway).to.be.above(0);
  });

  it('still closes idle keep-alive connections after keepAliveTimeoutMs', async () => {
    const server = new HttpServer({ keepAliveTimeoutMs: 100, writeTimeoutMs: 5000 });
    server.get('/n', (_req, res) => void res.json(1));
    await listen(server);
    try {
      const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /n HTTP/1.1\r\nHost: x\r\n\r\n'));
      sockets.push(socket);
      socket.resume();
      // Node adds a second to the advertised keep-alive time.
      await once(socket, 'close');
    } finally {
      await server.stop();
    }
  });

  describe('in process', () => {
    const server = new HttpServer({ maxPipelinedRequests: 8, maxConnections: 4 });
    server.get('/n/:n', (req, res) => void res.json(Number(req.params.n)));
    let port = 0;
    before(async () => {
      await listen(server);
      port = server.port;
    });
    after(() => server.stop());

    const pipeline = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `GET /n/${from + i} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');

    it('answers up to maxPipelinedRequests pipelined requests, in order', async () => {
      const socket = connect(port, '127.0.0.1', () => socket.end(pipeline(0, 8)));
      socket.setEncoding('latin1');
      let out = '';
      socket.on('data', (d: string) => (out += d));
      await once(socket, 'close');
      expect(out.match(/HTTP\/1.1 200/g)).to.have.length(8);
      expect([...out.matchAll(/\r\n\r\n(\d+)/g)].map((m) => Number(m[1]))).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    });

    it('closes a connection with more requests than that awaiting their answers', async () => {
      const socket = connect(port, '127.0.0.1', () => socket.write(pipeline(0, 50)));
      socket.on('error', () => {});
      socket.setEncoding('latin1');
      let out = '';
      socket.on('data', (d: string) => (out += d));
      await once(socket, 'close');
      expect((out.match(/HTTP\/1.1 200/g) ?? []).length).to.be.below(50);
    });

    it('refuses connections beyond maxConnections, and serves again once one closes', async () => {
      const idle = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const s = connect(port, '127.0.0.1');
          s.on('error', () => {});
          await once(s, 'connect');
          return s;
        }),
      );
      sockets.push(...idle);
      await new Promise((r) => setTimeout(r, 50));
      const refused = await send(`http://127.0.0.1:${port}/n/1`).then(
        () => 'answered',
        (e: NodeJS.ErrnoException) => e.code,
      );
      expect(refused).to.be.oneOf(['ECONNRESET', 'EPIPE']);
      idle[0]!.destroy();
      await new Promise((r) => setTimeout(r, 50));
      expect((await send(`http://127.0.0.1:${port}/n/1`)).json()).to.equal(1);
    });
  });
});
