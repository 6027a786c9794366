// Retries of the typed client against hand-made failing servers: which calls and answers are
// retried, the waits between attempts (Retry-After, backoff), and what stops them.
import { expect } from 'chai';
import { json } from '../../../codecs/json/index.ts';
import { HttpError, Registry, meta, method, service, t } from '../../../index.ts';
import {
  DEFAULT_RETRY_ATTEMPTS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  createClient,
  type ClientInterceptor,
  type ClientOptions,
  type FetchFunction,
} from '../../../transports/client/index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { answer, drop, failingServer, hang, type FailingServer, type Step } from '../../support/failing-server.ts';

const Api = service({
  getItem: method({ id: t.u32() }, t.string()), // GET
  updateItem: method([t.string()], t.string()), // PUT
  deleteItem: method([t.u32()], t.string()), // DELETE
  addItem: method([t.string()], t.string()), // POST
  addItemOnce: method([t.string()], t.string(), { idempotent: true }), // POST, said to be idempotent
  replaceItem: method([t.string()], t.string(), { verb: 'PUT', idempotent: false }),
  listItems: method({}, t.stream(t.u32())), // GET, a stream answer
  uploadItems: method([t.stream(t.u32())], t.u32(), { verb: 'PUT' }), // a stream body
});

class Items {
  getItem() {
    return 'ok';
  }
  updateItem() {
    return 'ok';
  }
  deleteItem() {
    return 'ok';
  }
  addItem() {
    return 'ok';
  }
  addItemOnce() {
    return 'ok';
  }
  replaceItem() {
    return 'ok';
  }
  async *listItems() {
    yield* [1, 2, 3];
  }
  async uploadItems(items: AsyncIterable<number>) {
    let sum = 0;
    for await (const n of items) sum += n;
    return sum;
  }
}
meta(Items, Api);

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );
const FAST = { baseDelayMs: 1, maxDelayMs: 10 };
/** Resolves once `done()` holds, looking every few milliseconds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('transports/client retries', () => {
  let server: FailingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  /** A client of `Api` against a node:http server answering with `steps` in turn. */
  async function against(steps: Step[], options: Partial<ClientOptions> = { retry: FAST }) {
    server = await failingServer(steps);
    return createClient(Api, { baseUrl: server.url, codec: json, ...options });
  }

  it('retries a GET answered 503, then resolves with the next answer', async () => {
    const api = await against([answer(503), answer(200)]);
    expect(await api.getItem({ id: 7 })).to.equal('ok');
    expect(server!.seen.map((s) => `${s.method} ${s.url}`)).to.deep.equal(['GET /getItem?id=7', 'GET /getItem?id=7']);
  });

  for (const status of [408, 429, 502, 503, 504]) {
    it(`retries after ${status}`, async () => {
      const api = await against([answer(status), answer(200)]);
      expect(await api.getItem({ id: 1 })).to.equal('ok');
      expect(server!.seen).to.have.length(2);
    });
  }

  for (const status of [400, 404, 500, 501]) {
    it(`does not retry after ${status}: the call rejects with its HttpError`, async () => {
      const api = await against([answer(status), answer(200)]);
      expect(await rejection(api.getItem({ id: 1 })))
        .to.be.instanceOf(HttpError)
        .with.property('status', status);
      expect(server!.seen).to.have.length(1);
    });
  }

  it('retries after the server destroys the socket (a network error)', async () => {
    const api = await against([drop, answer(200)]);
    expect(await api.getItem({ id: 1 })).to.equal('ok');
    expect(server!.seen).to.have.length(2);
  });

  it('retries PUT and DELETE, sending the same body again', async () => {
    const api = await against([answer(503), drop, answer(200)]);
    expect(await api.updateItem('the body')).to.equal('ok');
    expect(server!.seen.map((s) => `${s.method} ${s.body}`)).to.deep.equal([
      'PUT "the body"',
      'PUT "the body"',
      'PUT "the body"',
    ]);
    await server!.close();
    const del = await against([answer(502), answer(200)]);
    expect(await del.deleteItem(5)).to.equal('ok');
    expect(server!.seen.map((s) => s.method)).to.deep.equal(['DELETE', 'DELETE']);
  });

  it('never retries a POST: not after a retryable status, not after a dropped socket', async () => {
    const api = await against([answer(503), answer(200)]);
    expect(await rejection(api.addItem('x')))
      .to.be.instanceOf(HttpError)
      .with.property('status', 503);
    expect(server!.seen).to.have.length(1);
    await server!.close();
    const dropped = await against([drop, answer(200)]);
    expect(await rejection(dropped.addItem('x'))).to.be.instanceOf(TypeError);
    expect(server!.seen).to.have.length(1);
  });

  it('retries a POST whose method says idempotent: true, with its body each time', async () => {
    const api = await against([drop, answer(503), answer(200)]);
    expect(await api.addItemOnce('once')).to.equal('ok');
    expect(server!.seen.map((s) => `${s.method} ${s.body}`)).to.deep.equal([
      'POST "once"',
      'POST "once"',
      'POST "once"',
    ]);
  });

  it('does not retry a PUT whose method says idempotent: false', async () => {
    const api = await against([answer(503), answer(200)]);
    expect(await rejection(api.replaceItem('x')))
      .to.be.instanceOf(HttpError)
      .with.property('status', 503);
    expect(server!.seen).to.have.length(1);
  });

  it('retries nothing without the retry option', async () => {
    const api = await against([answer(503), answer(200)], {});
    expect(await rejection(api.getItem({ id: 1 })))
      .to.be.instanceOf(HttpError)
      .with.property('status', 503);
    expect(server!.seen).to.have.length(1);
  });

  describe('attempts exhausted', () => {
    it(`makes ${DEFAULT_RETRY_ATTEMPTS} attempts in all by default, then rejects with the last answer's HttpError`, async () => {
      const api = await against([answer(503, {}, '{"detail":"still down"}')], { retry: { baseDelayMs: 1 } });
      const error = await rejection(api.getItem({ id: 1 }));
      expect(error).to.be.instanceOf(HttpError).with.property('detail', 'still down');
      expect(server!.seen).to.have.length(DEFAULT_RETRY_ATTEMPTS);
    });

    it('rejects with the last error: a network error after retryable answers', async () => {
      const api = await against([answer(503), answer(502), drop, answer(200)], { retry: { ...FAST, attempts: 3 } });
      expect(await rejection(api.getItem({ id: 1 }))).to.be.instanceOf(TypeError);
      expect(server!.seen).to.have.length(3);
    });

    it('rejects with the last error: a retryable answer after network errors', async () => {
      const api = await against([drop, drop, answer(504), answer(200)], { retry: { ...FAST, attempts: 3 } });
      expect(await rejection(api.getItem({ id: 1 })))
        .to.be.instanceOf(HttpError)
        .with.property('status', 504);
      expect(server!.seen).to.have.length(3);
    });

    it('attempts: 1 sends once', async () => {
      const api = await against([answer(503), answer(200)], { retry: { attempts: 1 } });
      expect(await rejection(api.getItem({ id: 1 })))
        .to.be.instanceOf(HttpError)
        .with.property('status', 503);
      expect(server!.seen).to.have.length(1);
    });
  });

  describe('the wait between attempts', () => {
    it('honours Retry-After in seconds: 429 with Retry-After: 1 waits a second before the next attempt', async function () {
      this.timeout(30_000);
      const api = await against([answer(429, { 'retry-after': '1' }), answer(200)], {
        retry: { baseDelayMs: 1, maxDelayMs: 20_000 },
      });
      expect(await api.getItem({ id: 1 })).to.equal('ok');
      const [first, second] = server!.seen;
      // At least the second asked for; the upper bound only tells it from maxDelayMs, far off.
      expect(second!.at - first!.at)
        .to.be.at.least(950)
        .and.below(15_000);
    });

    it('honours Retry-After as an HTTP date', async function () {
      this.timeout(30_000);
      // Whole seconds on the wire: at least half a second after the answer.
      const later: Step = (req, res) =>
        answer(503, { 'retry-after': new Date(Date.now() + 1500).toUTCString() })(req, res);
      const api = await against([later, answer(200)], { retry: { baseDelayMs: 1, maxDelayMs: 20_000 } });
      expect(await api.getItem({ id: 1 })).to.equal('ok');
      const [first, second] = server!.seen;
      expect(second!.at - first!.at)
        .to.be.at.least(400)
        .and.below(15_000);
    });

    it('does not ask again sooner than a Retry-After longer than maxDelayMs: that answer stands', async () => {
      const api = await against([answer(503, { 'retry-after': '30' }), answer(200)], {
        retry: { baseDelayMs: 1, maxDelayMs: 20 },
      });
      // Had it waited the 30 s, the next attempt would have been answered 200.
      const error = await api.getItem({ id: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(HttpError);
      expect((error as HttpError).status).to.equal(503);
    });

    it("does not retry what an interceptor throws, even a TypeError: only fetch's own network errors", async () => {
      let sent = 0;
      const failing: ClientInterceptor = async (request, next) => {
        sent++;
        if (sent === 1) throw new TypeError('a bug in an interceptor');
        return next(request);
      };
      const api = await against([answer(200)], { retry: FAST, interceptors: [failing] });
      const error = await api.getItem({ id: 1 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(TypeError);
      expect(sent).to.equal(1);
    });

    it('backs off exponentially from baseDelayMs (full jitter: a random part of it), capped by maxDelayMs', async function () {
      this.timeout(30_000);
      const random = Math.random;
      Math.random = () => 0.999; // the top of each jittered range
      try {
        const api = await against([answer(503), answer(503), answer(503), answer(200)], {
          retry: { attempts: 4, baseDelayMs: 60, maxDelayMs: 150 },
        });
        expect(await api.getItem({ id: 1 })).to.equal('ok');
      } finally {
        Math.random = random;
      }
      const at = server!.seen.map((s) => s.at);
      const gaps = at.slice(1).map((a, i) => a - at[i]!);
      // 60, 120, then 240 capped at 150 (each at least 0.9 of it: the jitter's 0.999 and the clock's rounding).
      expect(gaps[0]).to.be.at.least(54);
      expect(gaps[1]).to.be.at.least(108);
      expect(gaps[2]).to.be.at.least(135);
      await server!.close();
      // Uncapped, these waits would be 2 s and 4 s.
      Math.random = () => 0.999;
      try {
        const capped = await against([answer(503), answer(503), answer(200)], {
          retry: { attempts: 3, baseDelayMs: 2000, maxDelayMs: 20 },
        });
        const started = performance.now();
        expect(await capped.getItem({ id: 1 })).to.equal('ok');
        // Two waits of 20 ms; uncapped, 6 s: the bound tells them apart on a loaded machine too.
        expect(performance.now() - started).to.be.below(5_000);
      } finally {
        Math.random = random;
      }
    });
  });

  describe('with a signal', () => {
    it('stops retrying when the signal aborts during a wait: the call rejects at once with its reason', async () => {
      const api = await against([answer(503, { 'retry-after': '10' }), answer(200)], {
        retry: { baseDelayMs: 1, maxDelayMs: 10_000 },
      });
      const controller = new AbortController();
      const reason = new Error('the user left');
      const call = api.getItem({ id: 1 }, { signal: controller.signal });
      await until(() => server!.seen.length === 1);
      setTimeout(() => controller.abort(reason), 50); // the 503 answered: the client waits its 10 s
      // Had the wait gone on, the second attempt would have been answered 200.
      expect(await rejection(call)).to.equal(reason);
      expect(server!.seen).to.have.length(1);
    });

    it('does not retry a request the signal aborted in flight', async () => {
      const api = await against([hang, answer(200)]);
      const controller = new AbortController();
      const call = api.getItem({ id: 1 }, { signal: controller.signal });
      await until(() => server!.seen.length === 1);
      controller.abort();
      expect(await rejection(call)).to.have.property('name', 'AbortError');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server!.seen).to.have.length(1);
    });
  });

  describe('streams', () => {
    const handler = toFetchHandler('', new Registry({ onError: () => {} }).on(new Items()).endpoints);
    /** A fetch answering the first requests with `first`, then the registry in process; counting them. */
    function fetchAfter(first: Response[]) {
      const requests: string[] = [];
      const fetch: FetchFunction = async (request) => {
        requests.push(`${request.method} ${await request.clone().text()}`);
        return first.shift() ?? handler(request);
      };
      return { requests, fetch };
    }

    it('retries a stream answer refused before it begins', async () => {
      const { requests, fetch } = fetchAfter([new Response(null, { status: 503 })]);
      const api = createClient(Api, { baseUrl: 'http://in-process', codec: json, fetch, retry: FAST });
      const items: number[] = [];
      for await (const n of await api.listItems()) items.push(n);
      expect(items).to.deep.equal([1, 2, 3]);
      expect(requests).to.have.length(2);
    });

    it('never retries a stream cut after it began', async () => {
      let pulls = 0;
      const cut = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('1\n'));
          else controller.error(new TypeError('the connection broke'));
        },
      });
      const { requests, fetch } = fetchAfter([new Response(cut, { headers: { 'content-type': 'application/jsonl' } })]);
      const api = createClient(Api, { baseUrl: 'http://in-process', codec: json, fetch, retry: FAST });
      const items: number[] = [];
      const error = await rejection(
        (async () => {
          for await (const n of await api.listItems()) items.push(n);
        })(),
      );
      expect(error).to.be.instanceOf(Error);
      expect(items).to.deep.equal([1]);
      expect(requests).to.have.length(1);
    });

    it('retries a stream body given as an array (bytes), never one given as an AsyncIterable', async () => {
      const arrayCall = fetchAfter([new Response(null, { status: 503 })]);
      const api = createClient(Api, { baseUrl: 'http://in-process', codec: json, fetch: arrayCall.fetch, retry: FAST });
      expect(await api.uploadItems([1, 2, 3])).to.equal(6);
      expect(arrayCall.requests).to.deep.equal(['PUT 1\n2\n3\n\n\n', 'PUT 1\n2\n3\n\n\n']);

      const iterableCall = fetchAfter([new Response(null, { status: 503 })]);
      const streaming = createClient(Api, {
        baseUrl: 'http://in-process',
        codec: json,
        fetch: iterableCall.fetch,
        retry: FAST,
      });
      async function* items() {
        yield* [1, 2, 3];
      }
      expect(await rejection(streaming.uploadItems(items())))
        .to.be.instanceOf(HttpError)
        .with.property('status', 503);
      expect(iterableCall.requests).to.have.length(1);
    });
  });

  describe('options', () => {
    const base = { baseUrl: 'http://localhost', codec: json };

    it(`defaults: ${DEFAULT_RETRY_ATTEMPTS} attempts, ${DEFAULT_RETRY_BASE_DELAY_MS} ms base delay, ${DEFAULT_RETRY_MAX_DELAY_MS} ms at most`, () => {
      expect([DEFAULT_RETRY_ATTEMPTS, DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS]).to.deep.equal([
        3, 100, 5000,
      ]);
    });

    it('refuses a retry option that is not an object, and values out of range', () => {
      for (const retry of [true, 3, 'yes', null]) {
        expect(() => createClient(Api, { ...base, retry: retry as never }), String(retry)).to.throw(TypeError, /retry/);
      }
      for (const attempts of [0, -1, 1.5, Number.NaN, Infinity]) {
        expect(() => createClient(Api, { ...base, retry: { attempts } }), String(attempts)).to.throw(
          RangeError,
          /attempts/,
        );
      }
      expect(() => createClient(Api, { ...base, retry: { attempts: '3' as never } })).to.throw(TypeError, /attempts/);
      for (const key of ['baseDelayMs', 'maxDelayMs'] as const) {
        for (const ms of [-1, Number.NaN, Infinity, 2 ** 31]) {
          expect(() => createClient(Api, { ...base, retry: { [key]: ms } }), `${key} ${String(ms)}`).to.throw(
            RangeError,
            new RegExp(key),
          );
        }
        expect(() => createClient(Api, { ...base, retry: { [key]: '10' as never } }), key).to.throw(
          TypeError,
          new RegExp(key),
        );
      }
    });

    it('method(..., { idempotent }) takes a boolean, and the contract keeps it', () => {
      expect(Api.methods.addItemOnce.idempotent).to.equal(true);
      expect(Api.methods.replaceItem.idempotent).to.equal(false);
      expect(Api.methods.addItem.idempotent).to.equal(undefined);
      expect(() => method([], t.void(), { idempotent: 'yes' as never })).to.throw(
        TypeError,
        /idempotent must be a boolean/,
      );
    });
  });
});
