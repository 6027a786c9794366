// A page on another origin can read the headers lacquer writes (x-request-id, Location,
// Retry-After, WWW-Authenticate, Accept-Post, Allow): they are exposed by default, with the ones a
// user lists added.
import { expect } from 'chai';
import { HttpError, Registry, meta, method, service, t, type Call } from '../../index.ts';
import { DEFAULT_EXPOSED_HEADERS } from '../../transports/protocol/pipeline/cors.ts';
import type { Served } from '../support/fetch-server.ts';
import { send } from '../support/http-client.ts';
import { TRANSPORTS } from './both-transports.ts';

const ORIGIN = 'https://app.example';

class Made {
  make(call: Call): string {
    call.header('location', '/things/1');
    return 'made';
  }
  later(): string {
    throw new HttpError(429, 'later', { headers: { 'retry-after': '5' } });
  }
}
meta(Made, service({ make: method([], t.string(), { status: 201 }), later: method([], t.string()) }));

/** The exposed names of an answer, lower-case. */
const exposed = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');

for (const transport of TRANSPORTS) {
  describe(`transports: CORS exposes lacquer's headers (${transport.kind})`, () => {
    let plain: Served;
    let listed: Served;
    before(async () => {
      plain = await transport.serve('/api', new Registry().on(new Made()).endpoints, { cors: { origins: [ORIGIN] } });
      listed = await transport.serve('/api', new Registry().on(new Made()).endpoints, {
        cors: { origins: '*', exposeHeaders: ['X-Trace', 'x-request-id'] },
      });
    });
    after(() => Promise.all([plain.stop(), listed.stop()]));

    it('exposes x-request-id, Location, Retry-After, WWW-Authenticate, Accept-Post and Allow without being asked', async () => {
      expect(DEFAULT_EXPOSED_HEADERS).to.include.members([
        'x-request-id',
        'location',
        'retry-after',
        'www-authenticate',
        'accept-post',
        'allow',
      ]);
      const made = await send(`${plain.url}/api/make`, { method: 'POST', headers: { origin: ORIGIN } });
      expect(made.status).to.equal(201);
      expect(made.headers['access-control-allow-origin']).to.equal(ORIGIN);
      expect(exposed(made.headers['access-control-expose-headers'])).to.deep.equal([...DEFAULT_EXPOSED_HEADERS]);
      const refused = await send(`${plain.url}/api/later`, { method: 'POST', headers: { origin: ORIGIN } });
      expect(refused.status).to.equal(429);
      expect(exposed(refused.headers['access-control-expose-headers'])).to.include.members([
        'retry-after',
        'x-request-id',
      ]);
    });

    it('adds the headers a user lists, each once', async () => {
      const reply = await send(`${listed.url}/api/make`, { method: 'POST', headers: { origin: ORIGIN } });
      expect(exposed(reply.headers['access-control-expose-headers'])).to.deep.equal([
        ...DEFAULT_EXPOSED_HEADERS,
        'x-trace',
      ]);
    });

    it('exposes nothing to an origin that is not allowed', async () => {
      const reply = await send(`${plain.url}/api/make`, {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
      });
      expect(reply.headers).not.to.have.property('access-control-expose-headers');
    });
  });
}
