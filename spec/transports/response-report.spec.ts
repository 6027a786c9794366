// onResponse tells which mount an answer came through: two registries serving the same method
// under /v1 and /v2 are told apart by the report's prefix and full path, while call.path stays the
// path below the prefix.
import { expect } from 'chai';
import { Registry, meta, method, service, t, type ResponseReport } from '../../index.ts';
import type { Served } from '../support/fetch-server.ts';
import { send } from '../support/http-client.ts';
import { TRANSPORTS } from './both-transports.ts';

class Pinger {
  ping(): string {
    return 'pong';
  }
}
meta(Pinger, service({ ping: method([], t.string()) }));

for (const transport of TRANSPORTS) {
  describe(`transports: onResponse reports the mount prefix (${transport.kind})`, () => {
    const reports: ResponseReport[] = [];
    const registry = () => new Registry({ onResponse: (report) => reports.push(report) }).on(new Pinger());
    let served: Served;
    before(async () => {
      served = await transport.serve('/v1', registry().endpoints, {}, [['/v2/inner', registry().endpoints]]);
    });
    after(() => served.stop());

    for (const prefix of ['/v1', '/v2/inner']) {
      it(`reports prefix ${prefix} and the full path, call.path below it`, async () => {
        const reply = await send(`${served.url}${prefix}/ping`, {
          method: 'POST',
          headers: { 'x-request-id': `report${prefix}` },
        });
        expect(reply.status).to.equal(200);
        const report = reports.find((r) => r.call.requestId === `report${prefix}`);
        expect(report, 'the report').not.to.equal(undefined);
        expect(report!).to.include({ prefix, path: `${prefix}/ping`, status: 200 });
        expect(report!.call.path).to.equal('/ping');
      });
    }
  });
}
