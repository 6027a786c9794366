// One reading rule whatever carries the arguments: for generated GET methods whose parameters come
// from the query (scalars, optional scalars, arrays bare, defaulted, optional or bounded), under
// every `errorOnMissingKeys`, REST's query, JSON-RPC's by-name params and MCP's arguments accept
// and refuse the same arguments (the same value, or the same paths), and OpenAPI's `required` and
// MCP's inputSchema `required` name the same keys. A query cannot carry the empty array, so a
// required array that may be empty is refused at `on()`, saying so, and nowhere else.
import { expect } from 'chai';
import fc from 'fast-check';
import { MCP, Registry, meta, method, openApi, service, t, type MissingKeys, type Type } from '../../../index.ts';
import { answerText } from '../../support/answer-body.ts';
import { mcpCall, restCall, rpcCall, threeRegistries, type Outcome } from './three-calls.ts';

/** How a parameter is declared, and whether the empty array is a value of it. */
interface Shape {
  readonly label: string;
  readonly type: () => Type;
  readonly array: boolean;
  readonly emptyFits: boolean;
  readonly hasDefault: boolean;
}

const SHAPES: readonly Shape[] = [
  { label: 't.u8()', type: () => t.u8(), array: false, emptyFits: false, hasDefault: false },
  { label: 't.optional(t.u8())', type: () => t.optional(t.u8()), array: false, emptyFits: false, hasDefault: false },
  { label: 't.u8().default(3)', type: () => t.u8().default(3), array: false, emptyFits: false, hasDefault: true },
  { label: 't.array(t.u8())', type: () => t.array(t.u8()), array: true, emptyFits: true, hasDefault: false },
  {
    label: 't.array(t.u8()).default([])',
    type: () => t.array(t.u8()).default([]),
    array: true,
    emptyFits: true,
    hasDefault: true,
  },
  {
    label: 't.optional(t.array(t.u8()))',
    type: () => t.optional(t.array(t.u8(), { maxItems: 3 })),
    array: true,
    emptyFits: false,
    hasDefault: false,
  },
  {
    label: 't.array(t.u8(), { minItems: 1 })',
    type: () => t.array(t.u8(), { minItems: 1 }),
    array: true,
    emptyFits: false,
    hasDefault: false,
  },
];
const NAMES = ['a', 'b', 'c'] as const;
const MODES: readonly MissingKeys[] = [false, true, 'unless-default'];

/** Whether reading requires the key (see isRequiredKey): minItems: 1 always; else by the mode. */
function required(shape: Shape, mode: MissingKeys): boolean {
  if (shape.label.includes('minItems')) return true;
  if (shape.label.startsWith('t.optional')) return false;
  if (mode === false) return false;
  return !(mode === 'unless-default' && shape.hasDefault);
}
const refusedAtOn = (shape: Shape, mode: MissingKeys) => shape.array && shape.emptyFits && required(shape, mode);

/** An argument as the wire carries it: absent, a valid value, or one that does not read. */
type Arg = undefined | { readonly json: unknown; readonly query: readonly string[] };

const arbValue = fc.integer({ min: 0, max: 255 });
const arbBad = fc.constantFrom('x', '300', '-1');
/** A value a query can carry: an array is non-empty (the empty one travels as no key). */
function arbArg(shape: Shape): fc.Arbitrary<Arg> {
  const scalar = fc.oneof(
    { weight: 4, arbitrary: arbValue.map((n) => ({ json: n as unknown, text: String(n) })) },
    { weight: 1, arbitrary: arbBad.map((s) => ({ json: s as unknown, text: s })) },
  );
  const present: fc.Arbitrary<Arg> = shape.array
    ? fc
        .array(scalar, { minLength: 1, maxLength: 4 })
        .map((items) => ({ json: items.map((i) => i.json), query: items.map((i) => i.text) }))
    : scalar.map((i) => ({ json: i.json, query: [i.text] }));
  return fc.option(present, { nil: undefined, freq: 3 });
}

const arbCase = fc
  .record({
    mode: fc.constantFrom(...MODES),
    shapes: fc.array(fc.constantFrom(...SHAPES), { minLength: 1, maxLength: NAMES.length }),
  })
  .chain(({ mode, shapes }) =>
    fc.record({
      mode: fc.constant(mode),
      shapes: fc.constant(shapes),
      args: fc.tuple(...shapes.map(arbArg)),
    }),
  );

/** A service of one GET method taking `shapes` by name, answering its arguments as JSON with sorted keys. */
function echoService(shapes: readonly Shape[]): object {
  const params = Object.fromEntries(shapes.map((s, i) => [NAMES[i]!, s.type()]));
  class Echo {
    getEcho(args: Record<string, unknown>) {
      return JSON.stringify(
        Object.fromEntries(
          Object.keys(args)
            .sort()
            .map((k) => [k, args[k]]),
        ),
      );
    }
  }
  meta(Echo, service({ getEcho: method(params, t.string()) }));
  return new Echo();
}

