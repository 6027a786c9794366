// Many streams open at once on one server, on both transports: no listener piles up on anything
// they share (Node warns with MaxListenersExceededWarning past 10 on one signal or emitter).
import { expect } from 'chai';
import { request, type ClientRequest } from 'node:http';
import { json } from '../../../codecs/json/index.ts';
import { Registry, meta, method, service, t, type Call } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import { TRANSPORTS } from '../both-transports.ts';

class Quiet {
  waiting = 0;
  finished = 0;
  /** One item, then nothing until its call's signal aborts. */
  async *listQuietly(call: Call): AsyncIterable<{ n: number }> {
    try {
      yield { n: 0 };
      this.waiting++;
      await new Promise<void>((resolve) => call.signal.addEventListener('abort', () => resolve(), { once: true }));
    } finally {
      this.finished++;
    }
  }
}
const QuietApi = service({ listQuietly: method([], t.stream(t.object({ n: t.u32() }))) });
meta(Quiet, QuietApi);

const until = async (what: string, done: () => boolean, ms = 10_000) => {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const STREAMS = 50;

for (const transport of TRANSPORTS) {
  describe(`transports: ${STREAMS} streams open at once (${transport.kind})`, () => {
    it('print no MaxListenersExceededWarning', async () => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => void warnings.push(warning);
      process.on('warning', onWarning);
      const quiet = new Quiet();
      const served = await transport.serve('/api', new Registry({ onError: () => {} }).on(quiet).endpoints);
      const requests: ClientRequest[] = [];
      try {
        for (let i = 0; i < STREAMS; i++) {
          const req = request(
            `${served.url}/api/listQuietly`,
            { headers: { accept: 'text/event-stream' }, agent: false },
            (res) => res.resume(),
          );
          req.on('error', () => {}).end();
          requests.push(req);
        }
        await until('every stream waiting after its item', () => quiet.waiting === STREAMS);
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).to.deep.equal(
          [],
        );
      } finally {
        for (const req of requests) req.destroy();
        await until('every stream finished', () => quiet.finished === STREAMS);
        process.off('warning', onWarning);
        await served.stop();
      }
    });

    it('print no MaxListenersExceededWarning when the typed client reads them with one signal', async () => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => void warnings.push(warning);
      process.on('warning', onWarning);
      const quiet = new Quiet();
      const served = await transport.serve('/api', new Registry({ onError: () => {} }).on(quiet).endpoints);
      const api = createClient(QuietApi, { baseUrl: `${served.url}/api`, codec: json });
      const controller = new AbortController();
      try {
        const streams = await Promise.all(
          Array.from({ length: STREAMS }, () => api.listQuietly({ signal: controller.signal })),
        );
        const loops = streams.map(async (stream) => {
          for await (const _ of stream) {
            /* one item, then the wait */
          }
        });
        await until('every stream waiting after its item', () => quiet.waiting === STREAMS);
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).to.deep.equal(
          [],
        );
        controller.abort();
        const outcomes = await Promise.allSettled(loops);
        expect(outcomes.every((o) => o.status === 'rejected')).to.equal(true);
      } finally {
        controller.abort();
        await until('every stream finished', () => quiet.finished === STREAMS);
        process.off('warning', onWarning);
        await served.stop();
      }
    });
  });
}
