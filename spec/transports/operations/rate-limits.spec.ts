// Rate limits on both transports: the registry's and a method's own, 429 with Retry-After, the
// RateLimit-Policy and RateLimit headers (IETF httpapi ratelimit-headers draft) on every answer,
// keys of one's own, a store that answers with a promise, the body left unread before a 429, the
// credential checked first, and methods exempt.
import { request } from 'node:http';
import { expect } from 'chai';
import {
  HttpError,
  Registry,
  bearerAuth,
  contextKey,
  meta,
  method,
  service,
  t,
  type Call,
  type RateLimitCount,
  type RateLimitOptions,
  type RateLimitStore,
  type RegistryOptions,
} from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send, type Reply } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const TOKEN = 'token-1';
const OTHER = 'token-2';
const CALLER = contextKey<string>('caller');

const Limited = service({
  ping: method({}, t.string(), { route: 'GET /ping' }),
  echo: method([t.string()], t.string()),
  free: method({}, t.string(), { route: 'GET /free', rateLimit: false }),
  secret: method({}, t.string(), { route: 'GET /secret', security: ['bearer'] }),
  tenant: method({}, t.string(), {
    route: 'GET /tenant',
    rateLimit: { limit: 1, windowMs: 60_000, key: (call: Call) => call.headers.get('x-tenant') ?? 'anonymous' },
  }),
  refuse: method({}, t.string(), { route: 'GET /refuse' }),
  perUser: method({}, t.string(), {
    route: 'GET /per-user',
    security: ['bearer'],
    rateLimit: { limit: 1, windowMs: 60_000, key: (call: Call) => call.get(CALLER) },
  }),
});

class LimitedImpl {
  calls = 0;
  ping() {
    this.calls++;
    return 'pong';
  }
  echo(text: string) {
    this.calls++;
    return text;
  }
  free() {
    this.calls++;
    return 'free';
  }
  secret() {
    this.calls++;
    return 'secret';
  }
  tenant(call: Call) {
    this.calls++;
    return call.headers.get('x-tenant') ?? 'anonymous';
  }
  refuse(): string {
    throw new HttpError(404, 'nothing here');
  }
  perUser(call: Call) {
    return call.get(CALLER);
  }
}
meta(LimitedImpl, Limited);

function registry(
  rateLimit: RateLimitOptions,
  impl: LimitedImpl,
  onError: RegistryOptions['onError'] = () => {},
): Registry {
  return new Registry({
    rateLimit,
    onError,
    security: {
      bearer: bearerAuth({
        verify: (token) => (token === TOKEN ? 'someone' : token === OTHER ? 'another' : undefined),
        key: CALLER,
      }),
    },
  }).on(impl);
}

/** A store answering with promises, counting in a Map as a shared store (Redis, a database) would. */
class AsyncStore implements RateLimitStore {
  readonly keys: string[] = [];
  readonly #counts = new Map<string, number>();
  async hit(key: string, windowMs: number): Promise<RateLimitCount> {
    await new Promise((r) => setTimeout(r, 1));
    this.keys.push(key);
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return { count, resetMs: windowMs / 2 };
  }
}

