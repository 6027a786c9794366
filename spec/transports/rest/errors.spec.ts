import { expect } from 'chai';
import { decode as cborDecode } from 'cbor-x';
import { decode as msgpackDecode } from '@msgpack/msgpack';
import { HttpError, Registry, meta, method, problem, service, t, type ErrorContext } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, post, send, type Reply } from '../../support/http-client.ts';
import { FaultyService } from '../../support/services.ts';

function expectProblem(reply: Reply, status: number): Record<string, unknown> {
  expect(reply.status, reply.text).to.equal(status);
  expect(reply.headers['content-type']).to.equal('application/problem+json');
  const doc = reply.json() as Record<string, unknown>;
  expect(doc).to.include({ type: 'about:blank', status });
  expect(doc.title).to.be.a('string');
  return doc;
}

/** Throws an HttpError whose extensions name the base members of a problem document. */
class Impostor {
  forge(): string {
    throw new HttpError(409, 'the name is taken', {
      extensions: { type: 'https://evil.example', title: 'OK', status: '200', detail: 'forged', retryAfter: '5' },
    });
  }
}
meta(Impostor, service({ forge: method([], t.string()) }));

describe('transports/rest: errors over HTTP (RFC 9457 problem details)', () => {
  const seen: [unknown, ErrorContext][] = [];
  const onError = (e: unknown, c: ErrorContext) => void seen.push([e, c]);
  const server = new HttpServer();
  server.mount('/f', new Registry({ onError, errorOnMissingKeys: true }).on(new FaultyService()).endpoints);
  server.mount('/exposed', new Registry({ onError, exposeErrors: true }).on(new FaultyService()).endpoints);
  server.mount('/small', new Registry({ onError, maxBodyBytes: 64 }).on(new FaultyService()).endpoints);
  server.mount('/impostor', new Registry({ onError }).on(new Impostor()).endpoints);
  server.get('/forged', () => void new Impostor().forge());
  let url = '';
  before(async () => (url = await listen(server)));
  after(() => server.stop());
  beforeEach(() => (seen.length = 0));

  describe('ReadError on the body → 400 with code and path', () => {
    const cases: [string, string, string, string][] = [
      ['type_mismatch', '{"id": 1, "name": 5, "weight": 1}', 'type_mismatch', '/name'],
      ['out_of_range', '{"id": -1, "name": "a", "weight": 1}', 'out_of_range', '/id'],
      ['missing_key (errorOnMissingKeys)', '{"id": 1, "weight": 1}', 'missing_key', '/name'],
      ['unknown_key', '{"id": 1, "name": "a", "weight": 1, "admin": true}', 'unknown_key', '/admin'],
      ['syntax_error', '{"id": 1,', 'syntax_error', ''],
    ];
    for (const [label, body, code, path] of cases) {
      it(label, async () => {
        const doc = expectProblem(await post(`${url}/f/echo`, body), 400);
        expect(doc).to.include({ code, path });
        expect(doc.detail).to.be.a('string').and.not.equal('');
        expect(seen, 'client errors are not reported to onError').to.have.length(0);
      });
    }
  });

  it('a body over maxBodyBytes → 413', async () => {
    const body = JSON.stringify({ id: 1, name: 'x'.repeat(100), weight: 1 });
    const doc = expectProblem(await post(`${url}/small/echo`, body), 413);
    expect(doc.title).to.equal('Content Too Large');
    expect((await post(`${url}/small/echo`, '{"id": 1, "name": "a", "weight": 1}')).status).to.equal(200);
  });

  it('InvalidArgument → 400 with its message in detail', async () => {
    const reply = await send(`${url}/f/invalid`, { method: 'POST' });
    const doc = expectProblem(reply, 400);
    expect(doc.detail).to.equal('weight must be positive');
    expect(doc.requestId, 'only 5xx problems carry the request id').to.equal(undefined);
    expect(seen.map(([, c]) => c)).to.deep.equal([
      { service: 'FaultyService', method: 'invalid', status: 400, requestId: reply.headers['x-request-id'] },
    ]);
  });

  it('HttpError(status, message) → that status', async () => {
    expect(expectProblem(await send(`${url}/f/teapot`, { method: 'POST' }), 418).detail).to.equal('short and stout');
    const doc = expectProblem(await send(`${url}/f/unavailable`, { method: 'POST' }), 503);
    expect(doc).to.include({ title: 'Service Unavailable', detail: 'down for maintenance' });
  });

  describe('extension members never replace type, title, status or detail', () => {
    for (const path of ['/impostor/forge', '/forged']) {
      it(`${path === '/forged' ? 'a route handler' : 'a service method'}: the error's own members win, other extensions stay`, async () => {
        const reply = await send(`${url}${path}`, { method: path === '/forged' ? 'GET' : 'POST' });
        const doc = expectProblem(reply, 409);
        expect(doc).to.deep.equal({
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          detail: 'the name is taken',
          retryAfter: '5',
        });
      });
    }

    it('problem() too', () => {
      expect(
        problem(404, 'nothing here', { status: '200', title: 'OK', type: 'x', detail: 'y', hint: 'z' }),
      ).to.deep.equal({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'nothing here', hint: 'z' });
      expect(problem(404, undefined, { detail: 'y' })).to.deep.equal({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
      });
    });
  });

  for (const name of ['crash', 'reject', 'badResult']) {
    it(`anything else (${name}) → 500 without the message, reported to onError`, async () => {
      const reply = await send(`${url}/f/${name}`, { method: 'POST' });
      const doc = expectProblem(reply, 500);
      expect(reply.text).not.to.include('hunter2');
      expect(doc.detail).to.equal('The server failed to handle the request.');
      expect(seen).to.have.length(1);
      expect(doc.requestId).to.be.a('string').and.equal(reply.headers['x-request-id']);
      expect(seen[0]![1]).to.deep.equal({
        service: 'FaultyService',
        method: name,
        status: 500,
        requestId: doc.requestId,
      });
    });
  }

  it('exposeErrors: true sends the message of a 500', async () => {
    const doc = expectProblem(await send(`${url}/exposed/crash`, { method: 'POST' }), 500);
    expect(doc.detail).to.equal('the database password is hunter2');
  });

  it('no route → 404; known path, other verb → 405 with Allow', async () => {
    expect(expectProblem(await send(`${url}/f/nothing`, { method: 'POST' }), 404).detail).to.include('/f/nothing');
    const reply = await send(`${url}/f/echo`, { method: 'GET' });
    expectProblem(reply, 405);
    expect(reply.headers.allow).to.equal('POST');
  });

  it('a method that fails never takes the server down', async () => {
    await Promise.all(['crash', 'reject', 'badResult'].map((n) => send(`${url}/f/${n}`, { method: 'POST' })));
    expect((await post(`${url}/f/slowEcho`, '5')).text).to.equal('5');
  });

  describe('problem documents in other codecs', () => {
    it('application/problem+cbor when the client accepts it', async () => {
      const reply = await post(`${url}/f/echo`, '{"id": "x"}', 'POST', {
        accept: 'application/cbor, application/problem+cbor',
      });
      expect(reply.status).to.equal(400);
      expect(reply.headers['content-type']).to.equal('application/problem+cbor');
      expect(cborDecode(reply.body)).to.include({
        type: 'about:blank',
        status: 400,
        code: 'type_mismatch',
        path: '/id',
      });
    });
    it('application/problem+msgpack when the client accepts it', async () => {
      const reply = await send(`${url}/f/teapot`, {
        method: 'POST',
        headers: { accept: 'application/msgpack, application/problem+msgpack' },
      });
      expect(reply.headers['content-type']).to.equal('application/problem+msgpack');
      expect(msgpackDecode(reply.body)).to.include({ status: 418, detail: 'short and stout' });
    });
    it('application/problem+json otherwise, even for a MessagePack client', async () => {
      const reply = await send(`${url}/f/teapot`, { method: 'POST', headers: { accept: 'application/msgpack' } });
      expect(reply.headers['content-type']).to.equal('application/problem+json');
    });
  });
});
