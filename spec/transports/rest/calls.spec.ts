import { expect } from 'chai';
import {
  bearerAuth,
  contextKey,
  HttpError,
  meta,
  method,
  ReadError,
  Registry,
  service,
  t,
  type Call,
  type EndpointRequest,
  type EndpointResponse,
  type ErrorContext,
  type HeaderReader,
  type Infer,
  type Interceptor,
  type RegistryOptions,
  type ResponseReport,
  type ServiceMountOptions,
} from '../../../index.ts';
import { answerText } from '../../support/answer-body.ts';

const Book = t.object({ title: t.string(), pages: t.u32() }, { name: 'Book' });
type Book = Infer<typeof Book>;

/** Each method records its call and runs `behave`, which a spec sets; `act` answers what `behave` returns, if anything. */
class Probe {
  calls: Call[] = [];
  ran: string[] = [];
  behave: (call: Call) => unknown = () => undefined;
  act(note: string, call: Call): string {
    this.#record('act', call);
    return (this.behave(call) as string | undefined) ?? `acted ${note}`;
  }
  pair(n: number, s: string, call: Call): string {
    this.#record('pair', call);
    return `${n} ${s}`;
  }
  quiet(call: Call): void {
    this.#record('quiet', call);
    this.behave(call);
  }
  createBook(book: Book, call: Call): Book {
    this.#record('createBook', call);
    this.behave(call);
    return book;
  }
  getCount(call: Call): number {
    this.#record('getCount', call);
    this.behave(call);
    return 7;
  }
  #record(name: string, call: Call) {
    this.ran.push(name);
    this.calls.push(call);
  }
}
meta(
  Probe,
  service({
    act: method([t.string()], t.string()),
    pair: method([t.i32(), t.string()], t.string()),
    quiet: method([], t.void(), { verb: 'POST' }),
    createBook: method([Book], Book, { status: 201 }),
    getCount: method([], t.u32()),
  }),
);

/** A second service, to tell one service's interceptors from another's. */
class Other {
  hello(): string {
    return 'hello';
  }
}
meta(Other, service({ hello: method([], t.string()) }));

const text = answerText;
const json = (answer: EndpointResponse) => JSON.parse(text(answer.body)) as Record<string, unknown>;

function request(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  extra: Partial<EndpointRequest> = {},
): EndpointRequest {
  return {
    method,
    path,
    headers: new Headers(headers),
    body: body === undefined ? undefined : new TextEncoder().encode(body),
    ...extra,
  };
}
const act = (note = 'x', headers: Record<string, string> = {}) =>
  request('POST', '/act', { 'content-type': 'application/json', ...headers }, JSON.stringify(note));
const quiet = () => request('POST', '/quiet');
const BOOK = { title: 'Dune', pages: 412 };
const createBook = () => request('POST', '/createBook', { 'content-type': 'application/json' }, JSON.stringify(BOOK));

function setup(options: RegistryOptions = {}, mount: ServiceMountOptions = {}) {
  const probe = new Probe();
  const errors: [unknown, ErrorContext][] = [];
  const reports: ResponseReport[] = [];
  const registry = new Registry({
    onError: (e, c) => void errors.push([e, c]),
    onResponse: (r) => void reports.push(r),
    ...options,
  });
  registry.on(probe, mount);
  return { probe, errors, reports, registry, endpoints: registry.endpoints };
}

/** The answer is a 500 whose cause, told to onError, is an error whose message matches `message`. */
function expectMistake(answer: EndpointResponse, errors: [unknown, ErrorContext][], message: RegExp) {
  expect(answer.status, text(answer.body)).to.equal(500);
  const requestId = answer.headers['x-request-id'];
  expect(json(answer)).to.deep.equal({
    type: 'about:blank',
    title: 'Internal Server Error',
    status: 500,
    detail: 'The server failed to handle the request.',
    requestId,
  });
  expect(errors, 'onError is told once').to.have.length(1);
  const [error, context] = errors[0]!;
  expect(error).to.be.instanceOf(Error);
  expect((error as Error).message).to.match(message);
  expect(context.status).to.equal(500);
  expect(context.requestId).to.equal(requestId);
  return error as Error;
}

