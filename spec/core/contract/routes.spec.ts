// Named parameters and the `route` option: what method() accepts and refuses, and what a registry
// refuses at on() (routes two services would share, patterns neither more specific than the
// other, parameters that cannot travel where the route puts them), before anything is served.
import { expect } from 'chai';
import { Registry, apiKeyAuth, contextKey, meta, method, service, t, type Implementation } from '../../../index.ts';

describe('contract: named parameters and routes', () => {
  describe('method()', () => {
    it('keeps the names and the declared order of named parameters', () => {
      const m = method({ id: t.u64(), patch: t.string(), flag: t.bool() }, t.void());
      expect(m.paramNames).to.deep.equal(['id', 'patch', 'flag']);
      expect(m.paramTypes.map((p) => p.kind)).to.deep.equal(['u64', 'string', 'bool']);
    });

    it('parses a route into its verb, path and parameter names', () => {
      const m = method({ owner: t.string(), id: t.u64() }, t.void(), { route: 'DELETE /users/:owner/notes/:id' });
      expect(m.route).to.deep.equal({ verb: 'DELETE', path: '/users/:owner/notes/:id', names: ['owner', 'id'] });
      expect(m.verb).to.equal('DELETE');
    });

    const refused: readonly (readonly [string, () => unknown, RegExp])[] = [
      ['a route without a verb', () => method({}, t.void(), { route: '/notes' }), /has no verb/],
      ['an unknown verb', () => method({}, t.void(), { route: 'FETCH /notes' }), /has the verb 'FETCH'/],
      ['HEAD (GET routes answer it)', () => method({}, t.void(), { route: 'HEAD /notes' }), /GET route answers HEAD/],
      ['a path not starting with /', () => method({}, t.void(), { route: 'GET notes' }), /starting with \//],
      ['the root path', () => method({}, t.void(), { route: 'GET /' }), /at least one segment/],
      ['an empty segment', () => method({}, t.void(), { route: 'GET /notes//x' }), /empty segment/],
      ['a trailing slash', () => method({}, t.void(), { route: 'GET /notes/' }), /empty segment/],
      ['a dot segment', () => method({}, t.void(), { route: 'GET /a/../b' }), /segment '\.\.'/],
      ['a segment needing encoding', () => method({}, t.void(), { route: 'GET /a b' }), /segment 'a b'/],
      [
        'a parameter that is no identifier',
        () => method({ 'a-b': t.string() }, t.void(), { route: 'GET /x/:a-b' }),
        /':a-b', which is not a parameter name/,
      ],
      [
        'a parameter bound twice',
        () => method({ id: t.u64() }, t.void(), { route: 'GET /x/:id/:id' }),
        /binds ':id' twice/,
      ],
      [
        'a path parameter the method lacks',
        () => method({ id: t.u64() }, t.void(), { route: 'GET /x/:key' }),
        /binds ':key', which is not a named parameter/,
      ],
      [
        'path parameters of an array of parameters',
        () => method([t.u64()], t.void(), { route: 'PUT /x/:id' }),
        /not a named parameter/,
      ],
      ['a GET with an array of parameters', () => method([t.u64()], t.void(), { route: 'GET /x' }), /must be named/],
      ['both route and verb', () => method({}, t.void(), { route: 'GET /x', verb: 'GET' }), /not both route and verb/],
      [
        'a parameter named __proto__',
        () => method(JSON.parse('{"__proto__": 1}'), t.void()),
        /cannot name a parameter/,
      ],
      ['an empty name', () => method({ '': t.u64() }, t.void()), /cannot name a parameter/],
      [
        'a named parameter that is no descriptor',
        () => method({ id: 5 as never }, t.void()),
        /'id' must be a descriptor/,
      ],
      ['a route that is no string', () => method({}, t.void(), { route: 5 as never }), /is not a string/],
    ];
    for (const [what, make, message] of refused) {
      it(`refuses ${what}`, () => {
        expect(make).to.throw(TypeError, message);
      });
    }
  });

  describe('Registry.on()', () => {
    const on = (methods: Parameters<typeof service>[0], registry = new Registry()) => {
      class Svc {}
      for (const name of Object.keys(methods)) Object.defineProperty(Svc.prototype, name, { value: () => undefined });
      meta(Svc as never, service(methods));
      return registry.on(new Svc());
    };

    it('allows one path under several verbs, and a literal segment beside a parameter', () => {
      const registry = on({
        getNote: method({ id: t.u64() }, t.void(), { route: 'GET /notes/:id' }),
        putNote: method({ id: t.u64(), body: t.string() }, t.void(), { route: 'PUT /notes/:id' }),
        search: method({ q: t.string() }, t.void(), { route: 'GET /notes/search' }),
      });
      expect([...registry.endpoints.routes.keys()]).to.deep.equal(['/notes/:id', '/notes/search']);
      expect([...registry.endpoints.routes.get('/notes/:id')!.keys()]).to.deep.equal(['GET', 'PUT']);
    });

    it('refuses the same pattern twice under other names, across services, registering nothing of the second', () => {
      const registry = on({ getNote: method({ id: t.u64() }, t.void(), { route: 'GET /notes/:id' }) });
      expect(() =>
        on(
          {
            a: method([], t.void()),
            byKey: method({ key: t.string() }, t.void(), { route: 'GET /notes/:key' }),
          },
          registry,
        ),
      ).to.throw(
        Error,
        /\.byKey exposes GET \/notes\/:key, which would match the same requests as GET \/notes\/:id of \w+\.getNote, neither more specific/,
      );
      expect([...registry.endpoints.routes.keys()]).to.deep.equal(['/notes/:id']);
    });

    it('refuses two patterns where neither is more specific, within one service', () => {
      expect(() =>
        on({
          a: method({ x: t.string() }, t.void(), { route: 'GET /a/:x/c' }),
          b: method({ y: t.string() }, t.void(), { route: 'GET /a/b/:y' }),
        }),
      ).to.throw(Error, /neither more specific/);
    });

    it("refuses a route equal to another method's specification path", () => {
      expect(() =>
        on({
          ping: method([], t.void()),
          other: method({}, t.void(), { route: 'POST /ping' }),
        }),
      ).to.throw(Error, /\.other exposes POST \/ping, already exposed by \w+\.ping$/);
    });

    it('allows patterns of the same shape under different verbs', () => {
      expect(() =>
        on({
          a: method({ x: t.string() }, t.void(), { route: 'GET /a/:x' }),
          b: method({ y: t.string() }, t.void(), { route: 'DELETE /a/:y' }),
        }),
      ).not.to.throw();
    });

    it('refuses a path parameter that cannot be one segment', () => {
      expect(() => on({ a: method({ x: t.object({ y: t.string() }) }, t.void(), { route: 'GET /a/:x' }) })).to.throw(
        TypeError,
        /path parameter 'x'/,
      );
      expect(() => on({ a: method({ x: t.optional(t.string()) }, t.void(), { route: 'GET /a/:x' }) })).to.throw(
        TypeError,
        /path parameter 'x'/,
      );
    });

    it('refuses a query parameter that cannot come from a query string', () => {
      expect(() => on({ a: method({ x: t.map(t.string()) }, t.void(), { route: 'GET /a' }) })).to.throw(
        TypeError,
        /parameter 'x' of a GET endpoint comes from the query/,
      );
      expect(() => on({ deleteIt: method({ x: t.object({ y: t.object({ z: t.u8() }) }) }, t.void()) })).to.throw(
        TypeError,
        /DELETE endpoint comes from the query/,
      );
    });

    it('makes a reader with named parameters that fit a query a GET, and one whose parameters do not a POST', () => {
      const registry = on({
        getNote: method({ id: t.u64() }, t.void()),
        findNotes: method({ filter: t.object({ nested: t.object({ a: t.u8() }) }) }, t.void()),
        listAll: method([t.u64()], t.void()),
      });
      expect(registry.endpoints.operations.map((o) => `${o.verb} ${o.path}`)).to.deep.equal([
        'GET /getNote',
        'POST /findNotes',
        'POST /listAll',
      ]);
    });
  });

  it('types an implementation of named parameters as one object of them by name', () => {
    const Api = service({
      one: method({ id: t.u64() }, t.string()),
      two: method({ id: t.u64(), name: t.string() }, t.string()),
      none: method({}, t.void()),
    });
    class Good implements Implementation<typeof Api.methods> {
      one({ id }: { id: bigint }) {
        return String(id);
      }
      two({ name, id }: { id: bigint; name: string }) {
        return `${id}${name}`;
      }
      none() {}
    }
    class Bad implements Implementation<typeof Api.methods> {
      // @ts-expect-error one named parameter is typed exactly
      one({ id }: { id: string }) {
        return id;
      }
      // @ts-expect-error a type that is not the parameter's
      two({ id, name }: { id: bigint; name: boolean }) {
        return `${id}${name}`;
      }
      none() {}
    }
    expect(meta(Good, Api)).to.equal(Api);
    void Bad;
  });
});

describe('contract: named parameters beside an API key in the query', () => {
  const KEY = contextKey<string>('key');
  const keyed = () =>
    new Registry({
      onError: () => {},
      security: { key: apiKeyAuth({ query: 'api_key', verify: (k) => (k === 'k1' ? 'ok' : undefined), key: KEY }) },
    });

  it('leaves the credential key out of the arguments: it is no unknown key', async () => {
    class Lookup {
      find({ id }: { id: bigint }) {
        return String(id);
      }
    }
    meta(
      Lookup,
      service({ find: method({ id: t.u64() }, t.string(), { route: 'GET /things/:id' }) }, { security: ['key'] }),
    );
    const registry = keyed().on(new Lookup());
    const answer = await registry.endpoints.handle({
      method: 'GET',
      path: '/things/5?api_key=k1',
      search: 'api_key=k1',
      headers: new Headers(),
      body: undefined,
    });
    expect(answer.status).to.equal(200);
    const unknown = await registry.endpoints.handle({
      method: 'GET',
      path: '/things/5?api_key=k1&x=1',
      headers: new Headers(),
      body: undefined,
    });
    expect(unknown.status).to.equal(400);
  });

  it('refuses a query parameter named as the credential key', () => {
    class Clash {
      find(_args: { api_key: string }) {
        return '';
      }
    }
    meta(
      Clash,
      service({ find: method({ api_key: t.string() }, t.string(), { route: 'GET /things' }) }, { security: ['key'] }),
    );
    expect(() => keyed().on(new Clash())).to.throw(TypeError, /query key 'api_key'/);
  });
});

describe('routes: two registries at one prefix', () => {
  it('serve a literal path of the one before a parameter of the other, whichever was mounted first', async () => {
    class Items {
      getItem({ id }: { id: number }) {
        return `item ${id}`;
      }
    }
    meta(Items, service({ getItem: method({ id: t.u32() }, t.string(), { route: 'GET /items/:id' }) }));
    class Feed {
      itemFeed() {
        return 'feed';
      }
    }
    meta(Feed, service({ itemFeed: method({}, t.string(), { route: 'GET /items/feed' }) }));
    const { HttpServer } = await import('../../../transports/http/index.ts');
    const items = new Registry().on(new Items()).endpoints;
    const feed = new Registry().on(new Feed()).endpoints;
    const server = await new HttpServer().mount('/api', items).mount('/api', feed).bind(0).start();
    try {
      for (const [path, want] of [
        ['/api/items/feed', '"feed"'],
        ['/api/items/5', '"item 5"'],
      ] as const) {
        expect(await (await fetch(server.url + path)).text(), path).to.equal(want);
      }
    } finally {
      await server.stop();
    }
  });
});
