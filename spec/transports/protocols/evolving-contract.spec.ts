// Adding an optional parameter to a method changes nothing for the callers written before it: the
// body of named parameters is always an object of those the path does not bind (by name, the
// object JSON-RPC's by-name params and MCP's arguments carry), so a call of the old contract reads
// under the new one, over REST (by hand and through the typed client of the old contract),
// JSON-RPC and MCP.
import { expect } from 'chai';
import { json } from '../../../codecs/json/index.ts';
import { meta, method, service, t } from '../../../index.ts';
import { createClient, type FetchFunction } from '../../../transports/client/index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { mcpCall, restCall, rpcCall, threeRegistries } from './three-calls.ts';

const BEFORE = service({
  renameTask: method({ id: t.u64(), title: t.string() }, t.string(), { route: 'PATCH /tasks/:id' }),
  touchTask: method({ id: t.u64() }, t.string(), { route: 'POST /tasks/:id/touch' }),
});
const AFTER = service({
  renameTask: method({ id: t.u64(), title: t.string(), pinned: t.optional(t.bool()) }, t.string(), {
    route: 'PATCH /tasks/:id',
  }),
  touchTask: method({ id: t.u64(), by: t.string().default('nobody') }, t.string(), { route: 'POST /tasks/:id/touch' }),
});

class TasksBefore {
  renameTask({ id, title }: { id: bigint; title: string }) {
    return `${id} ${title}`;
  }
  touchTask({ id }: { id: bigint }) {
    return `${id} touched`;
  }
}
meta(TasksBefore, BEFORE);
class TasksAfter {
  renameTask({ id, title, pinned }: { id: bigint; title: string; pinned?: boolean | undefined }) {
    return `${id} ${title}${pinned === true ? ' (pinned)' : ''}`;
  }
  touchTask({ id, by }: { id: bigint; by: string }) {
    return `${id} touched by ${by}`;
  }
}
meta(TasksAfter, AFTER);

describe('contract: adding an optional parameter leaves existing calls working', () => {
  for (const [version, instance, touched] of [
    ['before', new TasksBefore(), '7 touched'],
    ['after', new TasksAfter(), '7 touched by nobody'],
  ] as const) {
    it(`reads the old calls ${version} the parameter was added, over REST, JSON-RPC and MCP`, async () => {
      const three = threeRegistries(instance);
      const renamed = { ok: true, value: '7 hello' };
      expect(await restCall(three.rest, 'PATCH', '/tasks/7', { title: 'hello' })).to.deep.equal(renamed);
      expect(await rpcCall(three.rpc, 'renameTask', { id: 7, title: 'hello' })).to.deep.equal(renamed);
      expect(await mcpCall(three.mcp, 'renameTask', { id: 7, title: 'hello' })).to.deep.equal(renamed);
      // No body parameter before: no body, which reads as the empty object after.
      expect(await restCall(three.rest, 'POST', '/tasks/7/touch')).to.deep.equal({ ok: true, value: touched });
      expect(await rpcCall(three.rpc, 'touchTask', { id: 7 })).to.deep.equal({ ok: true, value: touched });
      expect(await mcpCall(three.mcp, 'touchTask', { id: 7 })).to.deep.equal({ ok: true, value: touched });
    });

    it(`serves the typed client of the old contract ${version} the parameter was added, the body an object by name`, async () => {
      const handler = toFetchHandler('/api', threeRegistries(instance).rest);
      const bodies: string[] = [];
      const fetch: FetchFunction = async (request) => {
        bodies.push(await request.clone().text());
        return handler(request);
      };
      const api = createClient(BEFORE, { baseUrl: 'http://tasks.test/api', codec: json, fetch });
      expect(await api.renameTask({ id: 7n, title: 'hello' })).to.equal('7 hello');
      expect(await api.touchTask({ id: 7n })).to.equal(touched);
      expect(bodies[0]).to.equal('{"title":"hello"}');
    });
  }

  it('takes the new parameter by name in the same object', async () => {
    const three = threeRegistries(new TasksAfter());
    const want = { ok: true, value: '7 hello (pinned)' };
    expect(await restCall(three.rest, 'PATCH', '/tasks/7', { pinned: true, title: 'hello' })).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'renameTask', { id: 7, title: 'hello', pinned: true })).to.deep.equal(want);
    expect(await mcpCall(three.mcp, 'renameTask', { id: 7, title: 'hello', pinned: true })).to.deep.equal(want);
    const api = createClient(AFTER, {
      baseUrl: 'http://tasks.test/api',
      codec: json,
      fetch: toFetchHandler('/api', three.rest),
    });
    expect(await api.renameTask({ id: 7n, title: 'hello', pinned: true })).to.equal('7 hello (pinned)');
    expect(await api.touchTask({ id: 7n, by: 'ann' })).to.equal('7 touched by ann');
  });

  it('refuses a bare value for one named body parameter, naming the object it expects', async () => {
    const three = threeRegistries(new TasksBefore());
    const refused = await restCall(three.rest, 'PATCH', '/tasks/7', 'hello');
    expect(refused).to.deep.include({ ok: false, status: 400 });
  });
});
