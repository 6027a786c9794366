// A call answered 503 at the handler timeout may still fail later (its method rejects once its
// downstream gives up): that answer is dropped, and the registry's `onError` is told the status the
// client received, 503, not the 500 that was never sent. On both transports.
import { expect } from 'chai';
import { Registry, meta, method, service, t, type ErrorContext } from '../../index.ts';
import { send } from '../support/http-client.ts';
import { until } from '../support/until.ts';
import { TRANSPORTS } from './both-transports.ts';

class Slow {
  /** Fails after the handler timeout, as a method whose downstream gives up late does. */
  async failLate(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 200));
    throw new Error('the downstream gave up');
  }
  /** Fails at once: told the status it is answered with. */
  async failNow(): Promise<string> {
    throw new Error('broken');
  }
}
meta(Slow, service({ failLate: method([], t.string()), failNow: method([], t.string()) }));

for (const transport of TRANSPORTS) {
  describe(`transports: onError after the handler timeout (${transport.kind})`, () => {
    it('a method failing after its call was answered 503 is reported with 503, the status sent', async () => {
      const reports: ErrorContext[] = [];
      const registry = new Registry({ onError: (_error, context) => reports.push(context) }).on(new Slow());
      const served = await transport.serve('/api', registry.endpoints, { handlerTimeoutMs: 50 });
      try {
        const reply = await send(`${served.url}/api/failLate`, { method: 'POST' });
        expect(reply.status).to.equal(503);
        // Told once the method has failed, after the 503.
        await until(() => reports.length > 0);
        expect(reports.map((r) => [r.method, r.status])).to.deep.equal([['failLate', 503]]);
        expect(reports[0]!.requestId).to.equal(reply.headers['x-request-id']);
      } finally {
        await served.stop();
      }
    });

    it('a method failing before its deadline is reported with the status it is answered, 500', async () => {
      const reports: ErrorContext[] = [];
      const registry = new Registry({ onError: (_error, context) => reports.push(context) }).on(new Slow());
      const served = await transport.serve('/api', registry.endpoints, { handlerTimeoutMs: 5000 });
      try {
        const reply = await send(`${served.url}/api/failNow`, { method: 'POST' });
        expect(reply.status).to.equal(500);
        expect(reports.map((r) => [r.method, r.status])).to.deep.equal([['failNow', 500]]);
      } finally {
        await served.stop();
      }
    });
  });
}
