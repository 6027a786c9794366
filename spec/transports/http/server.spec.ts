import { expect } from 'chai';
import fc from 'fast-check';
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { HttpError, Registry, meta, method, service, t, type EndpointResponse } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, post, raw, send } from '../../support/http-client.ts';
import { until } from '../../support/until.ts';
import { VerbService } from '../../support/services.ts';

describe('transports/http HttpServer', () => {
  const errors: unknown[] = [];
  const server = new HttpServer({ onError: (e) => void errors.push(e), cors: { origins: ['https://app.example'] } });
  server.mount('/api', new Registry({ onError: () => {} }).on(new VerbService()).endpoints);
  server.get('/users/:id', (req, res) => {
    res
      .status(200)
      .header('x-user', encodeURIComponent(req.params.id!))
      .json({ id: req.params.id, q: req.query.get('q') });
  });
  server.get('/users/me', (_req, res) => void res.json('me'));
  server.get('/inherited', (req, res) => {
    res.json(['constructor', '__proto__', 'toString', 'hasOwnProperty'].map((name) => typeof req.header(name)));
  });
  server.get('/seen', (req, res) => {
    req.query.append('seen', 'here');
    res.json(req.query.getAll('seen'));
  });
  server.get('/big', (_req, res) => void res.json({ n: 18446744073709551615n }, t.object({ n: t.u64() })));
  server.post('/echo', (req, res) => void res.status(201).send(req.text()));
  server.put('/bytes', (req, res) => void res.send(req.body));
  server.delete('/things/:a/:b', (req, res) => void res.json([req.params.a, req.params.b]));
  server.post('/typed', (req, res) => void res.json(req.json(t.object({ n: t.u8() }))));
  server.post('/nothing', () => {});
  server.get('/teapot', () => {
    throw new HttpError(418, 'short and stout');
  });
  server.get('/throws', () => {
    throw new Error('secret');
  });
  server.get('/rejects', async () => {
    throw new Error('secret');
  });
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
      const reply = await send(`${url}/users/caf%C3%A9%201?q=a%20b`);
      expect(reply.status).to.equal(200);
      expect(reply.headers['x-user']).to.equal('caf%C3%A9%201');
      expect(reply.json()).to.deep.equal({ id: 'café 1', q: 'a b' });
    });
    for (const id of ['..%2F..%2Fetc%2Fpasswd', 'a%2Fb', '..%5C..%5Cwindows', 'a%5cb']) {
      it(`answers 400 to a :param that would decode to a / or \\: ${id}`, async () => {
        const reply = await send(`${url}/users/${id}`);
        expect(reply.status).to.equal(400);
        expect(reply.json()).to.include({ status: 400, detail: 'the path holds an encoded / or \\' });
      });
    }
    it('property: a text answer has its UTF-8 length as Content-Length, short or long, ASCII or not', async () => {
      const text = fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        fc.string({
          unit: fc.constantFrom('a', 'é', '😀', '\u00ff', '\u0080', '\u007f'),
          minLength: 250,
          maxLength: 260,
        }),
      );
      await fc.assert(
        fc.asyncProperty(text, async (sent) => {
          const reply = await send(`${url}/echo`, {
            method: 'POST',
            body: sent,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
          });
          expect(reply.status).to.equal(201);
          expect(reply.headers['content-length']).to.equal(String(Buffer.byteLength(sent)));
          expect(reply.text).to.equal(sent);
        }),
        { numRuns: 150, seed: 20261123 },
      );
    });

    it("reads no header from the prototype of Node's header object", async () => {
      expect((await send(`${url}/inherited`)).json()).to.deep.equal([
        'undefined',
        'undefined',
        'undefined',
        'undefined',
      ]);
    });

    it('gives each request its own query, however often the same target comes', async () => {
      for (let i = 0; i < 3; i++) expect((await send(`${url}/seen?seen=sent`)).json()).to.deep.equal(['sent', 'here']);
      for (let i = 0; i < 300; i++) await send(`${url}/users/${i}`);
      expect((await send(`${url}/seen?seen=sent`)).json()).to.deep.equal(['sent', 'here']);
      expect((await send(`${url}/users/caf%C3%A9%201?q=a%20b`)).json()).to.deep.equal({ id: 'café 1', q: 'a b' });
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
    it('a route with parameters does not shadow the endpoints mounted under it; a literal route still wins', async () => {
      const shadow = new HttpServer();
      shadow.mount('/api', new Registry({ onError: () => {} }).on(new VerbService()).endpoints);
      shadow.get('/api/:x', (req, res) => void res.json(`own ${req.params.x}`));
      shadow.get('/api/get', (_req, res) => void res.json('own literal'));
      const base = await listen(shadow);
      try {
        expect((await send(`${base}/api/getItems`)).json()).to.equal('getItems');
        expect((await send(`${base}/api/findAll`)).json()).to.equal('findAll');
        expect((await send(`${base}/api/somethingElse`)).json()).to.equal('own somethingElse');
        expect((await send(`${base}/api/get`)).json()).to.equal('own literal');
        // A path the registry answers for another verb only is the route's for GET.
        expect((await send(`${base}/api/ping`)).json()).to.equal('own ping');
        expect((await send(`${base}/api/ping`, { method: 'POST' })).json()).to.equal('ping');
      } finally {
        await shadow.stop();
      }
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

  describe('a mounted table whose handler breaks its contract', () => {
    // What the server does when a handler it did not build throws, rejects, or answers something
    // Node cannot write: a 500 problem document and a closed connection, the fault logged, no crash.
    const broken = new HttpServer();
    const handlers: Record<string, () => EndpointResponse | Promise<EndpointResponse>> = {
      '/throws': () => {
        throw new Error('secret');
      },
      '/rejects': () => Promise.reject(new Error('secret')),
      '/bad-header': () => ({ status: 200, headers: { 'x-bad': 'a\nb' }, body: 'secret' }),
      '/bad-header-later': async () => ({ status: 200, headers: { 'x-bad': 'a\nb' }, body: 'secret' }),
    };
    broken.mount('/t', {
      routes: new Map(Object.entries(handlers).map(([path, handler]) => [path, new Map([['GET', handler]])])),
    });
    let brokenUrl = '';
    const logged: unknown[][] = [];
    const consoleError = console.error;
    before(async () => (brokenUrl = await listen(broken)));
    after(() => broken.stop());
    beforeEach(() => {
      logged.length = 0;
      console.error = (...args: unknown[]) => void logged.push(args);
    });
    afterEach(() => (console.error = consoleError));

    for (const path of Object.keys(handlers)) {
      it(`${path}: 500 without the message, the fault logged, the connection closed, the server up`, async () => {
        const reply = await send(`${brokenUrl}/t${path}`);
        expect(reply.status).to.equal(500);
        expect(reply.headers['content-type']).to.equal('application/problem+json');
        expect(reply.headers.connection).to.equal('close');
        expect(reply.headers['x-request-id']).to.be.a('string');
        expect(reply.text).not.to.include('secret');
        expect(logged.map((args) => args[0])).to.deep.equal(['lacquer/http: internal error']);
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
      ['an HTTP/1.1 request without Host', 'GET /users/me HTTP/1.1\r\n\r\n', 400],
      ['an expectation other than 100-continue', 'GET /users/me HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n', 417],
      ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 501],
      ['more than 2,000 header lines', `GET /users/me HTTP/1.1\r\nHost: x\r\n${'a: b\r\n'.repeat(2000)}\r\n`, 431],
    ];
    for (const [label, bytes, status] of rawCases) {
      it(label, async () => {
        const answer = await raw(port, bytes);
        expect(answer).to.match(new RegExp(`^HTTP/1.1 ${status} `));
        expect(answer.toLowerCase()).to.include('content-type: application/problem+json');
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
        expect(body).to.include({ status });
        expect(answer, 'the status line and the title agree').to.match(
          new RegExp(`^HTTP/1.1 ${status} ${body.title}\r\n`),
        );
      });
    }

    it('2,000 header lines are read; 2,001 are a 431, a body after them included', async () => {
      const filler = 'a: b\r\n'.repeat(1998);
      const ok = await raw(port, `GET /users/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${filler}\r\n`);
      expect(ok).to.match(/^HTTP\/1.1 200 /);
      const answer = await raw(
        port,
        `POST /echo HTTP/1.1\r\nHost: x\r\n${filler}b: c\r\nContent-Length: 5\r\n\r\nhello`,
      );
      expect(answer).to.match(/^HTTP\/1.1 431 /);
      expect(answer.toLowerCase()).to.include('connection: close');
    });
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
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(reply.status).to.equal(403);
      expect(reply.headers['access-control-allow-origin']).to.equal(undefined);
    });
    it('answers 404 to a preflight for an unknown path', async () => {
      const reply = await send(`${url}/api/unknown`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(reply.status).to.equal(404);
    });
  });

  it('answers 500 concurrent requests on keep-alive connections, each correctly', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    try {
      const replies = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          send(`${url}/api/getItem`, {
            method: 'POST',
            body: String(i),
            headers: { 'content-type': 'application/json' },
            agent,
          }),
        ),
      );
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

  describe('a handler that never answers', function () {
    this.timeout(5000);
    const contract = service({ hang: method([], t.string()), quick: method([], t.string()) });
    class Hanging {
      hang(): Promise<string> {
        return new Promise(() => {});
      }
      quick() {
        return 'quick';
      }
    }
    meta(Hanging, contract);
    const reported: { message: string; path: string; status: number }[] = [];
    const hanging = new HttpServer({
      handlerTimeoutMs: 150,
      onError: (e, r, status) => void reported.push({ message: (e as Error).message, path: r.path, status }),
    });
    hanging.get('/never', () => new Promise<void>(() => {}));
    hanging.get('/late', async (_req, res) => {
      await new Promise((r) => setTimeout(r, 400));
      res.json('late');
    });
    hanging.mount('/api', new Registry({ onError: () => {} }).on(new Hanging()).endpoints);
    let base = '';
    const port = () => hanging.port;
    before(async () => (base = await listen(hanging)));
    after(() => hanging.stop());
    beforeEach(() => (reported.length = 0));

    for (const [label, path, method] of [
      ['a route handler', '/never', 'GET'],
      ['a registry method', '/api/hang', 'POST'],
    ] as const) {
      it(`${label}: 503 problem document after handlerTimeoutMs, and the connection serves again`, async () => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        try {
          const t0 = Date.now();
          const reply = await send(`${base}${path}`, { method, agent, headers: { accept: 'application/json' } });
          // Not before the timeout; how long after it depends on the machine's load.
          expect(Date.now() - t0).to.be.at.least(100);
          expect(reply.status, reply.text).to.equal(503);
          expect(reply.headers['content-type']).to.equal('application/problem+json');
          expect(reply.json()).to.include({ status: 503, title: 'Service Unavailable' });
          expect(reply.json().detail).to.match(/did not answer within 150 ms/);
          expect(reported, 'the timeout is reported to onError').to.deep.equal([
            { message: 'handler timed out after 150 ms', path, status: 503 },
          ]);
          expect((await send(`${base}/api/quick`, { method: 'POST', agent })).json()).to.equal('quick');
        } finally {
          agent.destroy();
        }
      });
    }

    it('times out each call at its own deadline, whatever answered in between', async () => {
      const hang = (id: string) => {
        const t0 = Date.now();
        return send(`${base}/api/hang`, {
          method: 'POST',
          headers: { accept: 'application/json', 'x-request-id': id },
        }).then((reply) => ({ reply, ms: Date.now() - t0 }));
      };
      const first = hang('first-call');
      // Calls that start and answer while the first waits, taken out of the calls in flight.
      const quick = await Promise.all(Array.from({ length: 5 }, () => send(`${base}/api/quick`, { method: 'POST' })));
      expect(quick.map((r) => r.json())).to.deep.equal(Array(5).fill('quick'));
      await new Promise((r) => setTimeout(r, 90));
      const second = hang('second-call');
      for (const [call, id] of [
        [await first, 'first-call'],
        [await second, 'second-call'],
      ] as const) {
        expect(call.reply.status).to.equal(503);
        expect(call.reply.json().requestId).to.equal(id);
        // Never before its own 150 ms, though the first call's deadline passed while the second waited.
        expect(call.ms, id).to.be.at.least(140);
      }
      expect(reported.map((r) => r.status)).to.deep.equal([503, 503]);
    });

    it('a route handler that answers after the timeout: nothing but the 503 is written, and the connection serves on', async () => {
      // A raw keep-alive connection: anything the handler wrote late would arrive on it.
      const socket = connect(port(), '127.0.0.1', () => socket.write('GET /late HTTP/1.1\r\nHost: x\r\n\r\n'));
      try {
        let out = '';
        socket.setEncoding('latin1');
        socket.on('data', (d: string) => (out += d));
        socket.on('error', () => {});
        await until(() => out.includes('"status":503'));
        expect(out).to.match(/^HTTP\/1.1 503 /);
        const first = out;
        // The handler answers 400 ms after the request; wait well past that.
        await new Promise((r) => setTimeout(r, 600));
        expect(out.match(/HTTP\/1.1 /g), 'one status line').to.have.length(1);
        expect(out, 'no late bytes').to.equal(first);
        expect(socket.destroyed, 'the connection is kept alive').to.equal(false);
        socket.write('POST /api/quick HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
        await until(() => out.slice(first.length).includes('"quick"'));
        expect(out.slice(first.length)).to.match(/^HTTP\/1.1 200 [\s\S]*"quick"$/);
      } finally {
        socket.destroy();
      }
    });
  });

  it('documents its defaults and refuses headersTimeoutMs over requestTimeoutMs', async () => {
    const http = await import('../../../transports/http/index.ts');
    expect([
      http.DEFAULT_HEADERS_TIMEOUT_MS,
      http.DEFAULT_REQUEST_TIMEOUT_MS,
      http.DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    ]).to.deep.equal([10_000, 30_000, 5_000]);
    expect(http.DEFAULT_HANDLER_TIMEOUT_MS).to.equal(30_000);
    expect(() => new HttpServer({ handlerTimeoutMs: -1 })).to.throw(RangeError, /handlerTimeoutMs/);
    expect(() => new HttpServer({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).to.throw(
      RangeError,
      /headersTimeoutMs/,
    );
  });

  it('lets requestTimeoutMs, unless given, follow a handlerTimeoutMs raised past it, so that a long upload is not cut at 30 s', () => {
    // headersTimeoutMs may not exceed requestTimeoutMs: accepted, it shows the request timeout the server took.
    expect(() => new HttpServer({ handlerTimeoutMs: 60_000, headersTimeoutMs: 45_000 })).not.to.throw();
    expect(() => new HttpServer({ handlerTimeoutMs: 0, headersTimeoutMs: 45_000 })).not.to.throw();
    expect(() => new HttpServer({ handlerTimeoutMs: 60_000, headersTimeoutMs: 60_001 })).to.throw(
      RangeError,
      /requestTimeoutMs \(60000\)/,
    );
    expect(() => new HttpServer({ handlerTimeoutMs: 20_000, headersTimeoutMs: 45_000 })).to.throw(
      RangeError,
      /requestTimeoutMs \(30000\)/,
    );
    expect(
      () => new HttpServer({ handlerTimeoutMs: 60_000, requestTimeoutMs: 40_000, headersTimeoutMs: 45_000 }),
    ).to.throw(RangeError, /requestTimeoutMs \(40000\)/);
    expect(() => new HttpServer({ handlerTimeoutMs: Number.NaN })).to.throw(RangeError, /handlerTimeoutMs/);
  });

  it('maxHeadersCount: an integer from 1 to 2**20, or Infinity for no count limit', async () => {
    // Node doubles the count in a 32-bit integer: 2**31 would wrap to 0 (no limit) silently.
    for (const bad of [0, -1, 1.5, NaN, 2 ** 20 + 1, 2 ** 31]) {
      expect(() => new HttpServer({ maxHeadersCount: bad }), String(bad)).to.throw(RangeError, /maxHeadersCount/);
    }
    expect(() => new HttpServer({ maxHeadersCount: 2 ** 20 })).not.to.throw();
    const unlimited = new HttpServer({ maxHeadersCount: Infinity });
    unlimited.get('/count', (req, res) => void res.json(Object.keys(req.headers.raw).length));
    await listen(unlimited);
    try {
      const answer = await raw(
        unlimited.port,
        `GET /count HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Array.from({ length: 2500 }, (_, i) => `h${i}: v\r\n`).join('')}\r\n`,
      );
      expect(answer).to.match(/^HTTP\/1.1 200 /);
      expect(answer.endsWith('\r\n\r\n2502')).to.equal(true);
    } finally {
      await unlimited.stop();
    }
  });
});
