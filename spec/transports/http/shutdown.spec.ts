import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, send } from '../../support/http-client.ts';

const script = fileURLToPath(new URL('../../support/slow-server.ts', import.meta.url));

/** Resolves with the first stdout line of `child` matching `pattern`. */
function line(child: ChildProcess, lines: string[], pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const hit = lines.find((l) => pattern.test(l));
      if (hit !== undefined) {
        child.stdout!.off('data', check);
        child.off('exit', onExit);
        resolve(hit);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`child exited (${code}) before printing ${pattern}: ${lines.join('|')}`));
    child.stdout!.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

describe('transports/http graceful shutdown', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
  });

  it('on SIGTERM: refuses new connections, closes idle ones, finishes the in-flight request, exits 0', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    child = proc;
    const lines: string[] = [];
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => lines.push(...d.split('\n').filter((l) => l !== '')));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = once(proc, 'exit');

    const port = Number((await line(proc, lines, /^PORT \d+$/)).slice(5));
    const base = `http://127.0.0.1:${port}`;

    // An idle keep-alive connection, which the shutdown must close.
    const agent = new Agent({ keepAlive: true });
    expect((await send(`${base}/fast`, { agent })).json()).to.equal('fast');
    const idle = Object.values(agent.freeSockets).flat()[0]!;
    expect(idle, 'a pooled keep-alive socket').not.to.equal(undefined);
    const idleClosed = once(idle, 'close');

    const slow = send(`${base}/slow`);
    await line(proc, lines, /^SLOW-STARTED$/);
    proc.kill('SIGTERM');
    await line(proc, lines, /^SIGTERM-RECEIVED$/);

    const refused = await send(`${base}/fast`).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).to.equal('ECONNREFUSED');
    await idleClosed;
    agent.destroy();

    proc.stdin.end('release\n');
    const reply = await slow;
    expect(reply.status).to.equal(200);
    expect(reply.json()).to.equal('done');
    expect(reply.headers.connection).to.equal('close');

    const [code, signal] = await exited;
    expect({ code, signal, stderr }).to.deep.equal({ code: 0, signal: null, stderr: '' });
    expect(lines).to.include('STOPPED');
  });

  it('stop() answers 503 to a call that outlives drainTimeoutMs; waitForSignal() resolves after that answer', async () => {
    const server = new HttpServer({ drainTimeoutMs: 50, onError: () => {} });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    server.get('/never', () => {
      started();
      return new Promise<void>(() => {});
    });
    const url = await listen(server);
    const stuck = send(`${url}/never`);
    await running;
    const stopped = server.stop();
    await server.waitForSignal();
    await stopped;
    const reply = await stuck;
    expect(reply.status).to.equal(503);
    expect(reply.headers['content-type']).to.equal('application/problem+json');
    expect(reply.headers.connection).to.equal('close');
    expect(reply.json()).to.include({ status: 503, title: 'Service Unavailable' });
    expect(reply.json().detail).to.match(/shutting down/);
  });

  it('stop() waits for a call that settles within drainTimeoutMs, and answers it', async () => {
    const server = new HttpServer({ drainTimeoutMs: 2000 });
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    server.get('/slow', async (_req, res) => {
      started();
      await new Promise((r) => setTimeout(r, 100));
      res.json('done');
    });
    const url = await listen(server);
    const slow = send(`${url}/slow`);
    await running;
    const t0 = Date.now();
    await server.stop();
    await server.waitForSignal();
    // It waited for the handler's 100 ms; the upper bound only tells that from drainTimeoutMs (10 s).
    expect(Date.now() - t0)
      .to.be.at.least(50)
      .and.below(8_000);
    expect((await slow).json()).to.equal('done');
  });

  it('stop() while start() is still pending: the server does not go on serving once it listens', async () => {
    // A free port, known before start() (a stopped server no longer tells its port).
    const probe = createNetServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const server = new HttpServer().bind(port);
    server.get('/fast', (_req, res) => void res.json('fast'));
    const started = server.start();
    let closed = false;
    void server.waitForSignal().then(() => (closed = true));
    await server.stop();
    await started;
    await new Promise((r) => setImmediate(r));
    expect(closed, 'waitForSignal() resolved').to.equal(true);
    const refused = await send(`http://127.0.0.1:${port}/fast`).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).to.equal('ECONNREFUSED');
    let again: unknown;
    await server.start().catch((e: unknown) => (again = e));
    expect(String(again)).to.match(/start\(\) after stop\(\)/);
  });

  it('start() fails clearly when the port is taken', async () => {
    const first = new HttpServer();
    await listen(first);
    try {
      const second = new HttpServer().bind(first.port);
      let failure: NodeJS.ErrnoException | undefined;
      await second.start().catch((e: NodeJS.ErrnoException) => (failure = e));
      expect(failure?.message).to.match(/cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
      expect(failure?.code).to.equal('EADDRINUSE');
    } finally {
      await first.stop();
    }
  });
});
