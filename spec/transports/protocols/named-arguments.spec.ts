// Named parameters reach the implementation as one object of them by name, the shape the typed
// client takes, over REST, JSON-RPC and MCP alike: TypeScript checks each name and type (a swapped
// or mistyped destructuring does not compile), an optional parameter left out is an absent key, a
// defaulted one holds the value read, and the object holds its own declared keys only (a parameter
// named `constructor` or `toString`, left out, is `undefined`, not a built-in function).
import { expect } from 'chai';
import { meta, method, service, t, type Call, type Implementation, type InferParams } from '../../../index.ts';
import { mcpCall, restCall, rpcCall, threeRegistries, type ThreeRegistries } from './three-calls.ts';

const TasksApi = service({
  renameTask: method({ id: t.u64(), title: t.string() }, t.string(), { route: 'POST /tasks/rename' }),
  findTask: method({ id: t.u64(), note: t.optional(t.string()), limit: t.u32().default(10) }, t.string(), {
    route: 'GET /tasks/:id',
  }),
  inspect: method(
    { constructor: t.optional(t.string()), toString: t.optional(t.string()), valueOf: t.optional(t.u32()) },
    t.string(),
    { route: 'GET /inspect' },
  ),
  inspectBody: method({ constructor: t.optional(t.string()), hasOwnProperty: t.optional(t.string()) }, t.string(), {
    route: 'POST /inspect',
  }),
  countTasks: method([t.string(), t.u32()], t.string()),
});

class Tasks implements Implementation<typeof TasksApi.methods> {
  renameTask({ id, title }: { id: bigint; title: string }, call: Call): string {
    return `title=${title} id=${id} (${call.method})`;
  }
  findTask(args: { id: bigint; note?: string | undefined; limit: number }): string {
    return `${args.id} ${args.note ?? '-'} ${args.limit} [${Object.keys(args).join(',')}]`;
  }
  inspect(args: {
    constructor?: string | undefined;
    toString?: string | undefined;
    valueOf?: number | undefined;
  }): string {
    return `${typeof args.constructor} ${typeof args.toString} ${typeof args.valueOf} [${Object.keys(args).join(',')}]`;
  }
  inspectBody(args: { constructor?: string | undefined; hasOwnProperty?: string | undefined }): string {
    return `${typeof args.constructor} ${typeof args.hasOwnProperty} [${Object.keys(args).join(',')}]`;
  }
  countTasks(prefix: string, max: number): string {
    return `${prefix}:${max}`;
  }
}
meta(Tasks, TasksApi);

describe('contract: named parameters as one object (types)', () => {
  it('types the arguments as one object by name: optional parameters as optional keys, defaulted ones present', () => {
    type Find = InferParams<typeof TasksApi.methods.findTask.params>;
    const found: Find = [{ id: 1n, limit: 10 }];
    // @ts-expect-error a defaulted parameter is always present for the implementation
    const noLimit: Find = [{ id: 1n }];
    // @ts-expect-error each name has its type
    const wrong: Find = [{ id: 1, limit: 10 }];
    const none: InferParams<{}> = [];
    void [found, noLimit, wrong, none];
  });

  it('refuses to compile a swapped, mistyped, misnamed or positional implementation', () => {
    const Api = service({ rename: method({ id: t.u64(), title: t.string() }, t.string()) });
    class Good implements Implementation<typeof Api.methods> {
      rename({ title, id }: { id: bigint; title: string }) {
        return `${title}${id}`;
      }
    }
    class Swapped implements Implementation<typeof Api.methods> {
      // @ts-expect-error the title is a string and the id a bigint: a swapped destructuring does not compile
      rename({ id, title }: { id: string; title: bigint }) {
        return `${title}${id}`;
      }
    }
    class Misnamed implements Implementation<typeof Api.methods> {
      // @ts-expect-error there is no parameter 'name'
      rename({ id, name }: { id: bigint; name: string }) {
        return `${name}${id}`;
      }
    }
    class Positional implements Implementation<typeof Api.methods> {
      // @ts-expect-error named parameters are one object, not one argument each
      rename(id: bigint, title: string) {
        return `${title}${id}`;
      }
    }
    class Unchecked {
      rename(title: string, id: bigint) {
        return `${title}${id}`;
      }
    }
    expect(meta(Good, Api)).to.equal(Api);
    // @ts-expect-error meta() checks the class against the contract
    meta(Unchecked, Api);
    void [Swapped, Misnamed, Positional];
  });
});

