import { expect } from 'chai';
import { request } from 'node:http';
import { connect } from 'node:net';
import { setImmediate as tick } from 'node:timers/promises';
import { Registry } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, post, raw, send } from '../../support/http-client.ts';
import { FaultyService } from '../../support/services.ts';

/**
 * Streams `total` bytes of a chunked body to `path` on a raw socket and keeps sending whatever the
 * server answers, as a careless client would: resolves with the answer's status line (if one
 * arrived), the bytes written, and how the upload ended.
 */
function upload(
  port: number,
  path: string,
  total: number,
): Promise<{ statusLine: string; sent: number; ended: string }> {
  return new Promise((resolve) => {
    const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')]);
    let sent = 0;
    let answer = '';
    let ended = '';
    const socket = connect(port, '127.0.0.1');
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', (e: NodeJS.ErrnoException) => (ended ||= e.code ?? e.message));
    socket.on('close', () => resolve({ statusLine: answer.split('\r\n')[0] ?? '', sent, ended: ended || 'closed' }));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    void (async () => {
      while (sent < total && !socket.destroyed) {
        sent += 0x10000;
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
        await tick(); // let the client read what the server says, as a real network would
      }
      if (!socket.destroyed) socket.end('0\r\n\r\n');
    })();
  });
}

describe('transports/http body limits', () => {
  let calls = 0;
  const server = new HttpServer({ maxBodyBytes: 1024 });
  server.post('/count', (req, res) => {
    calls++;
    res.json(req.body.byteLength);
  });
  server.mount('/tight', new Registry({ maxBodyBytes: 64, onError: () => {} }).on(new FaultyService()).endpoints);
  server.mount('/loose', new Registry({ maxBodyBytes: 1 << 30, onError: () => {} }).on(new FaultyService()).endpoints);
  let url = '';
  before(async () => (url = await listen(server)));
  after(() => server.stop());
  beforeEach(() => (calls = 0));

  it('reads a body up to maxBodyBytes', async () => {
    expect((await post(`${url}/count`, 'x'.repeat(1024))).text).to.equal('1024');
  });

  it('answers 413 to a declared length over the limit without calling the handler', async () => {
    const reply = await post(`${url}/count`, 'x'.repeat(1025));
    expect(reply.status).to.equal(413);
    expect(reply.headers['content-type']).to.equal('application/problem+json');
    expect(reply.json()).to.include({ status: 413, title: 'Content Too Large' });
    expect(calls).to.equal(0);
  });

  it('answers 413 to a chunked body once it crosses the limit', async () => {
    const reply = await send(`${url}/count`, {
      method: 'POST',
      body: 'x'.repeat(5000),
      headers: { 'transfer-encoding': 'chunked' },
    });
    expect(reply.status).to.equal(413);
    expect(calls).to.equal(0);
  });

  it('answers 413 instead of 100 Continue when the declared length is too large', async () => {
    const answer = await raw(
      server.port,
      'POST /count HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n',
    );
    expect(answer).to.match(/^HTTP\/1.1 413 /);
    expect(answer).not.to.include('100 Continue');
  });

  it('sends 100 Continue when the declared length fits, then reads the body', async () => {
    const status = await new Promise<[boolean, string]>((resolve, reject) => {
      let continued = false;
      const req = request(`${url}/count`, {
        method: 'POST',
        agent: false,
        headers: { expect: '100-continue', 'content-length': 10 },
      });
      req.on('continue', () => {
        continued = true;
        req.end('0123456789');
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve([continued, text]));
      });
      req.on('error', reject);
    });
    expect(status).to.deep.equal([true, '10']);
  });

  it('applies the lower of the registry limit and the server limit', async () => {
    const body = JSON.stringify({ id: 1, name: 'x'.repeat(100), weight: 1 });
    expect((await post(`${url}/tight/echo`, body)).status).to.equal(413);
    expect((await post(`${url}/loose/echo`, body)).status).to.equal(200);
    const over = JSON.stringify({ id: 1, name: 'x'.repeat(2000), weight: 1 });
    expect((await post(`${url}/loose/echo`, over)).status).to.equal(413);
  });

  it('stops reading a 100 MB upload: the client gets 413 and is cut off long before sending it all', async () => {
    const total = 100 * 1024 * 1024;
    const before = process.memoryUsage().arrayBuffers;
    const result = await upload(server.port, '/count', total);
    expect(result.statusLine, JSON.stringify(result)).to.match(/^HTTP\/1.1 413 /);
    expect(result.sent, 'bytes the client managed to send').to.be.below(32 * 1024 * 1024);
    expect(process.memoryUsage().arrayBuffers - before, 'memory held').to.be.below(50 * 1024 * 1024);
    expect(calls).to.equal(0);
    expect((await send(`${url}/tight/invalid`, { method: 'POST' })).status, 'the server still answers').to.equal(400);
  });

  it('does not read a large upload to an unknown path either', async () => {
    const result = await upload(server.port, '/nowhere', 100 * 1024 * 1024);
    expect(result.statusLine, JSON.stringify(result)).to.match(/^HTTP\/1.1 404 /);
    expect(result.sent).to.be.below(32 * 1024 * 1024);
  });
});
