// What HttpServer holds for calls at once: calls whose handler has not settled (abandoned ones
// included) and the request bodies they hold or are receiving; beyond the caps, 503 with
// Retry-After. And one answer per request, even when an early answer is followed by a timeout.
import { expect } from 'chai';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { once } from 'node:events';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { Gate } from '../../support/gate.ts';
import {
  DEFAULT_MAX_BUFFERED_BODY_BYTES,
  DEFAULT_MAX_CALLS_IN_FLIGHT,
  DEFAULT_MAX_QUEUED_ANSWER_BYTES,
  HttpServer,
  type HttpServerOptions,
} from '../../../transports/http/index.ts';
import { listen, raw, send, type Reply } from '../../support/http-client.ts';
import { until } from '../../support/until.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

async function serve(
  options: HttpServerOptions,
): Promise<{ server: HttpServer; gate: Gate; url: string; errors: unknown[] }> {
  const gate = new Gate();
  const errors: unknown[] = [];
  const server = new HttpServer({ ...options, onError: (e) => errors.push(e) }).mount(
    '/api',
    new Registry({ onError: () => {} }).on(gate).endpoints,
  );
  const url = await listen(server);
  return { server, gate, url, errors };
}

const hold = (url: string, text: string): Promise<Reply> =>
  send(`${url}/api/hold`, {
    method: 'POST',
    body: JSON.stringify(text),
    headers: { 'content-type': 'application/json' },
  });

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

function expectBusy(reply: Reply): void {
  expect(reply.status).to.equal(503);
  expect(reply.headers['retry-after']).to.equal('1');
  expect(reply.json()).to.include({ status: 503 });
}

