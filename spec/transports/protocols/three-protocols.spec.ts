// One service instance on three registries, REST, JSON-RPC 2.0 and MCP, mounted side by side on
// each transport: every protocol reaches the same instance (what one changes, the others see),
// with the same value, and each answers its own way at its own prefix.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { JSONRPC, MCP, Registry, meta, method, service, t } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Counter = t.object({ name: t.string(), count: t.u64() }, { name: 'Counter' });
const CounterApi = service({
  getCounter: method({ name: t.string() }, Counter, { route: 'GET /counters/:name' }),
  addToCounter: method({ name: t.string(), by: t.u32() }, Counter, { route: 'POST /counters/:name' }),
});
class Counters {
  readonly #counts = new Map<string, bigint>();
  getCounter({ name }: { name: string }) {
    return { name, count: this.#counts.get(name) ?? 0n };
  }
  addToCounter({ name, by }: { name: string; by: number }) {
    this.#counts.set(name, (this.#counts.get(name) ?? 0n) + BigInt(by));
    return this.getCounter({ name });
  }
}
meta(Counters, CounterApi);

for (const transport of TRANSPORTS) {
  describe(`transports: one service on REST, JSON-RPC and MCP at once (${transport.kind})`, () => {
    let served: Served;
    beforeEach(async () => {
      const counters = new Counters();
      const options = { onWarning: () => {} };
      served = await transport.serve('/api', new Registry(options).on(counters).endpoints, {}, [
        ['/rpc', new Registry(options, JSONRPC).on(counters).endpoints],
        ['/mcp', new Registry(options, MCP).on(counters).endpoints],
      ]);
    });
    afterEach(() => served.stop());

    it('reaches the same instance from each protocol: what one adds, the others read', async () => {
      const rest = createClient(CounterApi, { baseUrl: `${served.url}/api`, codec: msgpack });
      expect(await rest.addToCounter({ name: 'a', by: 2 })).to.deep.equal({ name: 'a', count: 2n });

      const rpc = await send(`${served.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"addToCounter","params":{"name":"a","by":3},"id":1}',
      });
      expect(rpc.json()).to.deep.equal({ jsonrpc: '2.0', result: { name: 'a', count: 5 }, id: 1 });

      const mcp = new Client({ name: 'lacquer-spec', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
      try {
        const called = await mcp.callTool({ name: 'addToCounter', arguments: { name: 'a', by: 4 } });
        expect(called.structuredContent).to.deep.equal({ name: 'a', count: 9 });
        expect((await mcp.listTools()).tools.map((tool) => tool.name)).to.have.members(['getCounter', 'addToCounter']);
      } finally {
        await mcp.close();
      }
      expect(await rest.getCounter({ name: 'a' })).to.deep.equal({ name: 'a', count: 9n });
    });

    it('answers each protocol at its own prefix only', async () => {
      const restAtRpc = await send(`${served.url}/rpc/counters/a`);
      expect(restAtRpc.status).to.equal(404);
      const rpcAtApi = await send(`${served.url}/api`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"getCounter","params":{"name":"a"},"id":1}',
      });
      expect(rpcAtApi.status).to.equal(404);
      const getMcp = await send(`${served.url}/mcp`);
      expect(getMcp.status).to.equal(405);
      expect(getMcp.headers.allow).to.equal('POST');
    });
  });
}

describe('transports: one service on three registries, what they say at on()', () => {
  const Entry = t.object({ id: t.u32() }, { name: 'Entry' });
  class Feed {
    entries() {
      return (async function* () {
        yield { id: 1 };
      })();
    }
    append(entry: { id: number }) {
      return entry;
    }
    add(a: number, b: number) {
      return a + b;
    }
    async slow(entry: { id: number }) {
      return entry;
    }
  }
  /** The warnings of the three registries of `Feed` under `contract`, each as `PROTOCOL: message`. */
  const warningsOf = (contract: Parameters<typeof service>[0]) => {
    class Served extends Feed {}
    meta(Served as never, service(contract));
    const warnings: string[] = [];
    for (const protocol of ['REST', JSONRPC, MCP] as const) {
      new Registry({ onWarning: (message) => void warnings.push(`${protocol}: ${message}`) }, protocol).on(
        new Served(),
      );
    }
    return warnings;
  };

  it("leaves out of JSON-RPC and MCP, silently, a method that says it is REST's only", () => {
    expect(
      warningsOf({
        entries: method([], t.stream(Entry), { route: 'GET /entries', protocols: ['REST'] }),
        append: method([t.stream(Entry)], t.u32(), { protocols: ['REST'] }),
        add: method([t.u32(), t.u32()], t.u32(), { protocols: ['REST', 'JSONRPC'] }),
      }),
    ).to.deep.equal([]);
  });

  it('serves a method on the protocols it names only', async () => {
    class Served extends Feed {}
    meta(
      Served,
      service({
        add: method([t.u32(), t.u32()], t.u32(), { protocols: ['JSONRPC'] }),
        append: method([Entry], Entry, { protocols: ['MCP', 'REST'] }),
      }),
    );
    const rest = new Registry({}, 'REST').on(new Served());
    expect(rest.endpoints.operations.map((o) => o.method)).to.deep.equal(['append']);
    const rpc = new Registry({}, JSONRPC).on(new Served());
    const added = await rpc.endpoints.routes.get('/')!.get('POST')!({
      method: 'POST',
      path: '/',
      headers: new Headers({ 'content-type': 'application/json' }),
      body: new TextEncoder().encode(
        '[{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1},{"jsonrpc":"2.0","method":"append","params":{"id":1},"id":2}]',
      ),
    });
    const answers = JSON.parse(String(added.body)) as { id: number; result?: unknown; error?: { code: number } }[];
    expect(answers.sort((a, b) => a.id - b.id).map((a) => a.result ?? a.error?.code)).to.deep.equal([3, -32601]);
  });

  it('refuses protocols that are not a non-empty list of REST, JSONRPC and MCP', () => {
    for (const protocols of [[], ['rest'], ['REST', 'SOAP'], 'REST']) {
      expect(() => method([], t.u32(), { protocols: protocols as never }), JSON.stringify(protocols)).to.throw(
        TypeError,
        /protocols/,
      );
    }
  });

  it("says once, not once per registry, that a method's timeoutMs applies to REST only", () => {
    const warnings = warningsOf({ slow: method([Entry], Entry, { timeoutMs: 100 }) });
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/^JSONRPC: .*Served\.slow's timeoutMs applies to REST endpoints only/);
  });
});
