// Interceptors of the typed client: functions around the fetch of each attempt, which see and may
// alter every request and answer.
import { expect } from 'chai';
import { json } from '../../../codecs/json/index.ts';
import { HttpError, method, service, t } from '../../../index.ts';
import { createClient, type ClientInterceptor } from '../../../transports/client/index.ts';
import { answer, failingServer, type FailingServer, type Step } from '../../support/failing-server.ts';

const Api = service({
  getItem: method({ id: t.u32() }, t.string()), // GET
  addItem: method([t.string()], t.string()), // POST
});

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );

describe('transports/client interceptors', () => {
  let server: FailingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('an interceptor adds a header to every request', async () => {
    server = await failingServer([answer(200)]);
    const tracing: ClientInterceptor = (request, next) => {
      request.headers.set('x-trace-id', 'abc');
      return next(request);
    };
    const api = createClient(Api, { baseUrl: server.url, codec: json, interceptors: [tracing] });
    await api.getItem({ id: 1 });
    await api.addItem('x');
    expect(server.seen.map((s) => s.headers['x-trace-id'])).to.deep.equal(['abc', 'abc']);
  });

  it('several run in the order given, the first outermost, each seeing the answer on its way back', async () => {
    server = await failingServer([answer(200)]);
    const log: string[] = [];
    const named =
      (name: string): ClientInterceptor =>
      async (request, next) => {
        log.push(`${name} > ${request.headers.get('x-order') ?? ''}`);
        request.headers.set('x-order', `${request.headers.get('x-order') ?? ''}${name}`);
        const response = await next(request);
        log.push(`${name} < ${response.status}`);
        return response;
      };
    const api = createClient(Api, {
      baseUrl: server.url,
      codec: json,
      interceptors: [named('a'), named('b'), named('c')],
    });
    expect(await api.getItem({ id: 1 })).to.equal('ok');
    expect(log).to.deep.equal(['a > ', 'b > a', 'c > ab', 'c < 200', 'b < 200', 'a < 200']);
    expect(server.seen[0]!.headers['x-order']).to.equal('abc');
  });

  it('an interceptor sees every attempt of a retried call', async () => {
    server = await failingServer([answer(503), answer(502), answer(200)]);
    const seen: string[] = [];
    const logging: ClientInterceptor = async (request, next) => {
      const response = await next(request);
      seen.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`);
      return response;
    };
    const api = createClient(Api, {
      baseUrl: server.url,
      codec: json,
      interceptors: [logging],
      retry: { baseDelayMs: 1 },
    });
    expect(await api.getItem({ id: 1 })).to.equal('ok');
    expect(seen).to.deep.equal(['GET /getItem 503', 'GET /getItem 502', 'GET /getItem 200']);
  });

  it('an interceptor sees each redirect the client follows', async () => {
    const seen: string[] = [];
    const logging: ClientInterceptor = async (request, next) => {
      const response = await next(request);
      seen.push(`${new URL(request.url).pathname} ${response.status}`);
      return response;
    };
    const api = createClient(Api, {
      baseUrl: 'http://in-process',
      codec: json,
      interceptors: [logging],
      fetch: async (request) =>
        new URL(request.url).pathname === '/getItem'
          ? new Response(null, { status: 307, headers: { location: '/moved/getItem' } })
          : new Response('"moved"', { headers: { 'content-type': 'application/json' } }),
    });
    expect(await api.getItem({ id: 1 })).to.equal('moved');
    expect(seen).to.deep.equal(['/getItem 307', '/moved/getItem 200']);
  });

  it('an interceptor refreshes a token and sends the request again itself, body included', async () => {
    const authorized: Step = (req, res) =>
      req.headers.authorization === 'Bearer fresh'
        ? answer(200)(req, res)
        : answer(401, {}, '{"detail":"token expired"}')(req, res);
    server = await failingServer([authorized]);
    let token = 'stale';
    let refreshes = 0;
    const auth: ClientInterceptor = async (request, next) => {
      request.headers.set('authorization', `Bearer ${token}`);
      // The body can be read once: the first attempt sends a copy, the second the request itself.
      const response = await next(request.clone());
      if (response.status !== 401) return response;
      await response.body?.cancel();
      token = 'fresh';
      refreshes++;
      request.headers.set('authorization', `Bearer ${token}`);
      return next(request);
    };
    const api = createClient(Api, { baseUrl: server.url, codec: json, interceptors: [auth] });
    expect(await api.addItem('the body')).to.equal('ok');
    expect(await api.addItem('again')).to.equal('ok');
    expect(refreshes).to.equal(1);
    expect(server.seen.map((s) => `${s.headers.authorization} ${s.body}`)).to.deep.equal([
      'Bearer stale "the body"',
      'Bearer fresh "the body"',
      'Bearer fresh "again"',
    ]);
  });

  it("an interceptor may answer without sending anything, and its answer is read as the server's", async () => {
    let sent = 0;
    const cached: ClientInterceptor = async () =>
      new Response('"from the cache"', { headers: { 'content-type': 'application/json' } });
    const api = createClient(Api, {
      baseUrl: 'http://nowhere.test',
      codec: json,
      interceptors: [cached],
      fetch: async () => {
        sent++;
        return new Response(null, { status: 500 });
      },
    });
    expect(await api.getItem({ id: 1 })).to.equal('from the cache');
    expect(sent).to.equal(0);
  });

  it("an interceptor's error rejects the call, and an error answer it returns is an HttpError", async () => {
    server = await failingServer([answer(200)]);
    const refusing: ClientInterceptor = async (request) => {
      if (request.method === 'POST') throw new Error('no writes offline');
      return new Response('{"detail":"denied here"}', {
        status: 403,
        headers: { 'content-type': 'application/problem+json' },
      });
    };
    const api = createClient(Api, {
      baseUrl: server.url,
      codec: json,
      interceptors: [refusing],
      retry: { baseDelayMs: 1 },
    });
    expect(await rejection(api.addItem('x'))).to.have.property('message', 'no writes offline');
    expect(await rejection(api.getItem({ id: 1 })))
      .to.be.instanceOf(HttpError)
      .with.property('detail', 'denied here');
    expect(server.seen).to.have.length(0);
  });

  it('refuses interceptors that are not an array of functions', () => {
    const base = { baseUrl: 'http://localhost', codec: json };
    for (const interceptors of [() => {}, 'x', null, [null], [{}], [() => {}, 5]]) {
      expect(() => createClient(Api, { ...base, interceptors: interceptors as never }), String(interceptors)).to.throw(
        TypeError,
        /interceptors/,
      );
    }
  });
});
