// How stream failures are reported, on both transports: a stream failing after its first item is
// told to onError with the status of its problem frame (not the 200 its answer began with); a
// thrown value whose inspection throws (a Proxy) still ends the stream with a problem frame and a
// report; a client that goes away is no fault of the server: a server stream's is not reported, a
// call whose client left before its answer (an upload abandoned) is reported as 499, which the
// default loggers do not write.
import { expect } from 'chai';
import { request } from 'node:http';
import { HttpError, Registry, meta, method, service, t, type Call, type ErrorContext } from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Item = t.object({ n: t.u32() });

/** A value whose every inspection throws. */
const hostile = () =>
  new Proxy(
    {},
    new Proxy(
      {},
      {
        get: () => () => {
          throw new Error('trapped');
        },
      },
    ),
  );

class Failing {
  started = 0;
  finished = 0;
  async *failPlainly(): AsyncIterable<{ n: number }> {
    yield { n: 0 };
    throw new Error('the vault key is swordfish');
  }
  async *failConflict(): AsyncIterable<{ n: number }> {
    yield { n: 0 };
    throw new HttpError(409, 'stale');
  }
  async *failHostile(): AsyncIterable<{ n: number }> {
    yield { n: 0 };
    throw hostile();
  }
  /** One item, then waits for its signal and rethrows its reason, as a method passing it on does. */
  async *waitForLeave(call: Call): AsyncIterable<{ n: number }> {
    this.started++;
    try {
      yield { n: 0 };
      await new Promise((_resolve, reject) =>
        call.signal.addEventListener('abort', () => reject(call.signal.reason as Error), { once: true }),
      );
    } finally {
      this.finished++;
    }
  }
  async importRows(rows: AsyncIterable<{ n: number }>): Promise<number> {
    this.started++;
    let count = 0;
    try {
      for await (const _ of rows) count++;
    } finally {
      this.finished++;
    }
    return count;
  }
}
meta(
  Failing,
  service({
    failPlainly: method([], t.stream(Item), { verb: 'GET' }),
    failConflict: method([], t.stream(Item), { verb: 'GET' }),
    failHostile: method([], t.stream(Item), { verb: 'GET' }),
    waitForLeave: method([], t.stream(Item), { verb: 'GET' }),
    importRows: method([t.stream(Item)], t.u32()),
  }),
);

const until = async (what: string, done: () => boolean, ms = 5000) => {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const lines = (text: string) => text.split('\n');

for (const transport of TRANSPORTS) {
  describe(`transports: reports of stream failures (${transport.kind})`, () => {
    let served: Served | undefined;
    let failing: Failing;
    let reports: ErrorContext[];
    let logged: unknown[][];
    const consoleError = console.error;
    const serve = async (withOnError: boolean) => {
      failing = new Failing();
      reports = [];
      const options = withOnError
        ? { onError: (_e: unknown, context: ErrorContext) => void reports.push(context) }
        : {};
      served = await transport.serve('/api', new Registry(options).on(failing).endpoints);
      return `${served.url}/api`;
    };
    beforeEach(() => {
      logged = [];
      console.error = (...args: unknown[]) => void logged.push(args);
    });
    afterEach(async () => {
      console.error = consoleError;
      await served?.stop();
      served = undefined;
    });

    it("reports a stream failing after its first item with its problem frame's status", async () => {
      const base = await serve(true);
      const plain = await send(`${base}/failPlainly`, { headers: { accept: 'application/jsonl' } });
      expect(JSON.parse(lines(plain.text)[2]!)).to.include({ status: 500 });
      const conflict = await send(`${base}/failConflict`, { headers: { accept: 'application/jsonl' } });
      expect(JSON.parse(lines(conflict.text)[2]!)).to.include({ status: 409 });
      expect(reports.map((r) => [r.method, r.status])).to.deep.equal([
        ['failPlainly', 500],
        ['failConflict', 409],
      ]);
    });

    it('logs a stream failing after its first item with the default onError', async () => {
      const base = await serve(false);
      await send(`${base}/failPlainly`, { headers: { accept: 'application/jsonl' } });
      expect(logged).to.have.length(1);
      expect(String(logged[0]![0])).to.match(/^lacquer: Failing\.failPlainly failed \(500, request [^)]+\)/);
    });

    it('ends a stream with a 500 problem frame and a report when what was thrown cannot be inspected', async () => {
      const base = await serve(true);
      const reply = await send(`${base}/failHostile`, { headers: { accept: 'application/jsonl' } });
      const [item, blank, problem, ...rest] = lines(reply.text);
      expect(JSON.parse(item!)).to.deep.equal({ n: 0 });
      expect(blank).to.equal('');
      expect(JSON.parse(problem!)).to.include({ status: 500 });
      expect(rest).to.deep.equal(['']);
      expect(reports.map((r) => r.status)).to.deep.equal([500]);
    });

    it("does not report a server stream whose client left, even when the method rethrows its signal's reason", async () => {
      const base = await serve(true);
      await new Promise<void>((resolve, reject) => {
        const req = request(
          `${base}/waitForLeave`,
          { headers: { accept: 'application/jsonl' }, agent: false },
          (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          },
        );
        req.on('error', reject).end();
      });
      await until("the method's finally", () => failing.finished === 1);
      expect(reports).to.deep.equal([]);
    });

    it('reports an upload its client abandoned as 499 (client closed), which the default onError does not log', async () => {
      for (const withOnError of [true, false]) {
        const base = await serve(withOnError);
        const req = request(`${base}/importRows`, {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/jsonl', 'transfer-encoding': 'chunked' },
        });
        req.on('error', () => {});
        req.write('{"n":1}\n{"n":2}\n');
        await until('the method reading', () => failing.started === 1);
        req.destroy();
        await until("the method's finally", () => failing.finished === 1);
        if (withOnError) await until('the report', () => reports.length === 1);
        expect(reports.map((r) => r.status)).to.deep.equal(withOnError ? [499] : []);
        await served!.stop();
        served = undefined;
      }
      expect(logged).to.deep.equal([]);
    });
  });
}
