import { expect } from 'chai';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import {
  HttpError,
  ReadError,
  Registry,
  WriteError,
  meta,
  method,
  problem,
  problemResponse,
  service,
  t,
  type Infer,
} from '../../../index.ts';
import {
  DEFAULT_MAX_ERROR_BYTES,
  DEFAULT_MAX_REDIRECTS,
  createClient,
  type FetchFunction,
} from '../../../transports/client/index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen } from '../../support/http-client.ts';
import { EXPECTED_VERBS, FaultyApi, FaultyService, Item, VerbApi, VerbService } from '../../support/services.ts';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: Uint8Array;
}

/** A fetch that records each request and hands it to `next` (an in-process registry by default). */
function recording(next: FetchFunction) {
  const sent: Sent[] = [];
  const fetch: FetchFunction = async (request) => {
    const body = new Uint8Array(await request.clone().arrayBuffer());
    sent.push({ method: request.method, url: request.url, headers: request.headers, body });
    return next(request);
  };
  return { sent, fetch };
}

const BASE = 'http://in-process/api';
const ITEM = { id: 2n ** 64n - 1n, name: 'Ada', weight: 0.1 };
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );

describe('transports/client createClient', () => {
  const verbRegistry = new Registry({ onError: () => {} }).on(new VerbService());
  const faultyRegistry = new Registry({ onError: () => {}, errorOnMissingKeys: true }).on(new FaultyService());
  const verbs = toFetchHandler('/api', verbRegistry.endpoints);
  const faulty = toFetchHandler('/api', faultyRegistry.endpoints);

  it('is typed by the contract', () => {
    const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch: faulty });
    const typed = () => {
      const echoed: Promise<Infer<typeof Item>> = api.echo({ id: 1n, name: 'a', weight: 1 });
      const n: Promise<number> = api.slowEcho(5, { signal: AbortSignal.timeout(1000) });
      const v = createClient(VerbApi, { baseUrl: BASE, codec: json }).deleteItem(5n);
      const nothing: Promise<void> = v;
      // @ts-expect-error: the parameter is an i32, not a string
      void api.slowEcho('5');
      // @ts-expect-error: a missing parameter
      void api.echo();
      // @ts-expect-error: no such method
      void api.nothing();
      return [echoed, n, nothing];
    };
    expect(typed).to.be.a('function');
  });

  it('takes the call options as the first argument of a method without parameters, and {} before them too', async () => {
    class Board {
      listTasks(call: { headers: Headers }) {
        return [call.headers.get('x-board') ?? ''];
      }
      ping(call: { headers: Headers }) {
        return call.headers.get('x-board') ?? '';
      }
    }
    const BoardApi = service({
      listTasks: method({}, t.array(t.string()), { route: 'GET /tasks' }),
      ping: method([], t.string()),
    });
    meta(Board, BoardApi);
    const api = createClient(BoardApi, {
      baseUrl: BASE,
      codec: json,
      fetch: toFetchHandler('/api', new Registry().on(new Board()).endpoints),
    });
    const headers = { 'x-board': 'b1' };
    expect(await api.listTasks({ headers })).to.deep.equal(['b1']);
    expect(await api.listTasks({}, { headers })).to.deep.equal(['b1']);
    expect(await api.listTasks()).to.deep.equal(['']);
    expect(await api.ping({ headers })).to.equal('b1');
    const aborted = await rejection(api.listTasks({ signal: AbortSignal.abort() }));
    expect((aborted as Error).name).to.equal('AbortError');
    const typed = () => {
      const tasks: Promise<string[]> = api.listTasks({ signal: AbortSignal.timeout(1000), timeoutMs: 5 });
      // @ts-expect-error: a method without parameters takes none before its options but {}
      void api.listTasks({ id: 1 }, { headers });
      // @ts-expect-error: no third argument
      void api.listTasks({}, {}, {});
      return tasks;
    };
    expect(typed).to.be.a('function');
    const tooMany = await rejection((api.listTasks as (...args: unknown[]) => Promise<unknown>)({}, {}, {}));
    expect((tooMany as Error).message).to.match(/listTasks\(\) takes/);
  });

  it("uses the registry's verb and path for every method", async () => {
    const { sent, fetch } = recording(verbs);
    const api = createClient(VerbApi, { baseUrl: BASE, codec: json, fetch });
    const item = { id: 1n, name: 'a', weight: 1 };
    await Promise.all([
      api.get(),
      api.getItems(),
      api.get_items(),
      api.findAll(),
      api.listItems(),
      api.getItem(1n),
      api.getaway(),
      api.listen(),
      api.deleteItem(1n),
      api.delete(),
      api.deletedItems(),
      api.updateItem(item),
      api.createItem(item),
      api.ping(),
      api.add(1, 2),
      api.fetchAll(),
      api.removeItem(1n),
    ]);
    const seen = Object.fromEntries(sent.map((s) => [new URL(s.url).pathname.slice('/api/'.length), s.method]));
    expect(seen).to.deep.equal(EXPECTED_VERBS);
    for (const [name, verb] of Object.entries(seen))
      expect(verbRegistry.endpoints.routes.get(`/${name}`)?.has(verb as 'GET'), name).to.equal(true);
  });

  it('sends no body without parameters, the value for one, an array for several', async () => {
    const { sent, fetch } = recording(verbs);
    const api = createClient(VerbApi, { baseUrl: `${BASE}//`, codec: json, fetch });
    await api.getItems();
    await api.getItem(18446744073709551615n);
    await api.add(2, 3);
    const text = sent.map((s) => new TextDecoder().decode(s.body));
    expect(text).to.deep.equal(['', '18446744073709551615', '[2,3]']);
    expect(sent.map((s) => s.headers.get('content-type'))).to.deep.equal([
      null,
      'application/json',
      'application/json',
    ]);
    expect(sent[0]!.url).to.equal(`${BASE}/getItems`);
  });

  for (const [codec, accept] of [
    [json, 'application/json'],
    [msgpack, 'application/msgpack, application/json;q=0.5'],
    [cbor, 'application/cbor, application/json;q=0.5'],
  ] as const) {
    it(`asks for ${codec === json ? 'JSON' : `${codec.name} first and JSON second`}: Accept: ${accept}`, async () => {
      const { sent, fetch } = recording(faulty);
      const api = createClient(FaultyApi, { baseUrl: BASE, codec, fetch });
      expect(await api.echo(ITEM)).to.deep.equal({ ...ITEM, weight: Math.fround(0.1) });
      expect(sent[0]!.headers.get('accept')).to.equal(accept);
      expect(sent[0]!.headers.get('content-type')).to.equal(codec.contentTypes[0]);
    });
  }

  it('decodes whichever codec the server chose', async () => {
    const jsonOnly = toFetchHandler('/api', new Registry({ codecs: [json] }).on(new VerbService()).endpoints);
    let answered: string | null = null;
    const api = createClient(VerbApi, {
      baseUrl: BASE,
      codec: cbor,
      fetch: async (r) => {
        const response = await jsonOnly(r);
        answered = response.headers.get('content-type');
        return response;
      },
    });
    expect(await api.getItems()).to.equal('getItems');
    expect(answered).to.equal('application/json');
  });

  describe('errors', () => {
    it('throws HttpError with status, detail, code and path from the problem document', async () => {
      // A client whose contract lacks `name`: the server, reading with errorOnMissingKeys, refuses the body.
      const Partial = t.object({ id: t.u64(), weight: t.f32() });
      const api = createClient(service({ echo: method([Partial], Item) }), {
        baseUrl: BASE,
        codec: msgpack,
        fetch: faulty,
      });
      const error = await rejection(api.echo({ id: 1n, weight: 1 }));
      expect(error).to.be.instanceOf(HttpError);
      expect(error).to.include({
        status: 400,
        code: 'missing_key',
        path: '/name',
        title: 'Bad Request',
        type: 'about:blank',
        detail: "missing required key 'name' at the root",
        message: "missing required key 'name' at the root",
      });
    });

    it('HttpError and InvalidArgument thrown by the service arrive with their status and message', async () => {
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: cbor, fetch: faulty });
      expect(await rejection(api.invalid()))
        .to.be.instanceOf(HttpError)
        .and.include({ status: 400, detail: 'weight must be positive', code: undefined });
      expect(await rejection(api.teapot())).to.include({ status: 418, detail: 'short and stout' });
      expect(await rejection(api.crash())).to.include({
        status: 500,
        detail: 'The server failed to handle the request.',
      });
    });

    it('reads problem documents in CBOR and MessagePack too', async () => {
      for (const codec of [cbor, msgpack]) {
        const answer = problemResponse(
          problem(409, 'taken', { code: 'duplicate' }),
          `application/problem+${codec.name}`,
          [json, codec],
        );
        const api = createClient(FaultyApi, {
          baseUrl: BASE,
          codec,
          fetch: async () =>
            new Response(answer.body as BodyInit, {
              status: answer.status,
              headers: Object.entries(answer.headers).map(([k, v]) => [k, String(v)]),
            }),
        });
        const error = await rejection(api.teapot());
        expect(answer.headers['content-type']).to.equal(`application/problem+${codec.name}`);
        expect(error)
          .to.be.instanceOf(HttpError)
          .and.include({ status: 409, detail: 'taken', code: 'duplicate', title: 'Conflict' });
      }
    });

    it('turns an answer that is not a problem document into an HttpError with its status', async () => {
      const api = createClient(FaultyApi, {
        baseUrl: BASE,
        codec: json,
        fetch: async () =>
          new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
      });
      expect(await rejection(api.teapot()))
        .to.be.instanceOf(HttpError)
        .and.include({ status: 502, detail: '502 Bad Gateway' });
    });

    it('throws ReadError when the answer does not fit the descriptor', async () => {
      const api = createClient(service({ badResult: method([], t.u8()) }), {
        baseUrl: BASE,
        codec: json,
        fetch: async () => new Response('"forty-two"', { headers: { 'content-type': 'application/json' } }),
      });
      expect(await rejection(api.badResult()))
        .to.be.instanceOf(ReadError)
        .and.include({ code: 'type_mismatch' });
    });

    it('reads with its options: errorOnUnknownKeys: false (the default) drops what the client does not know', async () => {
      const Slim = t.object({ id: t.u64(), name: t.string() });
      const contract = service({ echo: method([Item], Slim) });
      const strict = createClient(contract, { baseUrl: BASE, codec: cbor, fetch: faulty, errorOnUnknownKeys: true });
      expect(await rejection(strict.echo(ITEM)))
        .to.be.instanceOf(ReadError)
        .and.include({ code: 'unknown_key', path: '/weight' });
      const lenient = createClient(contract, { baseUrl: BASE, codec: cbor, fetch: faulty, errorOnUnknownKeys: false });
      expect(await lenient.echo(ITEM)).to.deep.equal({ id: ITEM.id, name: 'Ada' });
    });

    it('refuses an answer in a media type it cannot read', async () => {
      const api = createClient(FaultyApi, {
        baseUrl: BASE,
        codec: json,
        fetch: async () => new Response('hi', { headers: { 'content-type': 'text/plain' } }),
      });
      expect(await rejection(api.teapot()))
        .to.be.instanceOf(TypeError)
        .with.property('message')
        .that.includes('text/plain');
    });

    it('throws WriteError for arguments that do not fit, before sending anything', async () => {
      const { sent, fetch } = recording(faulty);
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: msgpack, fetch });
      expect(await rejection(api.echo({ id: -1n, name: 'a', weight: 1 })))
        .to.be.instanceOf(WriteError)
        .and.include({ path: '/id' });
      expect(sent).to.have.length(0);
    });

    it('refuses extra arguments and call options that are not an object', async () => {
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch: faulty }) as unknown as Record<
        string,
        (...a: unknown[]) => Promise<unknown>
      >;
      expect(await rejection(api.slowEcho!(1, {}, 3))).to.be.instanceOf(TypeError);
      expect(await rejection(api.slowEcho!(1, 'fast'))).to.be.instanceOf(TypeError);
    });

    it('refuses a contract or codec that is not one', () => {
      expect(() => createClient({} as never, { baseUrl: BASE, codec: json })).to.throw(TypeError, /contract/);
      expect(() => createClient(FaultyApi, { baseUrl: BASE, codec: {} as never })).to.throw(TypeError, /Codec/);
    });
  });

  describe('headers', () => {
    it("sends the client's headers (static or computed per call) and each call's, keeping Accept its own", async () => {
      const { sent, fetch } = recording(faulty);
      let token = 0;
      const api = createClient(FaultyApi, {
        baseUrl: new URL(BASE),
        codec: cbor,
        fetch,
        headers: async () => ({ authorization: `Bearer ${++token}`, accept: 'text/html' }),
      });
      await api.slowEcho(1);
      await api.slowEcho(2, { headers: { 'x-trace': 'abc', authorization: 'Bearer override' } });
      expect(sent.map((s) => s.headers.get('authorization'))).to.deep.equal(['Bearer 1', 'Bearer override']);
      expect(sent[1]!.headers.get('x-trace')).to.equal('abc');
      expect(sent.map((s) => s.headers.get('accept'))).to.deep.equal(
        Array(2).fill('application/cbor, application/json;q=0.5'),
      );
      const fixed = recording(faulty);
      await createClient(FaultyApi, {
        baseUrl: BASE,
        codec: json,
        fetch: fixed.fetch,
        headers: [['x-app', 'demo']],
      }).slowEcho(3);
      expect(fixed.sent[0]!.headers.get('x-app')).to.equal('demo');
    });
  });

  describe('answers read under maxBytes', () => {
    /** A fetch answering `status` with an 8 MiB body, counting what was pulled and whether it was cancelled. */
    function endlessAnswer(status: number, contentType: string) {
      const state = { pulled: 0, cancelled: false };
      const fetch: FetchFunction = async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              state.pulled += 4096;
              controller.enqueue(new Uint8Array(4096).fill(0x20));
              if (state.pulled >= 8 * 1024 * 1024) controller.close();
            },
            cancel() {
              state.cancelled = true;
            },
          }),
          { status, headers: { 'content-type': contentType } },
        );
      return { state, fetch };
    }
    // A read that does not stop fails the test by mocha's timeout: no deadline of its own for a loaded machine to miss.
    const within = <T>(promise: Promise<T>) => promise;

    it('stops reading an answer once it crosses maxBytes: ReadError limit_exceeded, the rest cancelled', async () => {
      const { state, fetch } = endlessAnswer(200, 'application/json');
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch, maxBytes: 64 * 1024 });
      const error = await within(rejection(api.slowEcho(1)));
      expect(error).to.be.instanceOf(ReadError).and.include({ code: 'limit_exceeded' });
      expect(state.pulled).to.be.at.most(64 * 1024 + 3 * 4096);
      expect(state.cancelled).to.equal(true);
    });

    it('refuses a declared Content-Length over maxBytes without reading', async () => {
      let pulled = 0;
      const fetch: FetchFunction = async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulled++;
              controller.enqueue(new Uint8Array(4096).fill(0x20));
              if (pulled === 2048) controller.close();
            },
          }),
          { headers: { 'content-type': 'application/json', 'content-length': '5000000' } },
        );
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch, maxBytes: 1000 });
      expect(await within(rejection(api.slowEcho(1))))
        .to.be.instanceOf(ReadError)
        .and.include({ code: 'limit_exceeded' });
      expect(pulled).to.be.at.most(1);
    });

    it('reads an error body only so far: an endless one still gives an HttpError with its status', async () => {
      const { state, fetch } = endlessAnswer(500, 'application/problem+json');
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch });
      const error = await within(rejection(api.slowEcho(1)));
      expect(error).to.be.instanceOf(HttpError).and.include({ status: 500 });
      expect(state.pulled).to.be.at.most(DEFAULT_MAX_ERROR_BYTES + 3 * 4096);
      expect(state.cancelled).to.equal(true);
    });

    for (const status of [200, 500]) {
      it(`the signal covers the body: a ${status} answer whose body never ends rejects with its reason, the body cancelled`, async () => {
        let cancelled = false;
        // Headers at once, then one chunk and nothing more; cancel() never settles.
        const fetch: FetchFunction = async () =>
          new Response(
            new ReadableStream<Uint8Array>({
              start(controller) {
                controller.enqueue(new TextEncoder().encode('"par'));
              },
              cancel() {
                cancelled = true;
                return new Promise<void>(() => {});
              },
            }),
            { status, headers: { 'content-type': status === 200 ? 'application/json' : 'application/problem+json' } },
          );
        const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch });
        const controller = new AbortController();
        const call = api.slowEcho(1, { signal: controller.signal });
        setTimeout(() => controller.abort(), 30);
        expect(await within(rejection(call))).to.have.property('name', 'AbortError');
        expect(cancelled).to.equal(true);
      });
    }

    it('a void answer or one in an unreadable media type is dropped without waiting on cancel()', async () => {
      const hanging =
        (contentType: string): FetchFunction =>
        async () =>
          new Response(
            new ReadableStream<Uint8Array>({
              cancel: () => new Promise<void>(() => {}),
            }),
            { status: 200, headers: { 'content-type': contentType } },
          );
      const VoidApi = meta(
        class {
          nothing(): void {}
        },
        service({ nothing: method([], t.void(), { verb: 'POST' }) }),
      );
      const quiet = createClient(VoidApi, { baseUrl: BASE, codec: json, fetch: hanging('application/json') });
      expect(await within(quiet.nothing())).to.equal(undefined);
      const odd = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch: hanging('text/html') });
      expect(await within(rejection(odd.slowEcho(1)))).to.be.instanceOf(TypeError);
    });

    it('reads answers within the limit as before', async () => {
      const api = createClient(FaultyApi, { baseUrl: BASE, codec: json, fetch: faulty, maxBytes: 200 });
      expect(await api.echo(ITEM)).to.deep.equal({ ...ITEM, weight: Math.fround(0.1) });
      expect(await rejection(api.echo({ ...ITEM, name: 'x'.repeat(300) })))
        .to.be.instanceOf(ReadError)
        .and.include({ code: 'limit_exceeded' });
    });
  });

  describe('redirects', () => {
    class Who {
      calls: string[] = [];
      whoami(name: string): string {
        this.calls.push(name);
        return `hello ${name}`;
      }
    }
    const WhoApi = meta(Who, service({ whoami: method([t.string()], t.string()) }));
    const target = new Who();
    const elsewhere = new HttpServer().mount('/api', new Registry().on(target).endpoints);
    const origin = new HttpServer();
    let other = '';
    let here = '';
    origin.post(
      '/moved/:name',
      (req, res) => void res.status(307).header('location', `${other}/api/${req.params.name}`).end(),
    );
    origin.post('/local/:name', (req, res) => void res.status(308).header('location', `/api/${req.params.name}`).end());
    origin.post('/loop/:name', (req, res) => void res.status(307).header('location', `/loop/${req.params.name}`).end());
    origin.mount('/api', new Registry().on(new Who()).endpoints);
    before(async () => {
      other = await listen(elsewhere);
      here = await listen(origin);
    });
    after(() => Promise.all([elsewhere.stop(), origin.stop()]));
    beforeEach(() => (target.calls.length = 0));

    it('refuses a redirect to another origin: nothing is sent there, the call rejects naming it', async () => {
      const api = createClient(WhoApi, { baseUrl: `${here}/moved`, codec: json, headers: { 'x-api-key': 'secret' } });
      const error = await rejection(api.whoami('ada'));
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message)
        .to.include(other)
        .and.match(/another origin/);
      expect(target.calls).to.deep.equal([]);
    });

    it('follows one with allowCrossOriginRedirects: true', async () => {
      const api = createClient(WhoApi, { baseUrl: `${here}/moved`, codec: json, allowCrossOriginRedirects: true });
      expect(await api.whoami('ada')).to.equal('hello ada');
      expect(target.calls).to.deep.equal(['ada']);
    });

    it('follows a redirect within the origin, with its body', async () => {
      const api = createClient(WhoApi, { baseUrl: `${here}/local`, codec: json, headers: { 'x-api-key': 'secret' } });
      expect(await api.whoami('ada')).to.equal('hello ada');
    });

    describe('with a relative baseUrl, as in a page', () => {
      // What a browser provides: Request resolves against the page (undici's global origin), and `location`.
      const ORIGIN = Symbol.for('undici.globalOrigin.1');
      const global = globalThis as Record<PropertyKey, unknown>;
      before(() => {
        global[ORIGIN] = new URL('http://page.example/');
        global.location = { href: 'http://page.example/app/index.html' };
      });
      after(() => {
        delete global[ORIGIN];
        delete global.location;
      });

      it('refuses a redirect the runtime hides (opaqueredirect) instead of failing to parse the URL', async () => {
        // What fetch gives with redirect: 'manual' in a browser; Node cannot make one.
        const opaque = {
          type: 'opaqueredirect',
          status: 0,
          ok: false,
          url: '',
          headers: new Headers(),
          body: null,
        } as unknown as Response;
        const api = createClient(WhoApi, { baseUrl: '/api', codec: json, fetch: async () => opaque });
        const error = await rejection(api.whoami('ada'));
        expect((error as Error).message).to.match(/another origin \(hidden by the runtime\) is refused/);
      });

      it("follows a redirect within the page's origin", async () => {
        const seen: string[] = [];
        const fetch: FetchFunction = async (request) => {
          seen.push(request.url);
          if (seen.length === 1) return new Response(null, { status: 307, headers: { location: '/api2/whoami' } });
          return new Response('"hello ada"', { headers: { 'content-type': 'application/json' } });
        };
        const api = createClient(WhoApi, { baseUrl: '/api', codec: json, fetch });
        expect(await api.whoami('ada')).to.equal('hello ada');
        expect(seen).to.deep.equal(['http://page.example/api/whoami', 'http://page.example/api2/whoami']);
      });
    });

    it(`gives up after DEFAULT_MAX_REDIRECTS (${DEFAULT_MAX_REDIRECTS}) redirects`, async () => {
      const api = createClient(WhoApi, { baseUrl: `${here}/loop`, codec: json });
      expect(((await rejection(api.whoami('ada'))) as Error).message).to.match(/more than 20 redirects/);
    });
  });

  describe('in process, with an AbortSignal', function () {
    this.timeout(3000);
    class Hang {
      hang(): Promise<string> {
        return new Promise(() => {});
      }
    }
    const HangApi = meta(Hang, service({ hang: method([], t.string(), { verb: 'POST' }) }));
    const api = createClient(HangApi, {
      baseUrl: BASE,
      codec: json,
      fetch: toFetchHandler('/api', new Registry().on(new Hang()).endpoints),
    });

    it("rejects with the signal's reason when it aborts, though the handler never answers", async () => {
      const controller = new AbortController();
      const call = api.hang({ signal: controller.signal });
      setTimeout(() => controller.abort(), 20);
      expect(await rejection(call)).to.have.property('name', 'AbortError');
    });

    it('rejects at once when the signal is already aborted, and times out with AbortSignal.timeout', async () => {
      expect(await rejection(api.hang({ signal: AbortSignal.abort() }))).to.have.property('name', 'AbortError');
      expect(await rejection(api.hang({ signal: AbortSignal.timeout(30) }))).to.have.property('name', 'TimeoutError');
    });
  });

  describe('over the network, with an AbortSignal', () => {
    class Gate {
      calls = 0;
      #release: (() => void)[] = [];
      async wait(): Promise<string> {
        this.calls++;
        await new Promise<void>((resolve) => this.#release.push(resolve));
        return 'released';
      }
      releaseAll() {
        for (const r of this.#release.splice(0)) r();
      }
    }
    const GateApi = meta(Gate, service({ wait: method([], t.string(), { verb: 'POST' }) }));
    const gate = new Gate();
    const server = new HttpServer({ drainTimeoutMs: 100 }).mount('/api', new Registry().on(gate).endpoints);
    let api: ReturnType<typeof createClient<typeof GateApi.methods>>;
    before(async () => (api = createClient(GateApi, { baseUrl: `${await listen(server)}/api`, codec: msgpack })));
    after(async () => {
      gate.releaseAll();
      await server.stop();
    });

    it("aborts a call in flight: the promise rejects with the signal's reason", async () => {
      const controller = new AbortController();
      const call = api.wait({ signal: controller.signal });
      while (gate.calls === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      expect(await rejection(call)).to.have.property('name', 'AbortError');
    });

    it('times out with AbortSignal.timeout', async () => {
      expect(await rejection(api.wait({ signal: AbortSignal.timeout(50) }))).to.have.property('name', 'TimeoutError');
    });

    it('does not send a call whose signal is already aborted', async () => {
      const before = gate.calls;
      expect(await rejection(api.wait({ signal: AbortSignal.abort() }))).to.have.property('name', 'AbortError');
      expect(gate.calls).to.equal(before);
    });

    it('resolves when nothing aborts it', async () => {
      const before = gate.calls;
      const call = api.wait({});
      while (gate.calls === before) await new Promise((r) => setTimeout(r, 5));
      gate.releaseAll();
      expect(await call).to.equal('released');
    });
  });
});
