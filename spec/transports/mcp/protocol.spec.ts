// An MCP registry's HTTP side on both transports, by hand: the Origin and MCP-Protocol-Version
// checks, version negotiation, what is accepted without an answer (notifications, responses),
// what is refused (batches, GET, messages that are no request), and MessagePack and CBOR bodies
// carrying the same messages as JSON.
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { decode as cborDecode, encode as cborEncode } from 'cbor-x';
import { expect } from 'chai';
import { MCP, Registry, RpcCode, meta, method, service, t, type RegistryOptions } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { MCP_PROTOCOL_VERSIONS } from '../../../transports/mcp/protocol-version.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send, type Reply } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { Notes, observers } from './notes-service.ts';

/** What MCP clients send with every message. */
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const initialize = (protocolVersion: unknown, id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'spec', version: '1' } },
});

describe('transports: MCP protocol versions', () => {
  it('are those the MCP SDK client offers, newest first', () => {
    expect(MCP_PROTOCOL_VERSIONS).to.deep.equal(SUPPORTED_PROTOCOL_VERSIONS);
  });
});

for (const transport of TRANSPORTS) {
  describe(`transports: MCP registries over HTTP (${transport.kind})`, () => {
    let served: Served;
    let notes: Notes;
    let url: string;
    const serve = async (options: RegistryOptions = {}) => {
      await served?.stop();
      notes = new Notes();
      served = await transport.serve(
        '/mcp',
        new Registry({ ...observers().options, ...options }, MCP).on(notes).endpoints,
      );
      url = `${served.url}/mcp`;
    };
    beforeEach(() => serve({ mcp: { origins: ['https://app.example'] } }));
    afterEach(() => served.stop());

    /** Posts `body` as JSON with the headers of an MCP client and `headers`. */
    const post = (body: unknown, headers: Record<string, string> = {}, path = ''): Promise<Reply> =>
      send(url + path, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    describe('Origin', () => {
      it('serves a listed origin and a request without Origin', async () => {
        for (const headers of [{ origin: 'https://app.example' }, {}]) {
          const reply = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers);
          expect(reply.status).to.equal(200);
          expect(reply.json()).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
        }
      });

      it('refuses any other origin with a 403 problem before the message is read, the tool never run', async () => {
        for (const origin of ['https://evil.example', 'http://app.example', 'null', 'https://app.example.evil']) {
          const reply = await post(
            { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'touch' } },
            { origin },
          );
          expect(reply.status, origin).to.equal(403);
          expect(reply.headers['content-type']).to.equal('application/problem+json');
          expect(reply.json()).to.include({ status: 403, title: 'Forbidden' });
          expect(reply.headers['x-request-id']).to.be.a('string');
        }
        expect(notes.calls).to.deep.equal([]);
      });

      it('refuses every origin when none is listed', async () => {
        await serve();
        expect(
          (await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://localhost:3000' })).status,
        ).to.equal(403);
        expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' })).status).to.equal(200);
      });
    });

    describe('MCP-Protocol-Version', () => {
      it('serves each supported version, and a request without the header (2025-03-26)', async () => {
        for (const version of [...MCP_PROTOCOL_VERSIONS, undefined]) {
          const reply = await post(
            { jsonrpc: '2.0', id: 1, method: 'tools/list' },
            version === undefined ? {} : { 'mcp-protocol-version': version },
          );
          expect(reply.status, version).to.equal(200);
          expect(reply.json().result.tools).to.have.length(7);
        }
      });

      it('refuses an unsupported version with a 400 problem naming the supported ones', async () => {
        const reply = await post(
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'touch' } },
          { 'mcp-protocol-version': '2099-01-01' },
        );
        expect(reply.status).to.equal(400);
        expect(reply.json().detail).to.contain('2099-01-01').and.contain('2025-06-18');
        expect(notes.calls).to.deep.equal([]);
      });

      it('initialize answers the version the client asks when supported, else the newest', async () => {
        expect((await post(initialize('2024-11-05'))).json().result.protocolVersion).to.equal('2024-11-05');
        const newest = (await post(initialize('2031-01-01'))).json();
        expect(newest.result).to.deep.equal({
          protocolVersion: MCP_PROTOCOL_VERSIONS[0],
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: 'lacquer', version: '1.0.0' },
        });
        const missing = (await post({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} })).json();
        expect(missing.error).to.include({ code: RpcCode.invalidParams });
      });
    });

    describe('messages', () => {
      it('accepts notifications and responses with 202 and no body', async () => {
        for (const message of [
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
          { jsonrpc: '2.0', method: 'tools/call', params: { name: 'touch' } },
          { jsonrpc: '2.0', id: 5, result: {} },
          { jsonrpc: '2.0', id: 6, error: { code: -1, message: 'no' } },
        ]) {
          const reply = await post(message);
          expect(reply.status, JSON.stringify(message)).to.equal(202);
          expect(reply.body.length).to.equal(0);
        }
        // A notification asks for nothing: no tool runs.
        expect(notes.calls).to.deep.equal([]);
      });

      it('refuses a batch with 400 and -32600: MCP takes one message per request', async () => {
        const reply = await post([
          { jsonrpc: '2.0', id: 1, method: 'ping' },
          { jsonrpc: '2.0', id: 2, method: 'ping' },
        ]);
        expect(reply.status).to.equal(400);
        expect(reply.json()).to.deep.include({ jsonrpc: '2.0', id: null });
        expect(reply.json().error.code).to.equal(RpcCode.invalidRequest);
      });

      it('answers a body that does not parse with 400 and -32700, and a message that is no request with 400 and -32600', async () => {
        const parse = await post('{"jsonrpc": "2.0", "id": 1, "method": "ping"');
        expect(parse.status).to.equal(400);
        expect(parse.json().error.code).to.equal(RpcCode.parseError);
        for (const message of [
          { jsonrpc: '1.0', id: 1, method: 'ping' },
          { jsonrpc: '2.0', id: 1, method: 7 },
          'null',
          '"ping"',
        ]) {
          const reply = await post(message);
          expect(reply.status, JSON.stringify(message)).to.equal(400);
          expect(reply.json().error.code).to.equal(RpcCode.invalidRequest);
        }
      });

      it('answers an unknown method with -32601, and tools/call without a name or with arguments that are no object with -32602', async () => {
        const unknown = (await post({ jsonrpc: '2.0', id: 'a', method: 'resources/list' })).json();
        expect(unknown).to.deep.include({ id: 'a' });
        expect(unknown.error.code).to.equal(RpcCode.methodNotFound);
        for (const params of [
          undefined,
          {},
          { name: 7 },
          { name: 'getNote', arguments: [5] },
          { name: 'getNote', arguments: 'id=5' },
        ]) {
          const reply = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params });
          expect(reply.status).to.equal(200);
          expect(reply.json().error.code, JSON.stringify(params)).to.equal(RpcCode.invalidParams);
        }
        expect(notes.calls).to.deep.equal([]);
      });

      it('reads a 64-bit argument past 2^53 exactly, and writes it back exactly in text and structuredContent', async () => {
        const reply = await post(
          '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"getNote","arguments":{"id":18446744073709551615}}}',
        );
        expect(notes.calls).to.deep.equal(['getNote 18446744073709551615']);
        expect(reply.text).to.contain('"structuredContent":{"id":18446744073709551615,');
        expect(reply.json().result.content[0].text).to.match(/^\{"id":18446744073709551615,/);
      });

      it('answers in JSON, never an event stream, and 406 to a client accepting only event streams', async () => {
        const reply = await post({ jsonrpc: '2.0', id: 1, method: 'ping' });
        expect(reply.headers['content-type']).to.equal('application/json');
        expect(reply.headers['mcp-session-id']).to.equal(undefined);
        expect(
          (await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'text/event-stream' })).status,
        ).to.equal(406);
      });

      it('answers GET with 405 and Allow: POST, at the mount path and below it', async () => {
        for (const path of ['', '/']) {
          const reply = await send(url + path, { headers: { accept: 'text/event-stream' } });
          expect(reply.status).to.equal(405);
          expect(reply.headers.allow).to.equal('POST');
        }
        expect((await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, {}, '/')).status).to.equal(200);
      });
    });

    describe('MessagePack and CBOR', () => {
      const formats = [
        {
          type: 'application/msgpack',
          encode: (v: unknown) => msgpackEncode(v),
          decode: (b: Uint8Array) => msgpackDecode(b, { useBigInt64: false }),
        },
        { type: 'application/cbor', encode: (v: unknown) => cborEncode(v), decode: (b: Uint8Array) => cborDecode(b) },
      ];
      const messages = [
        initialize('2025-06-18'),
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'getNote', arguments: { id: 12 } } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'count', arguments: {} } },
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'addNote', arguments: { title: '' } } },
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'nothing' } },
      ];
      for (const format of formats) {
        it(`carries the same messages as JSON in ${format.type}`, async () => {
          for (const message of messages) {
            const inJson = (await post(message)).json();
            const reply = await send(url, {
              method: 'POST',
              headers: { 'content-type': format.type, accept: format.type },
              body: format.encode(message),
            });
            expect(reply.status).to.equal(200);
            expect(reply.headers['content-type']).to.equal(format.type);
            expect(format.decode(new Uint8Array(reply.body)), message.method).to.deep.equal(inJson);
          }
        });
      }
    });
  });
}

