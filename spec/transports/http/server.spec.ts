import { expect } from 'chai';
import { Agent } from 'node:http';
import { HttpError, Registry, t } from '../../../core/index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, post, raw, send } from '../../support/http-client.ts';
import { VerbService } from '../../support/services.ts';

describe('transports/http HttpServer', () => {
  const errors: unknown[] = [];
  const server = new HttpServer({ onError: (e) => void errors.push(e), cors: { origins: ['https://app.example'] } });
  server.mount('/api', new Registry({ onError: () => {} }).on(new VerbService()).endpoints);
  server.get('/users/:id', (req, res) => {
    res.status(200).header('x-user', encodeURIComponent(req.params.id!)).json({ id: req.params.id, q: req.query.get('q') });
  });
  server.get('/users/me', (_req, res) => void res.json('me'));
  server.get('/big', (_req, res) => void res.json({ n: 18446744073709551615n }, t.object({ n: t.u64() })));
  server.post('/echo', (req, res) => void res.status(201).send(req.text()));
  server.put('/bytes', (req, res) => void res.send(req.body));
  server.delete('/things/:a/:b', (req, res) => void res.json([req.params.a, req.params.b]));
  server.post('/typed', (req, res) => void res.json(req.json(t.object({ n: t.u8() }))));
  server.post('/nothing', () => {});
  server.get('/teapot', () => { throw new HttpError(418, 'short and stout'); });
  server.get('/throws', () => { throw new Error('secret'); });
  server.get('/rejects', async () => { throw new Error('secret'); });
  let url = '';
  let port = 0;
  before(async () => {
    url = await listen(server);
    port = server.port;
  });
  after(() => server.stop());
  beforeEach(() => (errors.length = 0));

  it('binds 127.0.0.1 on the port it was given (0 picks one)', () => {
    expect(port).to.be.greaterThan(0);
    expect(url).to.equal(`http://127.0.0.1:${port}`);
  });

  describe('routes', () => {
    it('matches :param segments, decoded, and reads the query', async () => {
      const reply = await send(`${url}/users/caf%C3%A9%2F1?q=a%20b`);
      expect(reply.status).to.equal(200);
      expect(reply.headers['x-user']).to.equal('caf%C3%A9%2F1');
      expect(reply.json()).to.deep.equal({ id: 'café/1', q: 'a b' });
    });
    it('prefers a literal segment to a parameter', async () => {
      expect((await send(`${url}/users/me`)).json()).to.equal('me');
    });
    it('matches several parameters', async () => {
      expect((await send(`${url}/things/x/y`, { method: 'DELETE' })).json()).to.deep.equal(['x', 'y']);
    });
    it('chains status, header and send; text is text/plain', async () => {
      const reply = await post(`${url}/echo`, 'hello');
      expect(reply.status).to.equal(201);
      expect(reply.headers['content-type']).to.equal('text/plain; charset=utf-8');
      expect(reply.text).to.equal('hello');
    });
    it('sends bytes as application/octet-stream', async () => {
      const reply = await send(`${url}/bytes`, { method: 'PUT', body: new Uint8Array([0, 255, 7]) });
      expect(reply.headers['content-type']).to.equal('application/octet-stream');
      expect([...reply.body]).to.deep.equal([0, 255, 7]);
    });
    it('res.json with a descriptor writes exact u64', async () => {
      expect((await send(`${url}/big`)).text).to.equal('{"n":18446744073709551615}');
    });
    it('req.json(type) reads with lacquer; a ReadError is a 400 problem', async () => {
      expect((await post(`${url}/typed`, '{"n": 7}')).json()).to.deep.equal({ n: 7 });
      const bad = await post(`${url}/typed`, '{"n": 300}');
      expect(bad.status).to.equal(400);
      expect(bad.json()).to.include({ code: 'out_of_range', path: '/n' });
    });
    it('answers 204 when a handler sends nothing', async () => {
      const reply = await send(`${url}/nothing`, { method: 'POST' });
      expect(reply.status).to.equal(204);
    });
    it('rejects a route defined twice', () => {
      expect(() => server.get('/users/:other', () => {})).to.throw(/GET \/users\/:other is already defined/);
    });
  });

  describe('HEAD', () => {
    for (const path of ['/users/1', '/api/getItems']) {
      it(`answers HEAD ${path} with the GET headers and no body`, async () => {
        const get = await send(`${url}${path}`);
        const head = await send(`${url}${path}`, { method: 'HEAD' });
        expect(head.status).to.equal(200);
        expect(head.body.length).to.equal(0);
        expect(head.headers['content-length']).to.equal(String(get.body.length));
        expect(head.headers['content-type']).to.equal(get.headers['content-type']);
      });
    }
  });

  describe('404, 405, OPTIONS', () => {
    it('404 is a problem document', async () => {
      for (const path of ['/nope', '/api/nope', '/api', '/users/1/2']) {
        const reply = await send(`${url}${path}`);
        expect(reply.status, path).to.equal(404);
        expect(reply.headers['content-type']).to.equal('application/problem+json');
        expect(reply.json()).to.include({ status: 404, title: 'Not Found' });
      }
    });
    it('405 lists the allowed verbs in Allow', async () => {
      const reply = await send(`${url}/users/1`, { method: 'POST' });
      expect(reply.status).to.equal(405);
      expect(reply.headers.allow).to.equal('GET, HEAD');
      expect(reply.json()).to.include({ status: 405 });
      expect((await send(`${url}/api/deleteItem`, { method: 'GET' })).headers.allow).to.equal('DELETE');
    });
    it('OPTIONS answers 204 with Allow', async () => {
      const reply = await send(`${url}/api/getItems`, { method: 'OPTIONS' });
      expect(reply.status).to.equal(204);
      expect(reply.headers.allow).to.equal('GET, HEAD');
    });
  });

  describe('handler failures', () => {
    it('HttpError answers its status', async () => {
      const reply = await send(`${url}/teapot`);
      expect(reply.status).to.equal(418);
      expect(reply.json()).to.include({ detail: 'short and stout' });
    });
    for (const path of ['/throws', '/rejects']) {
      it(`${path}: 500 without the message, reported, and the server stays up`, async () => {
        const reply = await send(`${url}${path}`);
        expect(reply.status).to.equal(500);
        expect(reply.headers['content-type']).to.equal('application/problem+json');
        expect(reply.text).not.to.include('secret');
        expect(errors).to.have.length(1);
        expect((await send(`${url}/users/me`)).status).to.equal(200);
      });
    }
  });

  describe('malformed requests get a 400 problem document', () => {
    for (const path of ['/users/%ZZ', '/users/%C3', '/users/a%00b']) {
      it(`path ${path}`, async () => {
        const reply = await send(`${url}${path}`);
        expect(reply.status).to.equal(400);
        expect(reply.headers['content-type']).to.equal('application/problem+json');
        expect(reply.json()).to.include({ status: 400 });
      });
    }
    const rawCases: [string, string, number][] = [
      ['a raw non-ASCII path', 'GET /caf\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['a dot segment', 'GET /users/../etc HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['an encoded dot segment', 'GET /users/%2e%2e HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['a target that is not a path', 'GET users HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['a header without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n', 400],
      ['a bad Content-Length', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
      ['garbage', 'HELLO\r\n\r\n', 400],
      ['headers over 16 KiB', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ];
    for (const [label, bytes, status] of rawCases) {
      it(label, async () => {
        const answer = await raw(port, bytes);
        expect(answer).to.match(new RegExp(`^HTTP/1.1 ${status} `));
        expect(answer.toLowerCase()).to.include('content-type: application/problem+json');
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
        expect(body).to.include({ status });
      });
    }
  });

  describe('CORS', () => {
    const origin = 'https://app.example';
    it('labels answers to an allowed origin', async () => {
      const reply = await send(`${url}/api/getItems`, { headers: { origin } });
      expect(reply.headers['access-control-allow-origin']).to.equal(origin);
      expect(reply.headers.vary).to.equal('Accept, Origin');
    });
    it('does not label answers to another origin', async () => {
      const reply = await send(`${url}/api/getItems`, { headers: { origin: 'https://evil.example' } });
      expect(reply.status).to.equal(200);
      expect(reply.headers['access-control-allow-origin']).to.equal(undefined);
    });
    it('answers a preflight from an allowed origin', async () => {
      const reply = await send(`${url}/api/createItem`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(reply.status).to.equal(204);
      expect(reply.headers).to.include({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
    });
    it('refuses a preflight from another origin with 403', async () => {
      const reply = await send(`${url}/api/createItem`, {
        method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(reply.status).to.equal(403);
      expect(reply.headers['access-control-allow-origin']).to.equal(undefined);
    });
    it('answers 404 to a preflight for an unknown path', async () => {
      const reply = await send(`${url}/api/unknown`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(reply.status).to.equal(404);
    });
  });

  it('answers 500 concurrent requests on keep-alive connections, each correctly', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    try {
      const replies = await Promise.all(Array.from({ length: 500 }, (_, i) =>
        send(`${url}/api/getItem`, { method: 'POST', body: String(i), headers: { 'content-type': 'application/json' }, agent })));
      replies.forEach((reply, i) => {
        expect(reply.status).to.equal(200);
        expect(reply.text).to.equal(JSON.stringify(`getItem ${i}`));
      });
      const sockets = Object.values(agent.freeSockets).flat().length;
      expect(sockets, 'connections were reused').to.be.within(1, 50);
    } finally {
      agent.destroy();
    }
  });
});

describe('transports/http timeouts', () => {
  const server = new HttpServer({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
  server.post('/echo', (req, res) => void res.send(req.text()));
  let port = 0;
  before(async () => {
    await listen(server);
    port = server.port;
  });
  after(() => server.stop());

  it('cuts off a client that never finishes its headers with a 408 problem', async () => {
    const answer = await raw(port, 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer).to.match(/^HTTP\/1.1 408 /);
    expect(answer).to.include('"status":408');
  });

  it('cuts off a client that never finishes its body', async () => {
    const answer = await raw(port, 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12');
    expect(answer).to.match(/^HTTP\/1.1 408 /);
  });

  it('documents its defaults and refuses headersTimeoutMs over requestTimeoutMs', async () => {
    const http = await import('../../../transports/http/index.ts');
    expect([http.DEFAULT_HEADERS_TIMEOUT_MS, http.DEFAULT_REQUEST_TIMEOUT_MS, http.DEFAULT_KEEP_ALIVE_TIMEOUT_MS]).to.deep.equal([10_000, 30_000, 5_000]);
    expect(() => new HttpServer({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).to.throw(RangeError, /headersTimeoutMs/);
  });
});
