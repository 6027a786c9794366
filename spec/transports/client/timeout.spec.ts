// `timeoutMs` of the typed client: per call and client-wide, over every attempt and the reading
// of the answer, against hand-made servers that hang.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { json } from '../../../codecs/json/index.ts';
import { method, service, t } from '../../../index.ts';
import { createClient, type ClientOptions } from '../../../transports/client/index.ts';
import { answer, failingServer, hang, type FailingServer, type Step } from '../../support/failing-server.ts';

const Api = service({
  getItem: method({ id: t.u32() }, t.string()), // GET
  listItems: method({}, t.stream(t.u32())), // GET, a stream answer
});

const root = fileURLToPath(new URL('../../..', import.meta.url));
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );

/** Sends the headers and the beginning of a body, and never the rest. */
const halfAnswer: Step = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('"never fin');
};

describe('transports/client timeoutMs', () => {
  let server: FailingServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  async function against(steps: Step[], options: Partial<ClientOptions> = {}) {
    server = await failingServer(steps);
    return createClient(Api, { baseUrl: server.url, codec: json, ...options });
  }

  it('rejects a call that hangs with a TimeoutError naming the method and the time, and aborts the request', async () => {
    const api = await against([hang]);
    // The server never answers: only the timeout ends the call (else mocha's timeout fails the test).
    const error = await rejection(api.getItem({ id: 1 }, { timeoutMs: 300 }));
    expect(error).to.have.property('name', 'TimeoutError');
    expect(error).to.have.property('message', 'lacquer/client: getItem() took longer than its timeoutMs (300 ms)');
    // The server sees the connection close: the request was aborted, not left behind.
    await server!.seen[0]!.closed;
  });

  it('covers the reading of the answer: a body that never ends times out', async () => {
    const api = await against([halfAnswer]);
    const error = await rejection(api.getItem({ id: 1 }, { timeoutMs: 300 }));
    expect(error).to.have.property('name', 'TimeoutError');
    await server!.seen[0]!.closed;
  });

  it('covers every attempt and the waits between them', async () => {
    const api = await against([answer(503, { 'retry-after': '10' }), answer(200)], {
      retry: { baseDelayMs: 1, maxDelayMs: 10_000 },
    });
    // Without the timeout, the retry after 10 s would be answered 200.
    const error = await rejection(api.getItem({ id: 1 }, { timeoutMs: 300 }));
    expect(error).to.have.property('name', 'TimeoutError');
    expect(server!.seen).to.have.length(1);
  });

  it("a client-wide timeoutMs applies to every call; a call's own replaces it, and 0 lifts it", async () => {
    const api = await against([hang, answer(200)], { timeoutMs: 100 });
    expect(await rejection(api.getItem({ id: 1 })))
      .to.have.property('message')
      .that.matches(/100 ms/);
    await server!.close();
    const slow: Step = (req, res) => setTimeout(() => answer(200)(req, res), 250);
    const again = await against([slow], { timeoutMs: 100 });
    expect(await rejection(again.getItem({ id: 1 }, { timeoutMs: 150 })))
      .to.have.property('message')
      .that.matches(/150 ms/);
    expect(await again.getItem({ id: 1 }, { timeoutMs: 0 })).to.equal('ok');
    expect(await again.getItem({ id: 1 }, { timeoutMs: 5000 })).to.equal('ok');
  });

  it("the caller's signal still aborts with its own reason", async () => {
    const api = await against([hang], { timeoutMs: 5000 });
    const controller = new AbortController();
    const reason = new Error('navigated away');
    setTimeout(() => controller.abort(reason), 50);
    expect(await rejection(api.getItem({ id: 1 }, { signal: controller.signal }))).to.equal(reason);
  });

  it('a call answered in time leaves no timer behind: the process exits without waiting for timeoutMs', function () {
    // Bounds far from the 60 s a timer left behind would hold the process, on a loaded machine too.
    this.timeout(60_000);
    const script = `
      import { json } from './codecs/json/index.ts';
      import { method, service, t } from './index.ts';
      import { createClient } from './transports/client/index.ts';
      const fetch = async () => new Response('"ok"', { headers: { 'content-type': 'application/json' } });
      const api = createClient(service({ getItem: method([], t.string()) }), { baseUrl: 'http://in-process', codec: json, fetch, timeoutMs: 60000 });
      console.log(await api.getItem(), await api.getItem({ timeoutMs: 30000 }));
    `;
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.stderr).to.equal('');
    expect(run.stdout.trim()).to.equal('ok ok');
    expect(performance.now() - started).to.be.below(50_000);
  });

  describe('a stream answer', () => {
    /** Answers the stream's headers at once, then one item after `ms`, then its end. */
    const slowItems =
      (ms: number): Step =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/jsonl' });
        res.flushHeaders();
        setTimeout(() => res.end('1\n\n\n'), ms);
      };

    it('times out while the stream has not begun', async () => {
      const api = await against([hang]);
      expect(await rejection(api.listItems({}, { timeoutMs: 100 }))).to.have.property('name', 'TimeoutError');
    });

    it("is read at the caller's pace once it has begun: the items come after timeoutMs", async () => {
      const api = await against([slowItems(800)]);
      const items: number[] = [];
      for await (const n of await api.listItems({}, { timeoutMs: 300 })) items.push(n);
      expect(items).to.deep.equal([1]);
    });
  });

  it('refuses a timeoutMs that is not a number of milliseconds a timer keeps', async () => {
    const base = { baseUrl: 'http://localhost', codec: json };
    const api = createClient(Api, {
      ...base,
      fetch: async () => new Response('"ok"', { headers: { 'content-type': 'application/json' } }),
    });
    for (const [timeoutMs, type] of [
      [-1, RangeError],
      [Number.NaN, RangeError],
      [Infinity, RangeError],
      [2 ** 31, RangeError],
      ['100', TypeError],
    ] as const) {
      expect(() => createClient(Api, { ...base, timeoutMs: timeoutMs as never }), String(timeoutMs)).to.throw(
        type,
        /options\.timeoutMs/,
      );
      const error = await rejection(api.getItem({ id: 1 }, { timeoutMs: timeoutMs as never }));
      expect(error, String(timeoutMs))
        .to.be.instanceOf(type)
        .with.property('message')
        .that.matches(/getItem\(\): timeoutMs/);
    }
  });
});
