// An MCP registry on both transports, used by the official MCP SDK client (Client with its
// Streamable HTTP transport): the handshake, the tool list, calls with good and bad arguments,
// failures as tool results, an unknown tool, a tool behind bearer auth, and what onResponse sees.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { json } from '../../../codecs/json/index.ts';
import { MCP, Registry, type RegistryOptions } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { FORBIDDEN, NOTE, Note, Notes, TOKEN, TOOL_NAMES, observers } from './notes-service.ts';

type Text = { type: 'text'; text: string };

/** A connected SDK client of the MCP endpoint at `url`, sending `headers` with every request, or sending through `fetch`. */
async function connect(
  url: string,
  headers: Record<string, string> = {},
  fetch?: typeof globalThis.fetch,
): Promise<Client> {
  const client = new Client({ name: 'lacquer-spec', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers },
      ...(fetch === undefined ? {} : { fetch }),
    }),
  );
  return client;
}

/** The one text content item of a tool result. */
function textOf(result: object): string {
  const content = (result as { content: Text[] }).content;
  expect(content).to.have.length(1);
  expect(content[0]!.type).to.equal('text');
  return content[0]!.text;
}

/** The JSON of `note`, as lacquer writes it. */
const noteJson = (note: Note): unknown => JSON.parse(json.encode(Note, note) as string);