describe('transports/rest calls', () => {
  describe('the Call a method gets', () => {
    it('describes the request: service, method, verb, path, headers, query, id, arguments', async () => {
      const { probe, endpoints } = setup();
      const answer = await endpoints.handle(
        request(
          'POST',
          '/act',
          {
            'content-type': 'application/json',
            'X-Custom': 'v',
            'x-request-id': 'req-1',
          },
          '"hello"',
          { search: 'x=1&x=2&y=%C3%A9' },
        ),
      );
      expect(answer.status).to.equal(200);
      expect(probe.calls).to.have.length(1);
      const call = probe.calls[0]!;
      expect(call).to.include({ service: 'Probe', method: 'act', verb: 'POST', path: '/act', requestId: 'req-1' });
      expect(call.headers).to.be.instanceOf(Headers);
      expect(call.headers.get('x-custom')).to.equal('v');
      expect(call.headers.get('content-type')).to.equal('application/json');
      expect(call.query).to.be.instanceOf(URLSearchParams);
      expect(call.query.getAll('x')).to.deep.equal(['1', '2']);
      expect(call.query.get('y')).to.equal('é');
      expect(call.args).to.deep.equal(['hello']);
      expect(call.platform).to.deep.equal([]);
      expect(call.ip).to.equal(undefined);
      expect(call.signal).to.be.instanceOf(AbortSignal);
      expect(call.signal.aborted).to.equal(false);
      expect(answer.headers['x-request-id']).to.equal('req-1');
    });

    it('holds every decoded parameter in args, and none for a method without parameters', async () => {
      const { probe, endpoints } = setup();
      expect((await endpoints.handle(request('POST', '/pair', {}, '[5, "five"]'))).status).to.equal(200);
      expect((await endpoints.handle(request('GET', '/getCount'))).status).to.equal(200);
      expect((await endpoints.handle(createBook())).status).to.equal(201);
      expect(probe.calls.map((c) => c.args)).to.deep.equal([[5, 'five'], [], [BOOK]]);
      expect(probe.calls.map((c) => c.query.toString())).to.deep.equal(['', '', '']);
    });

    it('carries what the transport gives: platform values, address, signal, request id', async () => {
      const { probe, endpoints } = setup();
      const env = { secret: 1 };
      const controller = new AbortController();
      await endpoints.handle(
        request('POST', '/quiet', { 'x-request-id': 'from-header' }, undefined, {
          platform: [env, 'ctx'],
          ip: '203.0.113.9',
          signal: controller.signal,
          requestId: 'from-transport',
        }),
      );
      const call = probe.calls[0]!;
      expect(call.platform).to.have.length(2);
      expect(call.platform[0]).to.equal(env);
      expect(call.ip).to.equal('203.0.113.9');
      expect(call.signal).to.equal(controller.signal);
      expect(call.requestId).to.equal('from-transport');
    });

    it('is HEAD for a HEAD request to a GET endpoint', async () => {
      const { probe, endpoints } = setup();
      const answer = await endpoints.handle(request('HEAD', '/getCount'));
      expect(answer.status).to.equal(200);
      expect(answer.body).to.equal(undefined);
      expect(probe.calls[0]!.verb).to.equal('HEAD');
    });

    it("builds Web Headers from a transport's own header reader", async () => {
      const { probe, endpoints } = setup();
      const raw: Record<string, string> = { 'content-type': 'application/json', 'x-one': '1', 'x-two': '2' };
      const headers: HeaderReader = {
        get: (name) => raw[name.toLowerCase()] ?? null,
        forEach: (visit) => {
          for (const [name, value] of Object.entries(raw)) visit(value, name);
        },
      };
      expect(
        (await endpoints.handle({ method: 'POST', path: '/act', headers, body: new TextEncoder().encode('"a"') }))
          .status,
      ).to.equal(200);
      const call = probe.calls[0]!;
      expect(call.headers).to.be.instanceOf(Headers);
      expect([...call.headers.entries()]).to.deep.equal([
        ['content-type', 'application/json'],
        ['x-one', '1'],
        ['x-two', '2'],
      ]);
    });

    it('is one object per request', async () => {
      const { probe, endpoints } = setup();
      await endpoints.handle(act('a'));
      await endpoints.handle(act('b'));
      expect(probe.calls[0]).not.to.equal(probe.calls[1]);
      expect(probe.calls[0]!.requestId).not.to.equal(probe.calls[1]!.requestId);
    });
  });

  describe('context keys', () => {
    it('contextKey() needs a non-empty name', () => {
      expect(() => contextKey('')).to.throw(TypeError, /non-empty/);
      expect(() => contextKey(5 as never)).to.throw(TypeError, /non-empty/);
      expect(contextKey<number>('n').name).to.equal('n');
    });

    it('a value set in an interceptor is read in the method', async () => {
      const TENANT = contextKey<{ id: string }>('tenant');
      const { probe, endpoints } = setup({
        interceptors: [
          async (call, next) => {
            call.set(TENANT, { id: `t-${String(call.args[0])}` });
            return next();
          },
        ],
      });
      probe.behave = (call) => `tenant ${call.get(TENANT).id}, has ${String(call.has(TENANT))}`;
      const answer = await endpoints.handle(act('acme'));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"tenant t-acme, has true"');
    });

    it('the last value set wins', async () => {
      const N = contextKey<number>('n');
      const { probe, endpoints } = setup({
        interceptors: [
          async (call, next) => {
            call.set(N, 1);
            call.set(N, 2);
            return next();
          },
        ],
      });
      probe.behave = (call) => String(call.get(N));
      expect(text((await endpoints.handle(act())).body)).to.equal('"2"');
    });

    it('two keys with the same name are two slots', async () => {
      const first = contextKey<string>('user');
      const second = contextKey<string>('user');
      const { probe, endpoints, errors } = setup({
        interceptors: [
          async (call, next) => {
            call.set(first, 'ann');
            return next();
          },
        ],
      });
      const seen: unknown[] = [];
      probe.behave = (call) => {
        seen.push(call.has(first), call.has(second), call.get(first));
        return call.get(second);
      };
      const answer = await endpoints.handle(act());
      expect(seen).to.deep.equal([true, false, 'ann']);
      expectMistake(answer, errors, /'user'/);
    });

    it('call.get of a key nothing is stored under is a 500; onError is told a TypeError naming the key', async () => {
      const TENANT = contextKey<string>('tenant');
      const { probe, endpoints, errors } = setup();
      probe.behave = (call) => call.get(TENANT);
      const answer = await endpoints.handle(act());
      const error = expectMistake(answer, errors, /'tenant'/);
      expect(error).to.be.instanceOf(TypeError);
      expect(errors[0]![1]).to.deep.equal({
        service: 'Probe',
        method: 'act',
        status: 500,
        requestId: answer.headers['x-request-id'],
      });
    });

    it('call.has is false for a key never set', async () => {
      const KEY = contextKey<string>('k');
      const { probe, endpoints } = setup();
      probe.behave = (call) => String(call.has(KEY));
      expect(text((await endpoints.handle(act())).body)).to.equal('"false"');
    });
  });

  describe('success status', () => {
    it('is 200 for a value and 204 for t.void() by default', async () => {
      const { endpoints } = setup();
      const value = await endpoints.handle(act('a'));
      expect(value.status).to.equal(200);
      expect(text(value.body)).to.equal('"acted a"');
      const none = await endpoints.handle(quiet());
      expect(none.status).to.equal(204);
      expect(none.body).to.equal(undefined);
      expect(none.headers['content-type']).to.equal(undefined);
    });

    it('is the declared { status: 201 }, with the body', async () => {
      const { endpoints } = setup();
      const answer = await endpoints.handle(createBook());
      expect(answer.status).to.equal(201);
      expect(json(answer)).to.deep.equal(BOOK);
      expect(answer.headers['content-type']).to.equal('application/json');
    });

    for (const code of [200, 201, 202, 203, 206, 299]) {
      it(`call.status(${code}) makes a method returning a value answer ${code} with its body`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.status(code);
        const answer = await endpoints.handle(act('b'));
        expect(answer.status).to.equal(code);
        expect(text(answer.body)).to.equal('"acted b"');
        expect(errors).to.deep.equal([]);
      });
    }

    it('call.status() overrides the declared status', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => call.status(200);
      expect((await endpoints.handle(createBook())).status).to.equal(200);
    });

    it('call.status() the last valid one wins', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => {
        call.status(201);
        call.status(202);
      };
      expect((await endpoints.handle(act())).status).to.equal(202);
    });

    for (const code of [201, 204, 205, 200]) {
      it(`a t.void() method answers call.status(${code}) without a body`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.status(code);
        const answer = await endpoints.handle(quiet());
        expect(answer.status).to.equal(code);
        expect(answer.body).to.equal(undefined);
        expect(errors).to.deep.equal([]);
      });
    }

    for (const code of [199, 300, 302, 404, 500, Number.NaN, 200.5, -200, '201']) {
      it(`call.status(${typeof code === 'string' ? `'${code}'` : String(code)}) is a mistake: 500, onError told which`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.status(code as number);
        const answer = await endpoints.handle(act());
        const error = expectMistake(answer, errors, /call\.status\(.*\): a success status must be a 2xx/);
        expect(error.message).to.include(`call.status(${String(code)})`);
        expect(error.message).to.include('Probe.act');
        expect(text(answer.body)).not.to.include('acted');
      });
    }

    for (const code of [204, 205]) {
      it(`call.status(${code}) on a method returning a value is a mistake: 500`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.status(code);
        expectMistake(
          await endpoints.handle(act()),
          errors,
          new RegExp(`call\\.status\\(${code}\\): a ${code} answer has no body, but act returns a value`),
        );
      });
    }

    it('a valid status after a mistaken one does not undo the mistake', async () => {
      const { probe, endpoints, errors } = setup();
      probe.behave = (call) => {
        call.status(404);
        call.status(200);
      };
      expectMistake(await endpoints.handle(act()), errors, /call\.status\(404\)/);
    });

    it('a mistake is answered 500 even when the method then throws an HttpError', async () => {
      const { probe, endpoints, errors } = setup();
      probe.behave = (call) => {
        call.status(302);
        throw new HttpError(409, 'conflict');
      };
      expectMistake(await endpoints.handle(act()), errors, /call\.status\(302\)/);
    });

    it('method() refuses a declared status that is not a 2xx, and 204/205 for a method returning a value', () => {
      for (const status of [199, 300, 404, 200.5, '201']) {
        expect(() => method([], t.string(), { status: status as number }), String(status)).to.throw(
          TypeError,
          /status must be a 2xx status code/,
        );
      }
      expect(() => method([], t.string(), { status: 204 })).to.throw(
        TypeError,
        /a 204 answer has no body, so the method must return t\.void\(\)/,
      );
      expect(() => method([], t.string(), { status: 205 })).to.throw(TypeError, /205/);
      expect(method([], t.void(), { status: 204 }).status).to.equal(204);
      expect(method([], t.void(), { status: 201 }).status).to.equal(201);
      expect(method([], t.string(), { status: 202 }).status).to.equal(202);
      expect(method([], t.string()).status).to.equal(undefined);
    });

    it('a t.void() method declaring { status: 201 } answers 201 without a body', async () => {
      class Maker {
        make(): void {}
      }
      meta(Maker, service({ make: method([], t.void(), { status: 201 }) }));
      const answer = await new Registry().on(new Maker()).endpoints.handle(request('POST', '/make'));
      expect(answer.status).to.equal(201);
      expect(answer.body).to.equal(undefined);
    });
  });

  describe('answer headers', () => {
    it('call.header() adds a header to the answer, by lower-case name', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => {
        call.header('X-Trace', 'abc');
        call.header('cache-control', 'no-store');
      };
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(200);
      expect(answer.headers).to.include({
        'x-trace': 'abc',
        'cache-control': 'no-store',
        'content-type': 'application/json',
      });
    });

    it('a name given twice keeps both values as separate lines: two Set-Cookie', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => {
        call.header('Set-Cookie', 'a=1; Path=/');
        call.header('set-cookie', 'b=2, c=3');
        call.header('SET-COOKIE', 'd=4');
      };
      const answer = await endpoints.handle(quiet());
      expect(answer.status).to.equal(204);
      expect(answer.headers['set-cookie']).to.deep.equal(['a=1; Path=/', 'b=2, c=3', 'd=4']);
    });

    it('an empty value is a value', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => call.header('x-empty', '');
      expect((await endpoints.handle(act())).headers['x-empty']).to.equal('');
    });

    for (const name of ['bad name', '', 'x:y', 'clé', 'x\r\ny', 'a(b)']) {
      it(`call.header(${JSON.stringify(name)}, ...) is a mistake: 500, the header not sent`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.header(name, 'v');
        const answer = await endpoints.handle(act());
        expectMistake(answer, errors, /call\.header\(\): .* is not a header name/s);
      });
    }

    for (const value of ['a\r\nx-injected: 1', 'a\nb', 'a\rb', 'a\0b', 5 as unknown as string]) {
      it(`a header value ${JSON.stringify(value)} is a mistake: 500, the header not sent`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.header('x-thing', value);
        const answer = await endpoints.handle(act());
        expectMistake(answer, errors, /the value of x-thing must be a string without CR, LF or NUL/);
        expect(answer.headers['x-thing']).to.equal(undefined);
        expect(answer.headers['x-injected']).to.equal(undefined);
      });
    }

    for (const name of ['content-type', 'Content-Length', 'transfer-encoding', 'Connection', 'X-Request-Id']) {
      it(`${name} is reserved: setting it is a mistake, 500`, async () => {
        const { probe, endpoints, errors } = setup();
        probe.behave = (call) => call.header(name, 'forged');
        const answer = await endpoints.handle(act());
        expectMistake(answer, errors, new RegExp(`${name.toLowerCase()} is written by lacquer and cannot be set`));
        expect(answer.headers['x-request-id']).not.to.equal('forged');
        expect(answer.headers['content-type']).to.equal('application/problem+json');
      });
    }

    it("a Vary set by the method is kept beside lacquer's Vary: Accept, on a success and on a problem", async () => {
      const varies = (answer: EndpointResponse) =>
        [answer.headers.vary ?? []]
          .flat()
          .join(', ')
          .split(/\s*,\s*/)
          .sort();
      const { probe, endpoints } = setup();
      probe.behave = (call) => call.header('Vary', 'Origin');
      const success = await endpoints.handle(act());
      expect(success.status).to.equal(200);
      expect(varies(success), 'success').to.deep.equal(['Accept', 'Origin']);
      probe.behave = (call) => {
        call.header('vary', 'Origin');
        throw new HttpError(409, 'taken');
      };
      const failure = await endpoints.handle(act());
      expect(failure.status).to.equal(409);
      expect(varies(failure), 'problem').to.deep.equal(['Accept', 'Origin']);
    });

    it('headers set before a 4xx HttpError go with its problem answer', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => {
        call.header('x-trace', 'abc');
        call.header('set-cookie', 'a=1');
        call.header('set-cookie', 'b=2');
        throw new HttpError(409, 'taken');
      };
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(409);
      expect(answer.headers['x-trace']).to.equal('abc');
      expect(answer.headers['set-cookie']).to.deep.equal(['a=1', 'b=2']);
      expect(answer.headers['content-type']).to.equal('application/problem+json');
    });

    it('headers set before a failure answered 500 are not sent', async () => {
      const { probe, endpoints } = setup();
      probe.behave = (call) => {
        call.header('x-trace', 'abc');
        call.header('set-cookie', 'session=1');
        throw new Error('boom');
      };
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(500);
      expect(answer.headers['x-trace']).to.equal(undefined);
      expect(answer.headers['set-cookie']).to.equal(undefined);
    });

    it("HttpError's headers option lands on its problem answer", async () => {
      const { probe, endpoints } = setup();
      probe.behave = () => {
        throw new HttpError(429, 'slow down', { headers: { 'Retry-After': '30' } });
      };
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(429);
      expect(answer.headers['retry-after']).to.equal('30');
      expect(json(answer)).to.include({ status: 429, detail: 'slow down' });
    });

    it("HttpError's headers go with a 5xx too", async () => {
      const { probe, endpoints } = setup();
      probe.behave = () => {
        throw new HttpError(503, 'maintenance', { headers: { 'retry-after': '120' } });
      };
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(503);
      expect(answer.headers['retry-after']).to.equal('120');
    });

    it('HttpError headers with CR/LF, bad names or reserved names are dropped, the others kept', async () => {
      const { probe, endpoints } = setup();
      probe.behave = () => {
        throw new HttpError(400, 'no', {
          headers: {
            'x-bad': 'a\r\nx-injected: 1',
            'bad name': 'v',
            'content-type': 'text/html',
            'x-request-id': 'forged',
            'x-good': 'ok',
          },
        });
      };
      const answer = await endpoints.handle(act('', { 'x-request-id': 'mine' }));
      expect(answer.status).to.equal(400);
      expect(answer.headers['x-good']).to.equal('ok');
      expect(answer.headers['x-bad']).to.equal(undefined);
      expect(answer.headers['x-injected']).to.equal(undefined);
      expect(answer.headers['bad name']).to.equal(undefined);
      expect(answer.headers['content-type']).to.equal('application/problem+json');
      expect(answer.headers['x-request-id']).to.equal('mine');
    });
  });

  describe('interceptors', () => {
    const logging =
      (log: string[], name: string): Interceptor =>
      async (_call, next) => {
        log.push(`${name} in`);
        const result = await next();
        log.push(`${name} out`);
        return result;
      };

    it("run registry ones outermost in array order, then the service's, then the method", async () => {
      const log: string[] = [];
      const { probe, endpoints } = setup(
        { interceptors: [logging(log, 'r1'), logging(log, 'r2')] },
        { interceptors: [logging(log, 's1'), logging(log, 's2')] },
      );
      probe.behave = () => void log.push('method');
      expect((await endpoints.handle(act())).status).to.equal(200);
      expect(log).to.deep.equal(['r1 in', 'r2 in', 's1 in', 's2 in', 'method', 's2 out', 's1 out', 'r2 out', 'r1 out']);
    });

    it("a service's interceptors wrap that service only", async () => {
      const log: string[] = [];
      const { registry, endpoints } = setup(
        { interceptors: [logging(log, 'r')] },
        { interceptors: [logging(log, 'probe')] },
      );
      registry.on(new Other(), { interceptors: [logging(log, 'other')] });
      expect((await endpoints.handle(request('POST', '/hello'))).status).to.equal(200);
      expect(log).to.deep.equal(['r in', 'other in', 'other out', 'r out']);
    });

    it('see the decoded arguments and the call the method gets', async () => {
      const seen: [readonly unknown[], Call][] = [];
      const { probe, endpoints } = setup({
        interceptors: [
          async (call, next) => {
            seen.push([[...call.args], call]);
            return next();
          },
        ],
      });
      await endpoints.handle(request('POST', '/pair', {}, '[1, "one"]'));
      expect(seen[0]![0]).to.deep.equal([1, 'one']);
      expect(seen[0]![1]).to.equal(probe.calls[0]);
    });

    it('answer at once through interceptors that return next() as it is, and with a promise once something is awaited', async () => {
      const log: string[] = [];
      const passThrough: Interceptor = (_call, next) => {
        log.push('outer');
        return next();
      };
      const inner: Interceptor = (_call, next) => {
        log.push('inner');
        return next();
      };
      const { endpoints, probe } = setup({ interceptors: [passThrough, inner] });
      const handler = endpoints.routes.get('/act')!.get('POST')!;
      const now = handler(act('now'));
      expect(now, 'no promise when nothing is awaited').not.to.be.instanceOf(Promise);
      const answered = now as EndpointResponse;
      expect(answered.status).to.equal(200);
      expect(JSON.parse(text(answered.body))).to.equal('acted now');
      expect(answered.headers['x-request-id']).to.be.a('string');
      expect(log).to.deep.equal(['outer', 'inner']);
      probe.behave = async () => 'later';
      const later = handler(act());
      expect(later, 'an async method is awaited').to.be.instanceOf(Promise);
      expect(JSON.parse(text((await later).body))).to.equal('later');
    });

    it('an interceptor that throws at once is answered at once; a promise of its own is awaited', async () => {
      const { endpoints, errors } = setup({
        interceptors: [
          (call) => {
            if (call.args[0] === 'boom') throw new Error('interceptor failed');
            return Promise.resolve('replaced');
          },
        ],
      });
      const handler = endpoints.routes.get('/act')!.get('POST')!;
      const thrown = handler(act('boom'));
      expect(thrown).not.to.be.instanceOf(Promise);
      expectMistake(thrown as EndpointResponse, errors, /interceptor failed/);
      const replaced = handler(act('other'));
      expect(replaced).to.be.instanceOf(Promise);
      expect(JSON.parse(text((await replaced).body))).to.equal('replaced');
    });

    it('an interceptor that drops what next() gave it answers with its own result, the failure unhandled by nobody', async () => {
      const dropping: Interceptor = (_call, next) => {
        void next();
        return Promise.resolve('mine');
      };
      for (const behave of [
        () => {
          throw new Error('sync failure');
        },
        () => Promise.reject(new Error('async failure')),
      ]) {
        const unhandled: unknown[] = [];
        const onUnhandled = (reason: unknown) => void unhandled.push(reason);
        process.on('unhandledRejection', onUnhandled);
        try {
          const { endpoints, probe } = setup({ interceptors: [dropping] });
          probe.behave = behave;
          const answer = await endpoints.handle(act());
          expect(answer.status).to.equal(200);
          expect(JSON.parse(text(answer.body))).to.equal('mine');
          await new Promise((r) => setTimeout(r, 20));
          expect(unhandled, 'no unhandled rejection').to.deep.equal([]);
        } finally {
          process.off('unhandledRejection', onUnhandled);
        }
      }
    });

    it('may replace the result', async () => {
      const { endpoints } = setup({ interceptors: [async (_call, next) => `${String(await next())}, wrapped`] });
      expect(text((await endpoints.handle(act('a'))).body)).to.equal('"acted a, wrapped"');
    });

    it('may answer without calling next(): the method does not run', async () => {
      const { probe, endpoints } = setup({}, { interceptors: [async () => 'cached'] });
      const answer = await endpoints.handle(act());
      expect(text(answer.body)).to.equal('"cached"');
      expect(probe.ran).to.deep.equal([]);
    });

    it('may throw an HttpError, answered with its status and the headers the call holds', async () => {
      const { probe, endpoints, errors } = setup({
        interceptors: [
          async (call) => {
            call.header('retry-after', '5');
            throw new HttpError(429, 'too many');
          },
        ],
      });
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(429);
      expect(answer.headers['retry-after']).to.equal('5');
      expect(probe.ran).to.deep.equal([]);
      expect(errors.map(([, c]) => c.status)).to.deep.equal([429]);
    });

    it('may set the status and headers of a success', async () => {
      const { endpoints } = setup({
        interceptors: [
          async (call, next) => {
            const r = await next();
            call.status(202);
            call.header('x-timed', '1');
            return r;
          },
        ],
      });
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(202);
      expect(answer.headers['x-timed']).to.equal('1');
    });

    it('next() twice is a 500 naming the mistake, even when the interceptor swallows the rejection; the method ran once', async () => {
      const { probe, endpoints, errors } = setup({
        interceptors: [
          async (_call, next) => {
            const result = await next();
            try {
              await next();
            } catch {
              // swallowed
            }
            return result;
          },
        ],
      });
      const answer = await endpoints.handle(act());
      expectMistake(answer, errors, /interceptor 1 of 1 called next\(\) twice/);
      expect(probe.ran).to.deep.equal(['act']);
    });

    it('next() twice at once is a 500 too, and the method runs once', async () => {
      const { probe, endpoints, errors } = setup(
        {},
        {
          interceptors: [
            logging([], 'outer'),
            async (_call, next) => {
              const [first] = await Promise.all([next(), next().catch(() => 'ignored')]);
              return first;
            },
          ],
        },
      );
      expectMistake(await endpoints.handle(act()), errors, /interceptor 2 of 2 called next\(\) twice/);
      expect(probe.ran).to.deep.equal(['act']);
    });

    it('a result that does not fit the return descriptor is a 500', async () => {
      const { endpoints, errors } = setup({ interceptors: [async () => 42] });
      const answer = await endpoints.handle(act());
      expect(answer.status).to.equal(500);
      expect(errors.map(([, c]) => c.status)).to.deep.equal([500]);
      expect(json(answer).detail).to.equal('The server failed to handle the request.');
    });

    it('a plain error from an interceptor is a 500', async () => {
      const { endpoints, errors } = setup({
        interceptors: [
          async (_call, next) => {
            await next();
            throw new Error('after');
          },
        ],
      });
      expect((await endpoints.handle(act())).status).to.equal(500);
      expect((errors[0]![0] as Error).message).to.equal('after');
    });

    it('do not run for a refused call (401) nor for one whose body cannot be read or accepted (400, 406, 415)', async () => {
      let runs = 0;
      const USER = contextKey<string>('user');
      class Locked {
        act(note: string): string {
          return note;
        }
      }
      meta(Locked, service({ act: method([t.string()], t.string()) }, { security: ['bearer'] }));
      const endpoints = new Registry({
        security: { bearer: bearerAuth({ verify: () => 'u', key: USER }) },
        interceptors: [
          async (_call, next) => {
            runs++;
            return next();
          },
        ],
        onError: () => {},
      }).on(new Locked()).endpoints;
      const auth = { authorization: 'Bearer tok' };
      expect((await endpoints.handle(request('POST', '/act', {}, '"a"'))).status).to.equal(401);
      expect((await endpoints.handle(request('POST', '/act', auth, '{"broken'))).status).to.equal(400);
      expect(
        (await endpoints.handle(request('POST', '/act', { ...auth, accept: 'text/html' }, '"a"'))).status,
      ).to.equal(406);
      expect(
        (await endpoints.handle(request('POST', '/act', { ...auth, 'content-type': 'text/plain' }, 'a'))).status,
      ).to.equal(415);
      expect(runs).to.equal(0);
      expect((await endpoints.handle(request('POST', '/act', auth, '"a"'))).status).to.equal(200);
      expect(runs).to.equal(1);
    });

    it('must be functions', () => {
      expect(() => new Registry({ interceptors: [5 as never] })).to.throw(
        TypeError,
        /interceptors must be an array of functions/,
      );
      expect(() => new Registry({ interceptors: (() => 1) as never })).to.throw(
        TypeError,
        /interceptors must be an array/,
      );
      expect(() => new Registry().on(new Probe(), { interceptors: [null as never] })).to.throw(
        TypeError,
        /Registry\.on\(\): interceptors/,
      );
    });
  });

  describe('onResponse', () => {
    function expectReport(report: ResponseReport | undefined, status: number, answer: EndpointResponse) {
      expect(report, 'a report').not.to.equal(undefined);
      expect(report!.status).to.equal(status);
      expect(answer.status).to.equal(status);
      expect(report!.durationMs).to.be.a('number');
      expect(Number.isFinite(report!.durationMs) && report!.durationMs >= 0, String(report!.durationMs)).to.equal(true);
      expect(report!.call.requestId).to.equal(answer.headers['x-request-id']);
    }

    it('reports a success once, without an error', async () => {
      const { endpoints, reports } = setup();
      const answer = await endpoints.handle(act());
      expect(reports).to.have.length(1);
      expectReport(reports[0], 200, answer);
      expect(reports[0]!.call).to.include({ service: 'Probe', method: 'act' });
      expect('error' in reports[0]!).to.equal(false);
      const none = await endpoints.handle(quiet());
      expect(reports).to.have.length(2);
      expectReport(reports[1], 204, none);
    });

    it('reports a body that cannot be read: 400 with the ReadError', async () => {
      const { endpoints, reports, probe } = setup();
      const answer = await endpoints.handle(request('POST', '/act', {}, '{"broken'));
      expect(reports).to.have.length(1);
      expectReport(reports[0], 400, answer);
      expect(reports[0]!.error).to.be.instanceOf(ReadError);
      expect(probe.ran).to.deep.equal([]);
    });

    it('reports a refused call: 401 with the refusal', async () => {
      const USER = contextKey<string>('user');
      class Locked {
        whoAmI(call: Call): string {
          return call.get(USER);
        }
      }
      meta(Locked, service({ whoAmI: method([], t.string()) }, { security: ['bearer'] }));
      const reports: ResponseReport[] = [];
      const endpoints = new Registry({
        security: { bearer: bearerAuth({ verify: () => undefined, key: USER }) },
        onResponse: (r) => void reports.push(r),
      }).on(new Locked()).endpoints;
      const missing = await endpoints.handle(request('POST', '/whoAmI'));
      const refused = await endpoints.handle(request('POST', '/whoAmI', { authorization: 'Bearer tok' }));
      expect(reports).to.have.length(2);
      expectReport(reports[0], 401, missing);
      expectReport(reports[1], 401, refused);
      for (const report of reports) {
        expect(report.error).to.be.instanceOf(HttpError);
        expect((report.error as HttpError).status).to.equal(401);
      }
    });

    it('reports a caller verify turns away: 403 with its HttpError', async () => {
      const USER = contextKey<string>('user');
      class Guarded {
        whoAmI(call: Call): string {
          return call.get(USER);
        }
      }
      meta(Guarded, service({ whoAmI: method([], t.string()) }, { security: ['bearer'] }));
      const reports: ResponseReport[] = [];
      const suspended = new HttpError(403, 'suspended');
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({
            verify: () => {
              throw suspended;
            },
            key: USER,
          }),
        },
        onResponse: (r) => void reports.push(r),
        onError: () => {},
      }).on(new Guarded()).endpoints;
      const answer = await endpoints.handle(request('POST', '/whoAmI', { authorization: 'Bearer tok' }));
      expect(reports).to.have.length(1);
      expectReport(reports[0], 403, answer);
      expect(reports[0]!.error).to.equal(suspended);
    });

    it('reports 406 and 415', async () => {
      const { endpoints, reports } = setup();
      const notAcceptable = await endpoints.handle(act('a', { accept: 'text/html' }));
      const unsupported = await endpoints.handle(request('POST', '/act', { 'content-type': 'text/plain' }, 'a'));
      expect(reports).to.have.length(2);
      expectReport(reports[0], 406, notAcceptable);
      expectReport(reports[1], 415, unsupported);
    });

    it('reports a body over maxBodyBytes: 413', async () => {
      const { endpoints, reports } = setup({ maxBodyBytes: 8 });
      const answer = await endpoints.handle(act('a long note'));
      expect(reports).to.have.length(1);
      expectReport(reports[0], 413, answer);
    });

    it('reports a failure: 500 with the error thrown', async () => {
      const { probe, endpoints, reports } = setup();
      const boom = new Error('boom');
      probe.behave = () => {
        throw boom;
      };
      const answer = await endpoints.handle(act());
      expect(reports).to.have.length(1);
      expectReport(reports[0], 500, answer);
      expect(reports[0]!.error).to.equal(boom);
    });

    it('reports an HttpError with the error thrown', async () => {
      const { probe, endpoints, reports } = setup();
      const conflict = new HttpError(409, 'taken');
      probe.behave = () => {
        throw conflict;
      };
      const answer = await endpoints.handle(act());
      expectReport(reports[0], 409, answer);
      expect(reports[0]!.error).to.equal(conflict);
    });

    it('does not report routing answers, which belong to no endpoint (404, 405)', async () => {
      const { endpoints, reports } = setup();
      expect((await endpoints.handle(request('GET', '/nowhere'))).status).to.equal(404);
      expect((await endpoints.handle(request('GET', '/act'))).status).to.equal(405);
      expect(reports).to.deep.equal([]);
    });

    it('an onResponse that throws does not change the answer', async () => {
      const quietRegistry = setup();
      const throwing = setup({
        onResponse: () => {
          throw new Error('observer broke');
        },
      });
      for (const make of [
        () => act('a', { 'x-request-id': 'r1' }),
        () => request('POST', '/act', { 'x-request-id': 'r1' }, '{'),
      ]) {
        const expected = await quietRegistry.endpoints.handle(make());
        const actual = await throwing.endpoints.handle(make());
        expect(actual.status).to.equal(expected.status);
        expect(text(actual.body)).to.equal(text(expected.body));
        expect({ ...actual.headers }).to.deep.equal({ ...expected.headers });
      }
      expect(throwing.errors).to.deep.equal([]);
    });

    it('must be a function', () => {
      expect(() => new Registry({ onResponse: 'log' as never })).to.throw(TypeError, /onResponse must be a function/);
    });
  });
});