describe('transports/http calls in flight and bodies held', function () {
  this.timeout(10_000);

  it('documents its defaults and checks the options', () => {
    expect([
      DEFAULT_MAX_CALLS_IN_FLIGHT,
      DEFAULT_MAX_BUFFERED_BODY_BYTES,
      DEFAULT_MAX_QUEUED_ANSWER_BYTES,
    ]).to.deep.equal([10_000, 128 * MiB, 4 * MiB]);
    for (const key of ['maxCallsInFlight', 'maxBufferedBodyBytes', 'maxQueuedAnswerBytes'] as const) {
      expect(() => new HttpServer({ [key]: -1 }), key).to.throw(RangeError, key);
      expect(() => new HttpServer({ [key]: Number.NaN }), key).to.throw(RangeError, key);
    }
    expect(() => new HttpServer({ maxCallsInFlight: 1.5 })).to.throw(RangeError, 'maxCallsInFlight');
    expect(
      () =>
        new HttpServer({ maxCallsInFlight: Infinity, maxBufferedBodyBytes: Infinity, maxQueuedAnswerBytes: Infinity }),
    ).to.not.throw();
  });

  it('answers 503 with Retry-After beyond maxCallsInFlight, counting abandoned calls until their handler settles', async () => {
    const { server, gate, url, errors } = await serve({ maxCallsInFlight: 2, handlerTimeoutMs: 100 });
    try {
      const timedOut = await Promise.all([send(`${url}/api/getWait`), send(`${url}/api/getWait`)]);
      expect(timedOut.map((r) => r.status)).to.deep.equal([503, 503]);
      expect(timedOut[0]!.headers['retry-after']).to.equal(undefined);
      expect(errors).to.have.length(2);
      // Both calls were abandoned but their handlers still run: the server is full.
      const refused = await send(`${url}/api/getWait`);
      expectBusy(refused);
      expect(gate.started, 'the refused call never ran').to.equal(2);
      expect(errors, 'a refusal is not a handler failure').to.have.length(2);
      // Other routes are not calls: a 404 is still a 404.
      expect((await send(`${url}/nothing`)).status).to.equal(404);
      // Once the abandoned calls' handlers settle, they count out.
      gate.release();
      gate.open = true;
      await settled();
      expect((await send(`${url}/api/getWait`)).json()).to.equal('done');
    } finally {
      gate.release();
      await server.stop();
    }
  });

  it('answers 503 with Retry-After when the bodies held would pass maxBufferedBodyBytes, until the calls holding them settle', async () => {
    const { server, gate, url } = await serve({ maxBufferedBodyBytes: MiB, handlerTimeoutMs: 100 });
    try {
      const text = 'z'.repeat(600 * KiB);
      // Abandoned at the handler timeout, its handler still holding the 600 KiB argument.
      expect((await hold(url, text)).status).to.equal(503);
      const refused = await hold(url, text);
      expectBusy(refused);
      expect(gate.started).to.equal(1);
      // A small body still fits beside it.
      gate.open = true;
      expect((await hold(url, 'small')).json()).to.equal(5);
      expectBusy(await hold(url, text));
      // Once the abandoned call's handler settles, its bytes count out.
      gate.release();
      await settled();
      expect((await hold(url, text)).json()).to.equal(600 * KiB);
    } finally {
      gate.release();
      await server.stop();
    }
  });

  it('counts bodies being received, chunk by chunk, against maxBufferedBodyBytes', async () => {
    const { server, gate, url } = await serve({ maxBufferedBodyBytes: MiB });
    const port = server.port;
    try {
      // Chunked uploads (no declared length) that stop short: 3 x 400 KiB received and held.
      const open = Array.from({ length: 3 }, () => {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        socket.setEncoding('latin1');
        let out = '';
        socket.on('data', (d: string) => (out += d));
        const chunk = 'a'.repeat(400 * KiB);
        socket.write(
          `POST /api/hold HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
            `${(chunk.length + 1).toString(16)}\r\n"${chunk}\r\n`,
        );
        return { socket, answer: () => out };
      });
      await until(() => open.some((o) => o.answer() !== ''));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answers = open.map((o) => o.answer());
      // Two fit (800 KiB), the third crosses 1 MiB: refused with 503 while its body still arrives.
      expect(
        answers.filter((a) => a.startsWith('HTTP/1.1 503')),
        answers.map((a) => a.slice(0, 12)).join(),
      ).to.have.length(1);
      expect(answers.filter((a) => a === '')).to.have.length(2);
      expect(answers.find((a) => a !== '')).to.match(/retry-after: 1\r\n/i);
      // Once those uploads go away, their bytes are free again.
      for (const o of open) o.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      gate.open = true;
      expect((await hold(url, 'b'.repeat(900 * KiB))).json()).to.equal(900 * KiB);
    } finally {
      gate.release();
      await server.stop();
    }
  });

  it('refuses at once a declared Content-Length that would pass maxBufferedBodyBytes, before 100 Continue', async () => {
    const { server, gate } = await serve({ maxBufferedBodyBytes: MiB, handlerTimeoutMs: 100 });
    try {
      const url = server.url;
      expect((await hold(url, 'c'.repeat(700 * KiB))).status).to.equal(503);
      const answer = await raw(
        server.port,
        `POST /api/hold HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${400 * KiB}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
      expect(answer).to.match(/^HTTP\/1\.1 503 /);
      expect(answer).to.not.include('100 Continue');
      expect(gate.started).to.equal(1);
    } finally {
      gate.release();
      await server.stop();
    }
  });
});

describe('transports/http one answer per request', function () {
  this.timeout(10_000);

  for (const [what, target] of [
    ['404', '/nothing'],
    ['405', '/api/getWait'],
  ] as const) {
    it(`an early ${what} to a body that stops arriving is the only answer: the request timeout closes the connection without a 408`, async () => {
      const server = new HttpServer({ requestTimeoutMs: 400, headersTimeoutMs: 400 }).mount(
        '/api',
        new Registry().on(new Gate()).endpoints,
      );
      await listen(server);
      try {
        const answer = await raw(
          server.port,
          `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n0123456789`,
        );
        expect(answer.match(/HTTP\/1\.1 \d{3}/g)).to.deep.equal([`HTTP/1.1 ${what}`]);
      } finally {
        await server.stop();
      }
    });
  }

  it('an early 404 to a chunked body whose rest is malformed is the only answer: no 400 follows', async () => {
    const server = new HttpServer();
    await listen(server);
    try {
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(server.port, '127.0.0.1', () => {
          socket.write('POST /nothing HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n');
          setTimeout(() => socket.write('zz\r\nnot a chunk\r\n'), 100);
        });
        let out = '';
        socket.setEncoding('latin1');
        socket.on('data', (d: string) => (out += d));
        socket.on('close', () => resolve(out));
        socket.on('error', () => {});
      });
      expect(answer.match(/HTTP\/1\.1 \d{3}/g)).to.deep.equal(['HTTP/1.1 404']);
    } finally {
      await server.stop();
    }
  });

  it('a connection whose early-answered body then arrives whole stays usable for the next request', async () => {
    // Time limits far beyond what the test takes, on a loaded machine too.
    const server = new HttpServer({ requestTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
    server.get('/n', (_req, res) => void res.json(1));
    await listen(server);
    try {
      const socket = connect(server.port, '127.0.0.1');
      socket.setEncoding('latin1');
      let out = '';
      socket.on('data', (d: string) => (out += d));
      socket.write('POST /nothing HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234');
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.write('56789GET /n HTTP/1.1\r\nHost: x\r\n\r\n');
      await until(() => (out.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= 2 && out.endsWith('1'));
      expect(out.match(/HTTP\/1\.1 \d{3}/g)).to.deep.equal(['HTTP/1.1 404', 'HTTP/1.1 200']);
      socket.end();
      await once(socket, 'close');
    } finally {
      await server.stop();
    }
  });
});

describe('transports/http answers waiting on a connection, for clients that read them', function () {
  this.timeout(10_000);
  const big = new Uint8Array(8 * MiB).fill(0x61);
  const STATUS = 'HTTP/1.1 200 ';

  /** Writes `rounds` batches of `perRound` pipelined requests on one connection, each batch once its answers are read; counts the answers. */
  async function pipeline(port: number, target: string, rounds: number, perRound: number): Promise<number> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let answered = 0;
    let tail = '';
    let waitingFor = 0;
    let wake: () => void = () => {};
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      // Status lines, one split across two reads included: the tail kept is too short to hold a whole one.
      const text = tail + d;
      answered += text.split(STATUS).length - 1;
      tail = text.slice(1 - STATUS.length);
      if (answered >= waitingFor) wake();
    });
    socket.on('close', () => wake());
    socket.on('error', () => {});
    for (let round = 0; round < rounds && !socket.destroyed; round++) {
      waitingFor += perRound;
      const done = new Promise<void>((resolve) => (wake = resolve));
      socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(perRound));
      await done;
    }
    socket.destroy();
    return answered;
  }

  it('a keep-alive client sending request after request is never refused, however many it sends', async () => {
    const server = new HttpServer({ maxPipelinedRequests: 1, maxQueuedAnswerBytes: MiB });
    server.get('/n', (_req, res) => void res.json(1));
    server.get('/big', (_req, res) => void res.send(big));
    await listen(server);
    try {
      expect(await pipeline(server.port, '/n', 300, 1)).to.equal(300);
      // Answers larger than the kernel takes at once wait, and count until written: a client that
      // reads each whole before asking again is never refused.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const connections = new Set<unknown>();
      agent.on('free', (socket) => connections.add(socket));
      try {
        for (let i = 0; i < 10; i++)
          expect((await send(`${server.url}/big`, { agent })).body.length).to.equal(big.length);
      } finally {
        agent.destroy();
      }
      expect(connections.size, 'one connection for all').to.equal(1);
    } finally {
      await server.stop();
    }
  });

  it('a client pipelining requests for large answers made at once, reading them, gets them all: the later ones wait their turn', async () => {
    class Large {
      getLarge(): string {
        return 'l'.repeat(MiB);
      }
    }
    meta(Large, service({ getLarge: method([], t.string()) }));
    const server = new HttpServer({ maxQueuedAnswerBytes: 2 * MiB }).mount(
      '/api',
      new Registry().on(new Large()).endpoints,
    );
    await listen(server);
    try {
      // 12 MiB of answers asked for in one write, 6 times the cap.
      expect(await pipeline(server.port, '/api/getLarge', 1, 12)).to.equal(12);
    } finally {
      await server.stop();
    }
  });

  it('a client pipelining up to maxPipelinedRequests at a time, reading the answers, gets them all', async () => {
    const server = new HttpServer({ maxPipelinedRequests: 16 });
    server.get('/n', (_req, res) => void res.json(1));
    await listen(server);
    try {
      expect(await pipeline(server.port, '/n', 20, 16)).to.equal(320);
    } finally {
      await server.stop();
    }
  });
});
