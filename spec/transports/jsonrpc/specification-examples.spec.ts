// The JSON-RPC 2.0 specification's examples, sent as written to a JSON-RPC registry on both
// transports: every answer the specification shows comes back (lacquer adds the problem document
// as each error's `data`), in any order for a batch, and notifications get no answer at all.
import { expect } from 'chai';
import { JSONRPC, Registry } from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { EXAMPLES, ExampleService } from './specification-examples.ts';

/** An answer as the specification writes it: `data`, lacquer's addition, left out. */
function withoutData(answer: unknown): unknown {
  if (Array.isArray(answer)) return answer.map(withoutData);
  const { error, ...rest } = answer as { error?: { data?: unknown } };
  if (error === undefined) return answer;
  const { data: _data, ...code } = error;
  return { ...rest, error: code };
}

/** A batch's answers in a stable order (the specification lets a server answer them in any). */
function sorted(answer: unknown): unknown {
  const key = (a: { id?: unknown; error?: { code?: number } }) => `${JSON.stringify(a.id)} ${a.error?.code ?? ''}`;
  return Array.isArray(answer) ? [...answer].sort((a, b) => key(a).localeCompare(key(b))) : answer;
}

for (const transport of TRANSPORTS) {
  describe(`transports: JSON-RPC, the specification's examples (${transport.kind})`, () => {
    let served: Served;
    let service: ExampleService;
    beforeEach(async () => {
      service = new ExampleService();
      served = await transport.serve('/rpc', new Registry({}, JSONRPC).on(service).endpoints);
    });
    afterEach(() => served.stop());

    for (const example of EXAMPLES) {
      it(example.name, async () => {
        const reply = await send(`${served.url}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: example.request,
        });
        if (example.answer === undefined) {
          expect(reply.status).to.equal(204);
          expect(reply.text).to.equal('');
          return;
        }
        expect(reply.status).to.equal(200);
        expect(reply.headers['content-type']).to.equal('application/json');
        expect(sorted(withoutData(reply.json()))).to.deep.equal(sorted(JSON.parse(example.answer)));
      });
    }

    it('runs notifications, though it answers none', async () => {
      await send(`${served.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: EXAMPLES.find((e) => e.name === 'rpc call Batch (all notifications)')!.request,
      });
      await send(`${served.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: EXAMPLES.find((e) => e.name === 'a notification')!.request,
      });
      expect(service.heard).to.have.deep.members([
        ['notify_sum', 7],
        ['notify_hello', 7],
        ['update', 1, 2, 3, 4, 5],
      ]);
    });
  });
}