for (const transport of TRANSPORTS) {
  describe(`transports: MCP registries with the MCP SDK client (${transport.kind})`, () => {
    let served: Served;
    let notes: Notes;
    let seen: ReturnType<typeof observers>;
    let url: string;
    const clients: Client[] = [];
    const serve = async (options: RegistryOptions = {}) => {
      await served?.stop();
      notes = new Notes();
      seen = observers();
      served = await transport.serve('/mcp', new Registry({ ...seen.options, ...options }, MCP).on(notes).endpoints);
      url = `${served.url}/mcp`;
    };
    const client = async (headers: Record<string, string> = {}) => {
      const c = await connect(url, headers);
      clients.push(c);
      return c;
    };
    beforeEach(() => serve({ mcp: { name: 'notes', version: '2.1.0', instructions: 'Keep notes short.' } }));
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await served.stop();
    });

    it('connects: the newest protocol version, the tools capability, serverInfo and instructions', async () => {
      const c = await client();
      expect(c.getServerVersion()).to.deep.equal({ name: 'notes', version: '2.1.0' });
      expect(c.getServerCapabilities()).to.deep.equal({ tools: { listChanged: false } });
      expect(c.getInstructions()).to.equal('Keep notes short.');
      expect((c.transport as StreamableHTTPClientTransport).protocolVersion).to.equal(LATEST_PROTOCOL_VERSION);
      await c.ping();
    });

    it('lists every method that can be a tool, and warns of the one left out', async () => {
      const { tools } = await (await client()).listTools();
      expect(tools.map((tool) => tool.name)).to.deep.equal(TOOL_NAMES);
      expect(seen.warnings).to.deep.equal([
        'Registry.on(): Notes.pair is left out of this MCP registry: an MCP tool takes its arguments as one object: give the method named parameters, or one object parameter',
      ]);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('getNote')!.description).to.equal('One note by its id.');
      expect(byName.get('count')!.description).to.equal('How many notes there are.');
      expect(byName.get('touch')!.description).to.equal('Notes.touch');
      const getNoteInput = byName.get('getNote')!.inputSchema as { type: string; properties: Record<string, object> };
      expect(getNoteInput.type).to.equal('object');
      expect(getNoteInput.properties.id).to.include({ type: 'integer', minimum: 0 });
      // A named object is a reference, and still says it is an object.
      expect(byName.get('addNote')!.inputSchema).to.deep.include({ type: 'object', $ref: '#/$defs/NewNote' });
      expect(byName.get('getNote')!.outputSchema).to.deep.include({ type: 'object', $ref: '#/$defs/Note' });
      expect(byName.get('count')).not.to.have.property('outputSchema');
      expect(byName.get('touch')).not.to.have.property('outputSchema');
    });

    it("calls a tool: structuredContent is the value's JSON and the text content the same JSON", async () => {
      const c = await client();
      const result = await c.callTool({ name: 'getNote', arguments: { id: 5 } });
      expect(result.isError).to.equal(undefined);
      expect(result.structuredContent).to.deep.equal(noteJson({ ...NOTE, id: 5n }));
      expect(JSON.parse(textOf(result))).to.deep.equal(result.structuredContent);
      const added = await c.callTool({ name: 'addNote', arguments: { title: 'Call Ada' } });
      expect(added.structuredContent).to.deep.equal(noteJson({ ...NOTE, id: 8n, title: 'Call Ada', tags: [] }));
      expect(notes.calls).to.deep.equal(['getNote 5', 'addNote Call Ada']);
    });

    it('calls a tool without an object return: text only; t.void() gives no content', async () => {
      const c = await client();
      const count = await c.callTool({ name: 'count', arguments: {} });
      expect(count).not.to.have.property('structuredContent');
      expect(textOf(count)).to.equal('3');
      const touched = await c.callTool({ name: 'touch' });
      expect(touched.content).to.deep.equal([]);
      expect(notes.calls).to.deep.equal(['touch']);
    });

    it('answers bad arguments with a tool result, isError, each error at its path in the text; the method never runs', async () => {
      const c = await client();
      const result = await c.callTool({ name: 'addNote', arguments: { title: '', tags: ['a', 2] } });
      expect(result.isError).to.equal(true);
      expect(result).not.to.have.property('structuredContent');
      const text = textOf(result);
      expect(text).to.match(/^400 Bad Request\n/);
      expect(text).to.contain('/title: ');
      expect(text).to.contain('/tags/1: ');
      const negative = textOf(await c.callTool({ name: 'getNote', arguments: { id: -1 } }));
      expect(negative).to.contain('/id: ');
      expect(notes.calls).to.deep.equal([]);
    });

    it('answers a method that throws with isError, its message hidden, the request id given, and onError told', async () => {
      const result = await (await client()).callTool({ name: 'crash', arguments: {} });
      expect(result.isError).to.equal(true);
      const text = textOf(result);
      expect(text).to.match(/^500 Internal Server Error: The server failed to handle the request\. \(request [^)]+\)$/);
      expect(text).not.to.contain('fire');
      expect(seen.errors.map((e) => [e.context.method, e.context.status, (e.error as Error).message])).to.deep.equal([
        ['crash', 500, 'the disk is on fire'],
      ]);
    });

    it("answers an HttpError with isError and its problem; a value the return cannot write as the server's fault", async () => {
      const c = await client();
      const missing = await c.callTool({ name: 'getNote', arguments: { id: 0 } });
      expect(missing.isError).to.equal(true);
      expect(textOf(missing)).to.equal('404 Not Found: no note 0');
      const broken = await c.callTool({ name: 'broken', arguments: {} });
      expect(broken.isError).to.equal(true);
      expect(textOf(broken)).to.match(/^500 /);
      expect(seen.errors.map((e) => [e.context.method, e.context.status])).to.deep.equal([
        ['getNote', 404],
        ['broken', 500],
      ]);
    });

    it('answers an unknown tool with the JSON-RPC error -32602', async () => {
      const error = await (await client()).callTool({ name: 'deleteNote', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.have.property('code', -32602);
      expect((error as Error).message).to.equal("MCP error -32602: there is no tool 'deleteNote'");
    });

    it('refuses a secured tool with 401 without a token and 403 for a token refused, and calls it with a good one', async () => {
      // Listing needs no credentials: the list says what exists, each call is checked.
      const anonymous = await client();
      expect((await anonymous.listTools()).tools.map((tool) => tool.name)).to.include('whoAmI');
      const refused = await anonymous.callTool({ name: 'whoAmI', arguments: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refused).to.have.property('code', 401);
      const forbidden = await (await client({ authorization: `Bearer ${FORBIDDEN}` }))
        .callTool({ name: 'whoAmI', arguments: {} })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(forbidden).to.have.property('code', 403);
      const admitted = await (await client({ authorization: `Bearer ${TOKEN}` })).callTool({
        name: 'whoAmI',
        arguments: {},
      });
      expect(admitted.structuredContent).to.deep.equal({ name: 'ada' });
    });

    it('tells onResponse of each tools/call, with the status its problem has', async () => {
      const c = await client();
      await c.listTools();
      await c.callTool({ name: 'getNote', arguments: { id: 1 } });
      await c.callTool({ name: 'getNote', arguments: { id: 0 } });
      await c.callTool({ name: 'getNote', arguments: { id: -1 } });
      await c.callTool({ name: 'whoAmI', arguments: {} }).catch(() => undefined);
      expect(seen.responses.map((r) => [r.call.method, r.status, r.prefix])).to.deep.equal([
        ['getNote', 200, '/mcp'],
        ['getNote', 404, '/mcp'],
        ['getNote', 400, '/mcp'],
        ['whoAmI', 401, '/mcp'],
      ]);
    });
  });
}

describe('transports: MCP registries with the MCP SDK client sending through a fetch handler', () => {
  it("connects, lists and calls with the handler as the transport's fetch (no network, as in a Worker)", async () => {
    const handler = toFetchHandler('/mcp', new Registry(observers().options, MCP).on(new Notes()).endpoints);
    const c = await connect('http://worker.example/mcp', {}, (input, init) =>
      Promise.resolve(handler(new Request(input, init))),
    );
    try {
      expect((await c.listTools()).tools.map((tool) => tool.name)).to.include('getNote');
      const result = await c.callTool({ name: 'getNote', arguments: { id: 9 } });
      expect(result.structuredContent).to.deep.equal(noteJson({ ...NOTE, id: 9n }));
    } finally {
      await c.close();
    }
  });
});