describe('transports: named parameters as one object (REST, JSON-RPC and MCP)', () => {
  let three: ThreeRegistries;
  beforeEach(() => {
    three = threeRegistries(new Tasks());
  });

  it('gives the implementation one object by name, whatever order the caller wrote', async () => {
    const want = { ok: true, value: 'title=hello id=7 (renameTask)' };
    expect(await restCall(three.rest, 'POST', '/tasks/rename', { title: 'hello', id: 7 })).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'renameTask', { title: 'hello', id: 7 })).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'renameTask', [7, 'hello'])).to.deep.equal(want);
    expect(await mcpCall(three.mcp, 'renameTask', { title: 'hello', id: 7 })).to.deep.equal(want);
  });

  it('leaves an optional parameter out as an absent key, and gives a defaulted one its value', async () => {
    const want = { ok: true, value: '3 - 10 [id,limit]' };
    expect(await restCall(three.rest, 'GET', '/tasks/3')).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'findTask', { id: 3 })).to.deep.equal(want);
    expect(await mcpCall(three.mcp, 'findTask', { id: 3 })).to.deep.equal(want);
    const given = { ok: true, value: '3 x 2 [id,note,limit]' };
    expect(await restCall(three.rest, 'GET', '/tasks/3?limit=2&note=x')).to.deep.equal(given);
    expect(await rpcCall(three.rpc, 'findTask', { limit: 2, note: 'x', id: 3 })).to.deep.equal(given);
    expect(await mcpCall(three.mcp, 'findTask', { id: 3, note: 'x', limit: 2 })).to.deep.equal(given);
  });

  it('keeps positional parameters one argument each', async () => {
    expect(await restCall(three.rest, 'POST', '/countTasks', ['a', 2])).to.deep.equal({ ok: true, value: 'a:2' });
    expect(await rpcCall(three.rpc, 'countTasks', ['a', 2])).to.deep.equal({ ok: true, value: 'a:2' });
  });

  it('holds own declared keys only: constructor, toString, valueOf left out are undefined', async () => {
    const want = { ok: true, value: 'undefined undefined undefined []' };
    expect(await restCall(three.rest, 'GET', '/inspect')).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'inspect', {})).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'inspect')).to.deep.equal(want);
    expect(await mcpCall(three.mcp, 'inspect', {})).to.deep.equal(want);
    expect(await mcpCall(three.mcp, 'inspect')).to.deep.equal(want);
    const body = { ok: true, value: 'undefined undefined []' };
    expect(await restCall(three.rest, 'POST', '/inspect', {})).to.deep.equal(body);
    expect(await rpcCall(three.rpc, 'inspectBody', {})).to.deep.equal(body);
    expect(await mcpCall(three.mcp, 'inspectBody', {})).to.deep.equal(body);
  });

  it('gives such keys when they are sent', async () => {
    const want = { ok: true, value: 'string string number [constructor,toString,valueOf]' };
    expect(await restCall(three.rest, 'GET', '/inspect?valueOf=1&toString=b&constructor=a')).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'inspect', { constructor: 'a', toString: 'b', valueOf: 1 })).to.deep.equal(want);
    expect(await mcpCall(three.mcp, 'inspect', { constructor: 'a', toString: 'b', valueOf: 1 })).to.deep.equal(want);
    const body = { ok: true, value: 'string string [constructor,hasOwnProperty]' };
    expect(await restCall(three.rest, 'POST', '/inspect', { hasOwnProperty: 'b', constructor: 'a' })).to.deep.equal(
      body,
    );
    expect(await rpcCall(three.rpc, 'inspectBody', { constructor: 'a', hasOwnProperty: 'b' })).to.deep.equal(body);
    expect(await mcpCall(three.mcp, 'inspectBody', { constructor: 'a', hasOwnProperty: 'b' })).to.deep.equal(body);
  });
});