describe('transports: MCP registries whose tools cannot be described', () => {
  it('refuse at on() a method whose schema cannot be made, naming it and why, registering nothing of the service', async () => {
    const A = t.object({ a: t.i8() }, { name: 'Thing' });
    const B = t.object({ b: t.i8() }, { name: 'Thing' });
    class Things {
      one({ a }: { a: { a: number } }): number {
        return a.a;
      }
      both({ a, b }: { a: { a: number }; b: { b: number } }): number {
        return a.a + b.b;
      }
    }
    meta(Things, service({ one: method({ a: A }, t.i32()), both: method({ a: A, b: B }, t.i32()) }));
    const registry = new Registry({}, MCP);
    expect(() => registry.on(new Things())).to.throw(
      TypeError,
      "Things.both cannot be an MCP tool: jsonSchema(): two different objects are named 'Thing'",
    );
    const handler = toFetchHandler('/mcp', registry.endpoints);
    const listed = await (
      await handler(
        new Request('http://x/mcp', {
          method: 'POST',
          headers: MCP_HEADERS,
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        }),
      )
    ).json();
    expect(listed.result.tools).to.deep.equal([]);
  });
});

describe('transports: MCP registries given a service after they serve', () => {
  it('list the tools of a service registered after the first tools/list', async () => {
    class Clock {
      now(): { at: Date } {
        return { at: new Date(0) };
      }
    }
    meta(Clock, service({ now: method([], t.object({ at: t.timestamp() })) }));
    const registry = new Registry({ ...observers().options }, MCP).on(new Notes());
    const handler = toFetchHandler('/mcp', registry.endpoints);
    const names = async () => {
      const response = await handler(
        new Request('http://x/mcp', {
          method: 'POST',
          headers: MCP_HEADERS,
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        }),
      );
      return ((await response.json()).result.tools as { name: string }[]).map((tool) => tool.name);
    };
    expect(await names()).not.to.include('now');
    registry.on(new Clock());
    expect(await names()).to.include('now');
  });
});
