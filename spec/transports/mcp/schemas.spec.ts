// A property over generated contracts: every tool's inputSchema and outputSchema compiles as JSON
// Schema 2020-12 and says `type: 'object'` at its top, the JSON of valid arguments validates
// against the inputSchema, and every structuredContent validates against its outputSchema and is
// the JSON of the value, as the text content is.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import fc from 'fast-check';
import { json } from '../../../codecs/json/index.ts';
import { MCP, Registry, meta, method, service, t, type Type } from '../../../index.ts';
import { isObjectType } from '../../../transports/protocol/call/message-arguments.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { arbDescriptor, arbValueOf } from '../../support/arbitraries.ts';

const ajv = new Ajv2020({ strict: false, ownProperties: true, validateFormats: true, allErrors: false });
addFormats.default(ajv, ['email', 'uuid', 'uri', 'date-time']);

/** A method's arguments: named parameters, or one parameter whose values are objects. */
const arbParams: fc.Arbitrary<Record<string, Type> | [Type]> = fc.oneof(
  fc.dictionary(fc.constantFrom('id', 'name', 'x y', 'constructor', 'ü'), arbDescriptor, { maxKeys: 3 }),
  arbDescriptor.filter(isObjectType).map((type): [Type] => [type]),
);

/** A contract of one tool, the JSON of valid arguments, and a value of its return. */
const arbTool = fc
  .record({
    params: arbParams,
    returns: fc.oneof({ weight: 6, arbitrary: arbDescriptor }, { weight: 1, arbitrary: fc.constant(t.void()) }),
  })
  .chain(({ params, returns }) => {
    const argumentObject: Type = Array.isArray(params) ? params[0] : t.object(params);
    return fc.record({
      params: fc.constant(params),
      returns: fc.constant(returns),
      argumentObject: fc.constant(argumentObject),
      args: arbValueOf(argumentObject),
      value: arbValueOf(returns),
    });
  });

/** Whether `tree` holds a number JSON.parse could not keep exactly (a 64-bit integer past 2^53): a validator sees another number. */
function inexact(tree: unknown): boolean {
  if (typeof tree === 'number') return !Number.isSafeInteger(tree) && Number.isInteger(tree);
  if (typeof tree !== 'object' || tree === null) return false;
  return Object.values(tree).some(inexact);
}

/** Posts one message to `handler` and reads the JSON answer. */
async function call(handler: (request: Request) => Response | Promise<Response>, body: string): Promise<any> {
  const response = await handler(
    new Request('http://tools.example/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    }),
  );
  expect(response.status).to.equal(200);
  return response.json();
}

describe('transports: MCP tool schemas (property)', () => {
  it('compile as JSON Schema 2020-12, accept the arguments, and every structuredContent validates against its outputSchema', async () => {
    await fc.assert(
      fc.asyncProperty(arbTool, async ({ params, returns, argumentObject, args, value }) => {
        class Tools {
          tool(): unknown {
            return value;
          }
        }
        meta(Tools as never, service({ tool: method(params as never, returns) }));
        const handler = toFetchHandler('/mcp', new Registry({}, MCP).on(new Tools()).endpoints);

        const { tools } = (await call(handler, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).result;
        expect(tools).to.have.length(1);
        const [tool] = tools;
        expect(tool.inputSchema.type).to.equal('object');
        const input = ajv.compile(tool.inputSchema);
        const argsText = json.encode(argumentObject, args as never) as string;
        const argsTree = JSON.parse(argsText);
        if (!inexact(argsTree)) expect(input(argsTree), JSON.stringify(input.errors)).to.equal(true);

        const answer = await call(
          handler,
          `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tool","arguments":${argsText}}}`,
        );
        const { result } = answer;
        expect(result.isError, JSON.stringify(result)).to.equal(undefined);
        if (returns.kind === 'void') {
          expect(result).to.deep.equal({ content: [] });
          return;
        }
        const text = json.encode(returns, value as never) as string;
        expect(result.content).to.deep.equal([{ type: 'text', text }]);
        if (!isObjectType(returns)) {
          expect(tool).not.to.have.property('outputSchema');
          expect(result).not.to.have.property('structuredContent');
          return;
        }
        expect(tool.outputSchema.type).to.equal('object');
        const output = ajv.compile(tool.outputSchema);
        expect(result.structuredContent).to.deep.equal(JSON.parse(text));
        if (!inexact(result.structuredContent))
          expect(output(result.structuredContent), JSON.stringify(output.errors)).to.equal(true);
      }),
      { numRuns: 150 },
    );
  });
});
