// Per-method time limits on both transports: `method(..., { timeoutMs })` in place of the
// transport's `handlerTimeoutMs`, shorter and longer, with the 503 problem and `call.signal`
// aborted as for the transport's own limit.
import { expect } from 'chai';
import { Registry, meta, method, service, t, type Call } from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Waits = service({
  // Each waits `ms`, or until its signal aborts.
  quick: method({ ms: t.u32() }, t.string(), { route: 'GET /quick', timeoutMs: 100 }),
  patient: method({ ms: t.u32() }, t.string(), { route: 'GET /patient', timeoutMs: 2_000 }),
  unlimited: method({ ms: t.u32() }, t.string(), { route: 'GET /unlimited', timeoutMs: 0 }),
  plain: method({ ms: t.u32() }, t.string(), { route: 'GET /plain' }),
});

class WaitsImpl {
  readonly aborted: string[] = [];
  /** Told when a call starts waiting. */
  onStart: (() => void) | undefined;
  quick({ ms }: { ms: number }, call: Call) {
    return this.#wait(ms, call);
  }
  patient({ ms }: { ms: number }, call: Call) {
    return this.#wait(ms, call);
  }
  unlimited({ ms }: { ms: number }, call: Call) {
    return this.#wait(ms, call);
  }
  plain({ ms }: { ms: number }, call: Call) {
    return this.#wait(ms, call);
  }
  #wait(ms: number, call: Call): Promise<string> {
    this.onStart?.();
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(`waited ${ms}`), ms);
      call.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        this.aborted.push(`${call.method}: ${(call.signal.reason as Error).name}`);
        resolve('too late');
      });
    });
  }
}
meta(WaitsImpl, Waits);

for (const transport of TRANSPORTS) {
  describe(`transports: per-method time limits (${transport.kind})`, () => {
    let served: Served;
    let impl: WaitsImpl;
    const get = (path: string) => send(`${served.url}/api${path}`);
    afterEach(() => served.stop());

    describe('under a transport limit of 500 ms', () => {
      beforeEach(async () => {
        impl = new WaitsImpl();
        served = await transport.serve('/api', new Registry({ onError: () => {} }).on(impl).endpoints, {
          handlerTimeoutMs: 500,
          onError: () => {},
        });
      });

      it("answers 503 at a shorter own limit, naming it, and aborts the call's signal", async () => {
        const reply = await get('/quick?ms=2000');
        expect(reply.status).to.equal(503);
        // The own limit fired, not the transport's (whose 503 would say 500 ms).
        expect(reply.json().detail).to.equal('the handler did not answer within 100 ms');
        expect(impl.aborted).to.deep.equal(['quick: TimeoutError']);
      });

      it("lets a method with a longer own limit run past the transport's", async () => {
        const reply = await get('/patient?ms=800');
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.json()).to.equal('waited 800');
        expect(impl.aborted).to.deep.equal([]);
      });

      it("keeps the transport's limit for a method without its own", async () => {
        const reply = await get('/plain?ms=2000');
        expect(reply.status).to.equal(503);
        expect(reply.json().detail).to.equal('the handler did not answer within 500 ms');
      });

      it('gives no limit to a method whose own is 0', async () => {
        const reply = await get('/unlimited?ms=800');
        expect(reply.status).to.equal(200);
      });

      it('times out calls of different limits in flight together, each at its own', async () => {
        const [quick, plain, patient] = await Promise.all([
          get('/quick?ms=2000'),
          get('/plain?ms=2000'),
          get('/patient?ms=700'),
        ]);
        expect([quick.status, plain.status, patient.status]).to.deep.equal([503, 503, 200]);
        expect(impl.aborted).to.have.members(['quick: TimeoutError', 'plain: TimeoutError']);
      });
    });

    describe('under a transport without a limit (handlerTimeoutMs 0)', () => {
      beforeEach(async () => {
        impl = new WaitsImpl();
        served = await transport.serve('/api', new Registry({ onError: () => {} }).on(impl).endpoints, {
          handlerTimeoutMs: 0,
          onError: () => {},
        });
      });

      it('still holds a method to its own limit', async () => {
        const reply = await get('/quick?ms=2000');
        expect(reply.status).to.equal(503);
        expect((await get('/plain?ms=300')).status).to.equal(200);
      });
    });
  });
}

describe('HttpServer: shutdown and per-method time limits', () => {
  it('stop() answers 503 to a call with a time limit of its own that outlives drainTimeoutMs', async () => {
    const impl = new WaitsImpl();
    const server = new HttpServer({ drainTimeoutMs: 50, onError: () => {} }).mount(
      '/api',
      new Registry({ onError: () => {} }).on(impl).endpoints,
    );
    await server.bind(0).start();
    const started = new Promise<void>((resolve) => (impl.onStart = resolve));
    const pending = send(`${server.url}/api/patient?ms=1500`);
    await started;
    await server.stop();
    const reply = await pending;
    // Answered at drainTimeoutMs, not when the method would have answered (200).
    expect(reply.status).to.equal(503);
    expect(reply.json().detail).to.equal('the server is shutting down and the call did not finish in time');
  });
});

describe('method(): timeoutMs', () => {
  it('refuses a negative or non-number limit', () => {
    for (const bad of [-1, Number.NaN, '100']) {
      expect(() => method([], t.string(), { timeoutMs: bad as number })).to.throw(
        TypeError,
        /timeoutMs must be a number ≥ 0/,
      );
    }
  });
});