const sameOutcome = (outcome: Outcome) =>
  outcome.ok ? outcome : { ok: false, status: outcome.status, paths: [...outcome.paths].sort() };

async function mcpRequired(instance: object, mode: MissingKeys): Promise<readonly string[]> {
  const endpoints = new Registry({ errorOnMissingKeys: mode, onWarning: () => {} }, MCP).on(instance).endpoints;
  const answer = await endpoints.handle({
    method: 'POST',
    path: '/',
    headers: new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
    body: new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'),
  });
  const tool = (
    JSON.parse(answerText(answer.body)) as { result: { tools: { inputSchema: { required?: string[] } }[] } }
  ).result.tools[0]!;
  return [...(tool.inputSchema.required ?? [])].sort();
}

function openApiRequired(instance: object, mode: MissingKeys): readonly string[] {
  const endpoints = new Registry({ errorOnMissingKeys: mode, onWarning: () => {} }).on(instance).endpoints;
  const document = openApi(endpoints, { prefix: '', info: { title: 'echo', version: '1' } }) as unknown as {
    paths: Record<string, { get: { parameters: { name: string; required: boolean }[] } }>;
  };
  return document.paths['/getEcho']!.get.parameters.filter((p) => p.required)
    .map((p) => p.name)
    .sort();
}

describe('protocols: one reading rule for arguments in a query, a JSON-RPC call and an MCP tool call (property)', () => {
  it('accepts and refuses the same arguments, and says the same keys are required', async () => {
    await fc.assert(
      fc.asyncProperty(arbCase, async ({ mode, shapes, args }) => {
        const instance = echoService(shapes);
        const refusal = shapes.findIndex((s) => refusedAtOn(s, mode));
        if (refusal >= 0) {
          expect(
            () => new Registry({ errorOnMissingKeys: mode }).on(instance),
            `${shapes[refusal]!.label} under ${String(mode)}`,
          ).to.throw(TypeError, new RegExp(`'${NAMES[refusal]}'.*empty array`));
          // JSON-RPC and MCP carry the empty array: nothing to refuse there.
          new Registry({ errorOnMissingKeys: mode, onWarning: () => {} }, MCP).on(instance);
          return;
        }
        const three = threeRegistries(instance, { errorOnMissingKeys: mode });
        const byName: Record<string, unknown> = {};
        const query: string[] = [];
        args.forEach((arg, i) => {
          if (arg === undefined) return;
          byName[NAMES[i]!] = arg.json;
          for (const text of arg.query) query.push(`${NAMES[i]}=${encodeURIComponent(text)}`);
        });
        const rest = sameOutcome(await restCall(three.rest, 'GET', `/getEcho?${query.join('&')}`));
        const where = `${shapes.map((s) => s.label).join(', ')} under ${String(mode)}, ${JSON.stringify(byName)}`;
        expect(sameOutcome(await rpcCall(three.rpc, 'getEcho', byName)), `JSON-RPC: ${where}`).to.deep.equal(rest);
        expect(sameOutcome(await mcpCall(three.mcp, 'getEcho', byName)), `MCP: ${where}`).to.deep.equal(rest);
        const requiredKeys = shapes
          .map((s, i) => (required(s, mode) ? NAMES[i]! : undefined))
          .filter((n) => n !== undefined)
          .sort();
        expect(openApiRequired(instance, mode), `OpenAPI: ${where}`).to.deep.equal(requiredKeys);
        expect(await mcpRequired(instance, mode), `MCP inputSchema: ${where}`).to.deep.equal(requiredKeys);
      }),
      { numRuns: 300 },
    );
  });

  it('reads an absent optional array as absent and a defaulted one as its default, over REST as over JSON-RPC', async () => {
    const instance = echoService([SHAPES[5]!, SHAPES[4]!]);
    const three = threeRegistries(instance, { errorOnMissingKeys: 'unless-default' });
    const want = { ok: true, value: '{"b":[]}' };
    expect(await restCall(three.rest, 'GET', '/getEcho')).to.deep.equal(want);
    expect(await rpcCall(three.rpc, 'getEcho', {})).to.deep.equal(want);
    expect(await restCall(three.rest, 'GET', '/getEcho?a=1&a=2&b=3')).to.deep.equal({
      ok: true,
      value: '{"a":[1,2],"b":[3]}',
    });
  });

  it('refuses at on() a required array a query cannot leave empty, saying what to write instead', () => {
    class Tags {
      getTagged() {
        return '';
      }
    }
    meta(Tags, service({ getTagged: method({ tags: t.array(t.string()) }, t.string()) }));
    expect(() => new Registry({ errorOnMissingKeys: true }).on(new Tags())).to.throw(
      TypeError,
      /Tags\.getTagged: the query parameter 'tags' is required.*empty array.*t\.optional\(t\.array/,
    );
    expect(() => new Registry({ errorOnMissingKeys: 'unless-default' }).on(new Tags())).to.throw(
      TypeError,
      /\.default\(\[\]\)/,
    );
    expect(() => new Registry().on(new Tags())).not.to.throw();
  });
});