for (const transport of TRANSPORTS) {
  describe(`transports: rate limits (${transport.kind})`, () => {
    let served: Served;
    let impl: LimitedImpl;
    const url = (path: string) => `${served.url}/api${path}`;
    const get = (path: string, headers: Record<string, string> = {}) => send(url(path), { headers });
    const serve = async (r: Registry) => {
      served = await transport.serve('/api', r.endpoints);
    };
    beforeEach(() => {
      impl = new LimitedImpl();
    });
    afterEach(() => served.stop());

    describe('a registry limit of 2 calls a minute', () => {
      beforeEach(() => serve(registry({ limit: 2, windowMs: 60_000 }, impl)));

      it('answers the third call 429 with Retry-After, without running the method', async () => {
        const replies: Reply[] = [];
        for (let i = 0; i < 3; i++) replies.push(await get('/ping'));
        expect(replies.map((r) => r.status)).to.deep.equal([200, 200, 429]);
        expect(impl.calls).to.equal(2);
        const refused = replies[2]!;
        expect(refused.headers['content-type']).to.equal('application/problem+json');
        expect(refused.json()).to.include({ status: 429, title: 'Too Many Requests' });
        const retryAfter = Number(refused.headers['retry-after']);
        expect(retryAfter).to.be.within(59, 60);
      });

      it('says the policy and what is left on every answer after the count', async () => {
        const first = await get('/ping');
        expect(first.headers['ratelimit-policy']).to.equal('"default";q=2;w=60');
        expect(first.headers.ratelimit).to.match(/^"default";r=1;t=(59|60)$/);
        const second = await get('/refuse');
        expect(second.status).to.equal(404);
        expect(second.headers.ratelimit).to.match(/^"default";r=0;t=(59|60)$/);
        const third = await get('/ping');
        expect(third.status).to.equal(429);
        expect(third.headers['ratelimit-policy']).to.equal('"default";q=2;w=60');
        expect(third.headers.ratelimit).to.match(/^"default";r=0;t=(59|60)$/);
      });

      it('counts the calls of every endpoint of the registry together', async () => {
        expect((await get('/ping')).status).to.equal(200);
        const echo = await send(url('/echo'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '"hi"',
        });
        expect(echo.status).to.equal(200);
        expect((await get('/ping')).status).to.equal(429);
      });

      it('leaves a method with rateLimit: false out, its answers without the headers', async () => {
        for (let i = 0; i < 4; i++) {
          const reply = await get('/free');
          expect(reply.status).to.equal(200);
          expect(reply.headers).not.to.have.property('ratelimit');
          expect(reply.headers).not.to.have.property('ratelimit-policy');
        }
        expect((await get('/ping')).status).to.equal(200);
      });

      it('checks the credential first: a caller without one gets 401, and is not counted', async () => {
        for (let i = 0; i < 3; i++) {
          const reply = await get('/secret');
          expect(reply.status).to.equal(401);
          expect(reply.headers['ratelimit-policy']).to.equal('"default";q=2;w=60');
          expect(reply.headers).not.to.have.property('ratelimit');
        }
        const auth = { authorization: `Bearer ${TOKEN}` };
        expect((await get('/secret', auth)).status).to.equal(200);
        expect((await get('/secret', auth)).status).to.equal(200);
        expect((await get('/secret', auth)).status).to.equal(429);
        // Over the limit now, the caller without a credential is still told 401.
        expect((await get('/secret')).status).to.equal(401);
      });

      it('answers 429 at once to a call whose body has not arrived, without reading it', async () => {
        await get('/ping');
        await get('/ping');
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(
            url('/echo'),
            { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000' } },
            (res) => {
              resolve(res.statusCode ?? 0);
              res.resume();
              req.destroy();
            },
          );
          req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
          // A tenth of the body, and never the rest.
          req.write('["' + 'x'.repeat(98));
        });
        expect(status).to.equal(429);
        expect(impl.calls).to.equal(2);
      });
    });

    it('counts a method with its own limit apart, per key of its own', async () => {
      await serve(registry({ limit: 100, windowMs: 60_000 }, impl));
      const a1 = await get('/tenant', { 'x-tenant': 'a' });
      expect(a1.status).to.equal(200);
      expect(a1.headers['ratelimit-policy']).to.equal('"tenant";q=1;w=60');
      expect(a1.headers.ratelimit).to.match(/^"tenant";r=0;t=(59|60)$/);
      expect((await get('/tenant', { 'x-tenant': 'b' })).status).to.equal(200);
      expect((await get('/tenant', { 'x-tenant': 'a' })).status).to.equal(429);
      expect((await get('/tenant', { 'x-tenant': 'b' })).status).to.equal(429);
      expect((await get('/tenant', { 'x-tenant': 'c' })).status).to.equal(200);
      // The registry's count did not see them.
      expect((await get('/ping')).headers.ratelimit).to.match(/^"default";r=99;/);
    });

    it('counts per caller with a key read from what the security scheme stored', async () => {
      await serve(registry({ limit: 100, windowMs: 60_000 }, impl));
      const as = (token: string) => get('/per-user', { authorization: `Bearer ${token}` });
      expect((await as(TOKEN)).status).to.equal(200);
      expect((await as(TOKEN)).status).to.equal(429);
      const other = await as(OTHER);
      expect(other.status).to.equal(200);
      expect(other.json()).to.equal('another');
    });

    it("counts in a store that answers with a promise, under the keys the registry's and the method's key functions give", async () => {
      const store = new AsyncStore();
      await serve(registry({ limit: 1, windowMs: 10_000, store, key: () => 'everyone' }, impl));
      const first = await get('/ping');
      expect(first.status).to.equal(200);
      expect(first.headers.ratelimit).to.equal('"default";r=0;t=5');
      const second = await get('/ping');
      expect(second.status).to.equal(429);
      expect(second.headers['retry-after']).to.equal('5');
      expect((await get('/tenant', { 'x-tenant': 'a' })).status).to.equal(200);
      expect(store.keys).to.deep.equal(['everyone', 'everyone', 'a']);
    });

    it('counts a key over 128 characters under its hash, and fails a call whose key is no string', async () => {
      const store = new AsyncStore();
      const errors: unknown[] = [];
      await serve(
        registry(
          { limit: 5, windowMs: 1_000, store, key: (call) => call.headers.get('x-key') as string },
          impl,
          (error) => errors.push(error),
        ),
      );
      const long = 'k'.repeat(1_000);
      expect((await get('/ping', { 'x-key': long })).status).to.equal(200);
      expect((await get('/ping', { 'x-key': long })).headers.ratelimit).to.match(/^"default";r=3;/);
      expect(store.keys[0]).to.match(/^#[0-9a-f]{16}$/);
      expect(store.keys[1]).to.equal(store.keys[0]);
      // Without the header, the key function answers null.
      expect((await get('/ping')).status).to.equal(500);
      expect((errors[0] as Error).message).to.equal('rateLimit.key must return a string, got object');
    });

    it('answers 500 when the store fails, and tells onError', async () => {
      const errors: unknown[] = [];
      const failing: RateLimitStore = { hit: () => Promise.reject(new Error('store down')) };
      await serve(registry({ limit: 1, windowMs: 1_000, store: failing }, impl, (error) => errors.push(error)));
      const reply = await get('/ping');
      expect(reply.status).to.equal(500);
      expect(impl.calls).to.equal(0);
      expect((errors[0] as Error).message).to.equal('store down');
    });

    it('lets a page on an allowed origin read the limit, its state and the ETag (CORS)', async () => {
      served = await transport.serve('/api', registry({ limit: 5, windowMs: 60_000 }, impl).endpoints, {
        cors: { origins: ['https://app.example'] },
      });
      const reply = await get('/ping', { origin: 'https://app.example' });
      const exposed = String(reply.headers['access-control-expose-headers']).split(/\s*,\s*/);
      expect(exposed).to.include.members(['ratelimit', 'ratelimit-policy', 'retry-after', 'etag']);
      expect(reply.headers).to.include.keys('ratelimit', 'ratelimit-policy', 'etag');
    });

    it('starts a new window once the last one ended', async () => {
      await serve(registry({ limit: 1, windowMs: 200 }, impl));
      expect((await get('/ping')).status).to.equal(200);
      expect((await get('/ping')).status).to.equal(429);
      await new Promise((r) => setTimeout(r, 250));
      expect((await get('/ping')).status).to.equal(200);
    });
  });
}

describe('rate limits: options', () => {
  it('refuses a limit or window that is not a positive integer, a key or store of the wrong kind', () => {
    for (const bad of [
      { limit: 0, windowMs: 1 },
      { limit: 1, windowMs: 0 },
      { limit: 1.5, windowMs: 10 },
      { limit: 1, windowMs: 10, key: 'ip' },
      { limit: 1, windowMs: 10, store: {} },
    ]) {
      expect(() => new Registry({ rateLimit: bad as never })).to.throw(TypeError, /^Registry: rateLimit/);
      expect(() => method([], t.string(), { rateLimit: bad as never })).to.throw(TypeError, /^method\(\): rateLimit/);
    }
  });
});
