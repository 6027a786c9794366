// Attacks on the server's memory, each against a child process with a 64 MiB heap
// (spec/transports/http/load-child.ts): a server that keeps what it should not dies or grows past
// the bound, and the spec fails; this process only sends.
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import type { HttpServerOptions } from '../../../transports/http/index.ts';
import { ChildServers, type ChildServer } from '../../support/child-server.ts';
import { send, type Reply } from '../../support/http-client.ts';

const script = fileURLToPath(new URL('./load-child.ts', import.meta.url));
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Stats {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  connections: number;
  /** Calls of /api/hang begun (their arguments decoded), answered or not. */
  hanging: number;
}

interface Child extends ChildServer {
  /** The child's memory after a full collection, and its open connections (the asking one included). */
  stats(): Promise<Stats>;
}

describe('transports/http under load (child processes, 64 MiB heap)', function () {
  this.timeout(20_000);
  const servers = new ChildServers();
  afterEach(() => servers.end());

  async function start(options: HttpServerOptions): Promise<Child> {
    const child = await servers.start(script, options, ['--max-old-space-size=64']);
    return {
      ...child,
      stats: async () => {
        const reply = await send(`http://127.0.0.1:${child.port}/stats`).catch((error: Error) => {
          throw new Error(child.state() === 'running' ? `the server did not answer: ${error.message}` : child.state());
        });
        expect(reply.status).to.equal(200);
        return reply.json() as Stats;
      },
    };
  }

  /** A raw connection that writes `bytes` and never reads. */
  const unread = (port: number, bytes: string | Buffer) => servers.unread(port, bytes);

  for (const [what, target] of [
    ['a route handler', '/text/512'],
    ['a service method answering at once', '/api/getHalf'],
  ]) {
    it(`pipelined requests for large answers, never read, pin a bounded amount (no heap exhaustion): ${what}`, async () => {
      const child = await start({});
      const before = await child.stats();
      // 4 connections x 200 requests for a new 512 KiB string each: 400 MiB if the answers were all kept.
      const burst = `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(200);
      for (let i = 0; i < 4; i++) unread(child.port, burst);
      let peak = 0;
      for (let i = 0; i < 6; i++) {
        await sleep(250);
        peak = Math.max(peak, (await child.stats()).heapUsed);
      }
      expect((peak - before.heapUsed) / MiB, 'heap growth in MiB').to.be.below(24);
    });
  }

  it('closes a connection whose answer is not read after writeTimeoutMs, not twice that', async () => {
    const writeTimeoutMs = 2000;
    const child = await start({ writeTimeoutMs });
    const started = Date.now();
    // 64 MiB: more than the kernel's buffers take, so the answer stalls in the server.
    unread(child.port, 'GET /bytes/65536 HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(200);
    expect((await child.stats()).connections, 'stalled, still open').to.equal(2);
    let closedAfter: number | undefined;
    while (closedAfter === undefined && Date.now() - started < 3 * writeTimeoutMs) {
      await sleep(50);
      if ((await child.stats()).connections <= 1) closedAfter = Date.now() - started;
    }
    expect(closedAfter, 'closed at all').to.not.equal(undefined);
    // Node's own idle timer closed it after about twice writeTimeoutMs.
    expect(closedAfter, 'ms until closed').to.be.within(writeTimeoutMs - 100, writeTimeoutMs + 1000);
  });

  it('calls abandoned at the handler timeout stay counted: bodies beyond maxBufferedBodyBytes are refused with 503', async () => {
    const child = await start({ handlerTimeoutMs: 200, maxBufferedBodyBytes: 8 * MiB } as HttpServerOptions);
    const before = await child.stats();
    // A string argument of almost 1 MiB: the raw body and the decoded string, for each call kept.
    const body = JSON.stringify('y'.repeat(MiB - 16));
    const statuses: number[] = [];
    let busy = 0;
    for (let round = 0; round < 6; round++) {
      const replies: Reply[] = await Promise.all(
        Array.from({ length: 20 }, () =>
          send(`http://127.0.0.1:${child.port}/api/hang`, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json' },
          }).catch((error: Error) => {
            throw new Error(`${error.message} in round ${round}; the server: ${child.state()}`);
          }),
        ),
      );
      for (const r of replies) {
        statuses.push(r.status);
        if (r.headers['retry-after'] !== undefined) busy++;
      }
    }
    const after = await child.stats();
    expect((after.heapUsed - before.heapUsed) / MiB, 'heap growth in MiB').to.be.below(24);
    expect((after.arrayBuffers - before.arrayBuffers) / MiB, 'growth of byte arrays in MiB').to.be.below(24);
    expect(new Set(statuses)).to.deep.equal(new Set([503]));
    expect(busy, 'answered 503 with Retry-After, the server busy').to.be.at.least(100);
  });

  it('a call abandoned at the handler timeout keeps its arguments, not its raw body', async () => {
    // A deadline long enough for every body to arrive first, even on a busy machine: each call
    // reaches its method, holding its decoded argument, and is then abandoned.
    const child = await start({ handlerTimeoutMs: 1500 });
    const body = JSON.stringify('y'.repeat(MiB - 16));
    const post = () =>
      send(`http://127.0.0.1:${child.port}/api/hang`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
    await post();
    const before = await child.stats();
    const replies = await Promise.all(Array.from({ length: 16 }, post));
    expect(replies.map((r) => r.status)).to.deep.equal(Array(16).fill(503));
    let after = await child.stats();
    for (let i = 0; i < 40 && after.hanging < 17; i++) {
      await sleep(250);
      after = await child.stats();
    }
    expect(after.hanging, 'calls that reached the method').to.equal(17);
    // The decoded strings (16 MiB) stay while the handlers run; the 16 MiB of bodies they came from do not.
    expect((after.heapUsed - before.heapUsed) / MiB, 'heap growth in MiB').to.be.above(12);
    expect((after.arrayBuffers - before.arrayBuffers) / MiB, 'growth of byte arrays in MiB').to.be.below(4);
  });

  it('uploads held one byte short pin at most maxBufferedBodyBytes', async () => {
    const child = await start({ maxBufferedBodyBytes: 8 * MiB } as HttpServerOptions);
    const before = await child.stats();
    // 60 uploads declaring 1 MiB - 8, each sending 512 KiB and then nothing: 30 MiB if all were kept.
    const head = `POST /api/take HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MiB - 8}\r\n\r\n"`;
    const part = Buffer.concat([Buffer.from(head), Buffer.alloc(512 * 1024, 0x7a)]);
    for (let i = 0; i < 60; i++) unread(child.port, part);
    await sleep(1000);
    const after = await child.stats();
    expect((after.arrayBuffers - before.arrayBuffers) / MiB, 'growth of byte arrays in MiB').to.be.below(16);
    expect((await send(`http://127.0.0.1:${child.port}/text/1`)).status, 'others still answered').to.equal(200);
  });
});
