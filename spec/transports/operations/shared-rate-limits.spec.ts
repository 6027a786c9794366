// Which calls share a count: a limit with a `key` counts under the key's value as it is, so the
// methods whose limits share a store and give one key share one count; without a `key`, each
// method counts apart (its keys prefixed `Service.method:`). The same on REST and JSON-RPC.
import { expect } from 'chai';
import {
  JSONRPC,
  MemoryRateLimitStore,
  Registry,
  meta,
  method,
  service,
  t,
  type Call,
  type RateLimitOptions,
} from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';

/** A fresh service per spec (the stores live in its contract): four methods, two limits. */
function team(shared: RateLimitOptions, apart: RateLimitOptions) {
  class Team {
    a(): string {
      return 'a';
    }
    b(): string {
      return 'b';
    }
    c(): string {
      return 'c';
    }
    d(): string {
      return 'd';
    }
  }
  meta(
    Team,
    service({
      a: method({}, t.string(), { route: 'GET /a', rateLimit: shared }),
      b: method({}, t.string(), { route: 'GET /b', rateLimit: shared }),
      c: method({}, t.string(), { route: 'GET /c', rateLimit: apart }),
      d: method({}, t.string(), { route: 'GET /d', rateLimit: apart }),
    }),
  );
  return new Team();
}

const PROTOCOLS = [
  {
    name: 'REST',
    caller(registryOptions: ConstructorParameters<typeof Registry>[0], impl: object) {
      const handle = toFetchHandler('/api', new Registry(registryOptions).on(impl).endpoints, { ip: () => '10.0.0.1' });
      return async (name: string) => (await handle(new Request(`http://in-process/api/${name}`))).status;
    },
  },
  {
    name: 'JSON-RPC',
    caller(registryOptions: ConstructorParameters<typeof Registry>[0], impl: object) {
      const handle = toFetchHandler('/rpc', new Registry(registryOptions, JSONRPC).on(impl).endpoints, {
        ip: () => '10.0.0.1',
      });
      return async (name: string) => {
        const answer = await handle(
          new Request('http://in-process/rpc', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: name }),
          }),
        );
        const body = (await answer.json()) as { result?: string; error?: { data?: { status?: number } } };
        return body.result !== undefined ? 200 : body.error?.data?.status;
      };
    },
  },
];

for (const protocol of PROTOCOLS) {
  describe(`transports: rate limits shared by several methods (${protocol.name})`, () => {
    it('share one count where one store and one key say so; count apart per method without a key', async () => {
      const store = new MemoryRateLimitStore();
      const call = protocol.caller(
        {},
        team({ limit: 2, windowMs: 60_000, key: () => 'team-1', store }, { limit: 1, windowMs: 60_000, store }),
      );
      expect([await call('a'), await call('b'), await call('a'), await call('b')]).to.deep.equal([200, 200, 429, 429]);
      expect([await call('c'), await call('d'), await call('c'), await call('d')]).to.deep.equal([200, 200, 429, 429]);
    });

    it('share the registry’s store with a key of their own, and say per method with the method in the key', async () => {
      const store = new MemoryRateLimitStore();
      const call = protocol.caller(
        { rateLimit: { limit: 100, windowMs: 60_000, store } },
        team(
          { limit: 1, windowMs: 60_000, key: (c: Call) => `export:${c.ip ?? ''}` },
          { limit: 1, windowMs: 60_000, key: (c: Call) => `${c.method}:${c.ip ?? ''}` },
        ),
      );
      expect([await call('a'), await call('b')]).to.deep.equal([200, 429]);
      expect([await call('c'), await call('d'), await call('c')]).to.deep.equal([200, 200, 429]);
      expect(store.size).to.equal(3);
    });
  });
}
