// A JSON-RPC 2.0 registry on both transports, called by a JSON-RPC client library we did not write
// (json-rpc-2.0 from npm) and by hand: results, each error code with its problem document, batches,
// notifications, security per call, MessagePack and CBOR bodies written by other libraries, and
// what the registry's hooks are told.
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { decode as cborDecode, encode as cborEncode } from 'cbor-x';
import { expect } from 'chai';
import { JSONRPCClient, JSONRPCErrorException, type JSONRPCRequest } from 'json-rpc-2.0';
import { JSONRPC, Registry, RpcCode, meta, method, service, t, type RegistryOptions } from '../../../index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send, type Reply } from '../../support/http-client.ts';
import { until } from '../../support/until.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { BOOK, FORBIDDEN, Library, TOKEN, observers } from './library-service.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

for (const transport of TRANSPORTS) {
  describe(`transports: JSON-RPC registries (${transport.kind})`, () => {
    let served: Served;
    let library: Library;
    let seen: ReturnType<typeof observers>;
    let rpcUrl: string;
    const serve = async (options: RegistryOptions = {}) => {
      await served?.stop();
      library = new Library();
      seen = observers();
      served = await transport.serve(
        '/rpc',
        new Registry({ ...seen.options, ...options }, JSONRPC).on(library).endpoints,
      );
      rpcUrl = `${served.url}/rpc`;
    };
    beforeEach(() => serve());
    afterEach(() => served.stop());

    /** Posts `body` as JSON and reads the answer. */
    const post = (body: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
      send(rpcUrl, {
        method: 'POST',
        headers: { ...JSON_TYPE, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    /** A client of the json-rpc-2.0 library, sending over `fetch` with `headers`. */
    const libraryClient = (headers: Record<string, string> = {}) => {
      const client: JSONRPCClient = new JSONRPCClient(async (request) => {
        const response = await fetch(rpcUrl, {
          method: 'POST',
          headers: { ...JSON_TYPE, ...headers },
          body: JSON.stringify(request),
        });
        if (response.status === 200) client.receive(await response.json());
        else if (response.status !== 204) throw new Error(`HTTP ${response.status}`);
      });
      return client;
    };

    describe('with a JSON-RPC client library', () => {
      it('calls a method with named parameters, and one with positional ones', async () => {
        const client = libraryClient();
        expect(await client.request('getBook', { id: 7 })).to.deep.equal({
          id: 7,
          title: 'Dune',
          cover: 'AAH+/w==',
          added: '2024-02-29T12:00:00.000Z',
        });
        expect(await client.request('getBook', [8])).to.include({ id: 8 });
        expect(await client.request('pair', ['a', 1])).to.equal('a:1');
        expect(await client.request('touch', undefined)).to.equal(null);
      });

      it('receives -32602 with the read errors and their paths in data', async () => {
        const client = libraryClient();
        const error = await client.request('renameBook', { id: 1, patch: { title: '' } }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(JSONRPCErrorException);
        const { code, message, data } = error as JSONRPCErrorException;
        expect({ code, message }).to.deep.equal({ code: RpcCode.invalidParams, message: 'Invalid params' });
        expect(data).to.include({ status: 400, path: '/patch/title' });
        expect(library.calls).to.deep.equal([]);
      });

      it('receives -32601 for a method the registry lacks, and -32000 with the problem for an HttpError', async () => {
        const client = libraryClient();
        const missing = await client.request('deleteBook', { id: 1 }).then(
          () => undefined,
          (e: JSONRPCErrorException) => e,
        );
        expect(missing).to.include({ code: RpcCode.methodNotFound, message: 'Method not found' });
        const notFound = await client.request('getBook', { id: 0 }).then(
          () => undefined,
          (e: JSONRPCErrorException) => e,
        );
        expect(notFound).to.include({ code: RpcCode.serverError, message: 'no book 0' });
        expect(notFound!.data).to.include({ status: 404, title: 'Not Found', detail: 'no book 0' });
      });

      it('receives -32603 for a failure, its message hidden and the request id given, and onError told', async () => {
        const failed = await libraryClient()
          .request('crash', undefined)
          .then(
            () => undefined,
            (e: JSONRPCErrorException) => e,
          );
        expect(failed).to.include({ code: RpcCode.internalError, message: 'Internal error' });
        expect(JSON.stringify(failed!.data)).not.to.contain('fire');
        expect(failed!.data).to.have.property('requestId').that.is.a('string');
        expect(seen.errors.map((e) => [e.context.method, e.context.status, (e.error as Error).message])).to.deep.equal([
          ['crash', 500, 'the disk is on fire'],
        ]);
      });

      it("shows a failure's message with exposeErrors", async () => {
        await serve({ exposeErrors: true });
        const failed = await libraryClient()
          .request('crash', undefined)
          .then(
            () => undefined,
            (e: JSONRPCErrorException) => e,
          );
        expect(failed!.data).to.include({ detail: 'the disk is on fire' });
      });

      it('receives -32602 for an InvalidArgument the method throws', async () => {
        const refused = await libraryClient()
          .request('refuse', [3])
          .then(
            () => undefined,
            (e: JSONRPCErrorException) => e,
          );
        expect(refused).to.include({ code: RpcCode.invalidParams });
        expect(refused!.data).to.include({ status: 400, detail: '3 is not a good number' });
      });

      it('sends a batch and matches each answer to its call by id', async () => {
        const client = libraryClient();
        const requests: JSONRPCRequest[] = [
          { jsonrpc: '2.0', method: 'getBook', params: { id: 1 }, id: 10 },
          { jsonrpc: '2.0', method: 'touch' },
          { jsonrpc: '2.0', method: 'getBook', params: { id: 0 }, id: 11 },
          { jsonrpc: '2.0', method: 'pair', params: ['x', 300], id: 12 },
        ];
        const answers = await client.requestAdvanced(requests);
        const byId = new Map(answers.map((a) => [a.id, a]));
        expect(answers).to.have.length(3);
        expect(byId.get(10)).to.have.nested.property('result.id', 1);
        expect(byId.get(11)).to.have.nested.property('error.code', RpcCode.serverError);
        expect(byId.get(12)).to.have.nested.property('error.data.path', '/1');
        expect(library.calls).to.have.members(['getBook 1', 'touch', 'getBook 0']);
      });
    });

    describe('batches', () => {
      it('answers a batch of notifications only with 204 and no body, having run them', async () => {
        const reply = await post([
          { jsonrpc: '2.0', method: 'touch' },
          { jsonrpc: '2.0', method: 'touch' },
        ]);
        expect(reply.status).to.equal(204);
        expect(reply.text).to.equal('');
        expect(library.calls).to.deep.equal(['touch', 'touch']);
      });

      it('runs the calls of a batch at once, not one after another', async () => {
        const calls = [30, 20, 10].map((ms, id) => ({ jsonrpc: '2.0', method: 'later', params: [ms], id }));
        const reply = await post(calls);
        expect(library.mostAtOnce).to.equal(3);
        expect(
          reply
            .json()
            .map((a: { result: number }) => a.result)
            .sort(),
        ).to.deep.equal([10, 20, 30]);
      });

      it('refuses a batch over maxBatch with one Invalid Request, running none of it', async () => {
        await serve({ maxBatch: 3 });
        const batch = (n: number) =>
          Array.from({ length: n }, (_, id) => ({ jsonrpc: '2.0', method: 'getBook', params: { id: 1 }, id }));
        expect((await post(batch(3))).json()).to.have.length(3);
        const over = await post(batch(4));
        expect(over.json()).to.deep.include({ id: null });
        expect(over.json().error).to.include({ code: RpcCode.invalidRequest });
        expect(over.json().error.data.detail).to.contain('maxBatch');
        expect(library.calls).to.have.length(3);
      });

      it('runs at most 8 calls of one batch at once, in order, so that one request cannot start 100 slow methods', async () => {
        const calls = Array.from({ length: 20 }, (_, id) => ({ jsonrpc: '2.0', method: 'later', params: [20], id }));
        const reply = await post(calls);
        expect(reply.json().map((a: { id: number }) => a.id)).to.deep.equal(Array.from({ length: 20 }, (_, id) => id));
        expect(library.mostAtOnce).to.equal(8);
      });

      describe('a batch whose message was answered at its timeout', () => {
        let reports: string[];
        let batchEnded: Promise<void>;
        /** Serves the library with `handlerTimeoutMs`; `batchEnded` settles once a batch's reports came. */
        const serveHeld = async (handlerTimeoutMs: number) => {
          await served.stop();
          library = new Library();
          reports = [];
          let reported!: () => void;
          batchEnded = new Promise<void>((resolve) => (reported = resolve));
          // The reports of a batch come together, once its last started call has ended.
          const onResponse = (report: { call: { method: string }; status: number }) => {
            reports.push(`${report.call.method} ${report.status}`);
            reported();
          };
          served = await transport.serve(
            '/rpc',
            new Registry({ ...observers().options, onResponse }, JSONRPC).on(library).endpoints,
            { handlerTimeoutMs, onError: () => {} },
          );
          rpcUrl = `${served.url}/rpc`;
        };
        const heldBatch = Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', method: 'held', id }));

        it('starts no further call of it', async () => {
          await serveHeld(50);
          const reply = await post(heldBatch);
          expect(reply.status).to.equal(503);
          await batchEnded;
          expect(library.heldStarted).to.equal(8);
          expect(reports).to.deep.equal(Array.from({ length: 8 }, () => 'held 503'));
        });
      });

      it('refuses a maxBatch that is not a positive integer', () => {
        for (const maxBatch of [0, -1, 1.5, Number.NaN])
          expect(() => new Registry({ maxBatch }, JSONRPC)).to.throw(RangeError, 'maxBatch');
      });
    });

    describe('read errors', () => {
      it('names the path of every argument that does not read, in params', async () => {
        const reply = await post({
          jsonrpc: '2.0',
          method: 'addBook',
          params: [{ id: -1, title: '', cover: 'AAH+/w==', added: 'yesterday' }],
          id: 1,
        });
        expect(reply.json().error.code).to.equal(RpcCode.invalidParams);
        expect(reply.json().error.data.errors.map((e: { path: string }) => e.path)).to.have.members([
          '/0/id',
          '/0/title',
          '/0/added',
        ]);
      });

      it('takes the one object parameter as the params object itself', async () => {
        const book = { id: 5, title: 'Emma', cover: '', added: '2024-01-01T00:00:00Z' };
        const reply = await post({ jsonrpc: '2.0', method: 'addBook', params: book, id: 1 });
        expect(reply.json().result).to.deep.equal({ ...book, added: '2024-01-01T00:00:00.000Z' });
        const wrong = await post({ jsonrpc: '2.0', method: 'addBook', params: { ...book, title: '' }, id: 1 });
        expect(wrong.json().error.data.path).to.equal('/title');
      });

      it('answers -32602 for params missing, of the wrong shape or of the wrong length', async () => {
        for (const params of [undefined, { a: 'x', b: 1 }, ['x'], ['x', 1, 2]]) {
          const reply = await post({
            jsonrpc: '2.0',
            method: 'pair',
            ...(params === undefined ? {} : { params }),
            id: 1,
          });
          expect(reply.json().error.code, JSON.stringify(params)).to.equal(RpcCode.invalidParams);
        }
      });

      it('answers an id beyond 2^53 with the very id, alone and in a batch', async () => {
        const one = await post('{"jsonrpc":"2.0","method":"touch","id":9007199254740993}');
        expect(one.text).to.equal('{"jsonrpc":"2.0","result":null,"id":9007199254740993}');
        const batch = await post(
          '[{"jsonrpc":"2.0","method":"touch","id":1},{"jsonrpc":"2.0","method":"nothing","id":123456789012345678901234567890}]',
        );
        expect(batch.text).to.contain('"id":123456789012345678901234567890}');
      });

      it('reads a u64 beyond 2^53 exactly, in params and in the result', async () => {
        const reply = await post('{"jsonrpc":"2.0","method":"getBook","params":{"id":18446744073709551615},"id":1}');
        expect(reply.text).to.contain('"id":18446744073709551615,');
        expect(library.calls).to.deep.equal(['getBook 18446744073709551615']);
        const inBatch = await post(
          '[{"jsonrpc":"2.0","method":"touch","id":1},{"jsonrpc":"2.0","method":"getBook","params":[9007199254740993],"id":2}]',
        );
        expect(inBatch.text).to.contain('"id":9007199254740993,');
      });
    });

    describe('security per call', () => {
      it('refuses a secured call without credentials beside a public one that runs', async () => {
        const reply = await post([
          { jsonrpc: '2.0', method: 'whoAmI', id: 1 },
          { jsonrpc: '2.0', method: 'getBook', params: { id: 2 }, id: 2 },
        ]);
        const [refused, answered] = [...reply.json()].sort((a, b) => a.id - b.id);
        expect(refused.error).to.include({ code: RpcCode.serverError });
        expect(refused.error.data).to.include({ status: 401 });
        expect(answered.result).to.include({ id: 2 });
        // Not every call was refused: the HTTP answer carries no challenge.
        expect(reply.headers['www-authenticate']).to.equal(undefined);
      });

      it('writes no WWW-Authenticate when a call beside the refused one was answered otherwise (an unknown method)', async () => {
        const reply = await post([
          { jsonrpc: '2.0', method: 'whoAmI', id: 1 },
          { jsonrpc: '2.0', method: 'nothing', id: 2 },
        ]);
        expect(reply.headers['www-authenticate']).to.equal(undefined);
      });

      it('writes WWW-Authenticate on the HTTP answer when every call was refused for want of credentials', async () => {
        const reply = await post({ jsonrpc: '2.0', method: 'whoAmI', id: 1 });
        expect(reply.status).to.equal(200);
        expect(reply.headers['www-authenticate']).to.equal('Bearer realm="api"');
      });

      it('admits a call with credentials, storing the caller, and answers 403 as -32000', async () => {
        expect(await libraryClient({ authorization: `Bearer ${TOKEN}` }).request('whoAmI', undefined)).to.equal('ada');
        const forbidden = await libraryClient({ authorization: `Bearer ${FORBIDDEN}` })
          .request('whoAmI', undefined)
          .then(
            () => undefined,
            (e: JSONRPCErrorException) => e,
          );
        expect(forbidden).to.include({ code: RpcCode.serverError });
        expect(forbidden!.data).to.include({ status: 403 });
      });
    });

    describe('rate limits', () => {
      it('counts each call of a message against the limit, the calls over it answered -32000 with their 429', async () => {
        await serve({ rateLimit: { limit: 2, windowMs: 60_000 } });
        const reply = await post([1, 2, 3].map((id) => ({ jsonrpc: '2.0', method: 'getBook', params: { id }, id })));
        const answers = reply.json() as {
          id: number;
          result?: unknown;
          error?: { code: number; data: { status: number } };
        }[];
        expect(answers.filter((a) => a.result !== undefined)).to.have.length(2);
        const [limited] = answers.filter((a) => a.error !== undefined);
        expect(limited!.error).to.deep.include({ code: RpcCode.serverError });
        expect(limited!.error!.data).to.include({ status: 429 });
        expect(library.calls).to.have.length(2);
        expect(seen.errors).to.deep.equal([]);
      });

      it('exempts a method whose contract says rateLimit: false', async () => {
        class Free {
          ping(): string {
            return 'pong';
          }
        }
        meta(Free, service({ ping: method([], t.string(), { rateLimit: false }) }));
        await served.stop();
        served = await transport.serve(
          '/rpc',
          new Registry({ rateLimit: { limit: 1, windowMs: 60_000 } }, JSONRPC).on(new Free()).endpoints,
        );
        rpcUrl = `${served.url}/rpc`;
        const reply = await post([1, 2, 3].map((id) => ({ jsonrpc: '2.0', method: 'ping', id })));
        expect(reply.json().map((a: { result: string }) => a.result)).to.deep.equal(['pong', 'pong', 'pong']);
      });
    });

    describe('codecs', () => {
      it('reads a MessagePack body and answers in MessagePack, 64-bit ids and bytes exact', async () => {
        const body = msgpackEncode(
          { jsonrpc: '2.0', method: 'getBook', params: { id: 2n ** 64n - 1n }, id: 1 },
          { useBigInt64: true },
        );
        const reply = await send(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/msgpack', accept: 'application/msgpack' },
          body,
        });
        expect(reply.headers['content-type']).to.equal('application/msgpack');
        const answer = msgpackDecode(reply.body, { useBigInt64: true }) as {
          result: { id: bigint; cover: Uint8Array };
        };
        expect(answer.result.id).to.equal(2n ** 64n - 1n);
        expect([...answer.result.cover]).to.deep.equal([...BOOK.cover]);
      });

      it('reads a CBOR batch and answers a CBOR array', async () => {
        const body = cborEncode([
          { jsonrpc: '2.0', method: 'pair', params: ['c', 2], id: 'a' },
          { jsonrpc: '2.0', method: 'nothing', id: 'b' },
        ]);
        const reply = await send(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/cbor', accept: 'application/cbor' },
          body,
        });
        expect(reply.headers['content-type']).to.equal('application/cbor');
        const answers = cborDecode(reply.body) as { id: string; result?: string; error?: { code: number } }[];
        expect(answers.find((a) => a.id === 'a')!.result).to.equal('c:2');
        expect(answers.find((a) => a.id === 'b')!.error!.code).to.equal(RpcCode.methodNotFound);
      });

      it('answers in the codec Accept asks for, whatever the body was written in', async () => {
        const reply = await post(
          { jsonrpc: '2.0', method: 'pair', params: ['m', 3], id: 1 },
          { accept: 'application/msgpack' },
        );
        expect(msgpackDecode(reply.body)).to.deep.equal({ jsonrpc: '2.0', result: 'm:3', id: 1 });
        expect(reply.headers.vary).to.equal('Accept');
      });

      it('answers a MessagePack body that does not parse with -32700', async () => {
        const reply = await send(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/msgpack', accept: 'application/json' },
          body: new Uint8Array([0xc1]),
        });
        expect(reply.json()).to.deep.include({ id: null });
        expect(reply.json().error.code).to.equal(RpcCode.parseError);
      });
    });

    describe('HTTP', () => {
      it('refuses a body no codec reads with 415, one over maxBodyBytes with 413, and GET with 405', async () => {
        const plain = await send(rpcUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
        expect(plain.status).to.equal(415);
        await serve({ maxBodyBytes: 64 });
        const big = await post({ jsonrpc: '2.0', method: 'pair', params: ['x'.repeat(100), 1], id: 1 });
        expect(big.status).to.equal(413);
        const get = await send(rpcUrl);
        expect(get.status).to.equal(405);
        expect(get.headers.allow).to.equal('POST');
      });

      it('serves the mount path with or without its trailing slash, and writes x-request-id', async () => {
        for (const url of [rpcUrl, `${rpcUrl}/`]) {
          const reply = await send(url, {
            method: 'POST',
            headers: JSON_TYPE,
            body: '{"jsonrpc":"2.0","method":"pair","params":["s",1],"id":1}',
          });
          expect(reply.json().result).to.equal('s:1');
          expect(reply.headers['x-request-id']).to.be.a('string');
        }
      });
    });

    describe('hooks', () => {
      it('tells onResponse of each call of a batch, with the status its answer stands for', async () => {
        await post([
          { jsonrpc: '2.0', method: 'getBook', params: { id: 1 }, id: 1 },
          { jsonrpc: '2.0', method: 'getBook', params: { id: 'x' }, id: 2 },
          { jsonrpc: '2.0', method: 'whoAmI', id: 3 },
          { jsonrpc: '2.0', method: 'crash', id: 4 },
        ]);
        // Told once the answer is written, which may be after the client read it.
        await until(() => seen.responses.length === 4);
        const reports = seen.responses.map((r) => [r.call.method, r.status, r.path]);
        expect(reports).to.have.deep.members([
          ['getBook', 200, '/rpc'],
          ['getBook', 400, '/rpc'],
          ['whoAmI', 401, '/rpc'],
          ['crash', 500, '/rpc'],
        ]);
      });

      it('tells onResponse the status the client received when the transport answered the message 503 at its timeout', async () => {
        await served.stop();
        library = new Library();
        seen = observers();
        served = await transport.serve('/rpc', new Registry(seen.options, JSONRPC).on(library).endpoints, {
          handlerTimeoutMs: 50,
        });
        rpcUrl = `${served.url}/rpc`;
        const reply = await post({ jsonrpc: '2.0', method: 'later', params: [200], id: 1 });
        expect(reply.status).to.equal(503);
        // Told once the method has returned, after the 503.
        await until(() => seen.responses.length > 0);
        expect(seen.responses.map((r) => [r.call.method, r.status])).to.deep.equal([['later', 503]]);
      });

      it('fails a call whose value its return descriptor cannot write, with -32603, and tells onError', async () => {
        const reply = await post([
          { jsonrpc: '2.0', method: 'broken', id: 1 },
          { jsonrpc: '2.0', method: 'pair', params: ['ok', 1], id: 2 },
        ]);
        const [broken, fine] = [...reply.json()].sort((a, b) => a.id - b.id);
        expect(broken.error.code).to.equal(RpcCode.internalError);
        expect(fine.result).to.equal('ok:1');
        expect(seen.errors.map((e) => e.context.method)).to.deep.equal(['broken']);
      });

      it("runs the interceptors around each call, with the call's method and arguments", async () => {
        const intercepted: string[] = [];
        await serve({
          interceptors: [
            async (call, next) => {
              intercepted.push(`${call.method}(${JSON.stringify(call.args)})`);
              return next();
            },
          ],
        });
        await post([
          { jsonrpc: '2.0', method: 'pair', params: ['i', 1], id: 1 },
          { jsonrpc: '2.0', method: 'touch', id: 2 },
        ]);
        expect(intercepted).to.have.members(['pair(["i",1])', 'touch([])']);
      });
    });
  });
}

describe('transports: JSON-RPC registries, a batch under way when HttpServer stops', () => {
  it('starts no further call of it once the server answered the message 503', async () => {
    const library = new Library();
    let reported!: () => void;
    const batchEnded = new Promise<void>((resolve) => (reported = resolve));
    const registry = new Registry({ ...observers().options, onResponse: () => reported() }, JSONRPC).on(library);
    const server = new HttpServer({ drainTimeoutMs: 0, onError: () => {} }).mount('/rpc', registry.endpoints);
    await server.bind(0).start();
    const eightStarted = new Promise<void>((resolve) => (library.onHeld = (n) => n === 8 && resolve()));
    const batch = Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', method: 'held', id }));
    const replied = send(`${server.url}/rpc`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(batch) });
    await eightStarted;
    const stopped = server.stop();
    expect((await replied).status).to.equal(503);
    await Promise.all([batchEnded, stopped]);
    expect(library.heldStarted).to.equal(8);
  });
});

describe('transports: JSON-RPC registries, registering', () => {
  it('refuses a second service exposing a method name already taken', () => {
    class Other {
      getBook(): string {
        return '';
      }
    }
    meta(Other, service({ getBook: method([], t.string()) }));
    const registry = new Registry(observers().options, JSONRPC).on(new Library());
    expect(() => registry.on(new Other())).to.throw(Error, 'getBook, already exposed by Library');
  });

  it('leaves a stream method out, saying so through onWarning', () => {
    class Feed {
      items(): string[] {
        return [];
      }
      ping(): string {
        return 'pong';
      }
    }
    meta(Feed, service({ items: method([], t.stream(t.string())), ping: method([], t.string()) }));
    const warnings: string[] = [];
    new Registry({ onWarning: (m) => void warnings.push(m) }, JSONRPC).on(new Feed());
    expect(warnings).to.deep.equal([
      'Registry.on(): Feed.items is left out of this JSONRPC registry: streams are served by REST registries only',
    ]);
  });
});

describe('transports: JSON-RPC and MCP registries, options only REST honours', () => {
  it("say through onWarning, once per method and not once per registry, that a method's timeoutMs and cache do not apply to them", () => {
    class Slow {
      wait(): string {
        return '';
      }
      read(): string {
        return '';
      }
    }
    meta(
      Slow,
      service({
        wait: method([], t.string(), { timeoutMs: 100 }),
        read: method({}, t.string(), { cache: { maxAge: 60 } }),
      }),
    );
    const warnings: string[] = [];
    for (const protocol of [JSONRPC, 'MCP'] as const)
      new Registry({ onWarning: (m) => void warnings.push(`${protocol}: ${m}`) }, protocol).on(new Slow());
    expect(warnings).to.deep.equal([
      "JSONRPC: Registry.on(): Slow.wait's timeoutMs applies to REST endpoints only; a JSON-RPC or MCP message is bounded by the transport's handlerTimeoutMs",
      "JSONRPC: Registry.on(): Slow.read's cache applies to REST endpoints only; a JSON-RPC or MCP message is bounded by the transport's handlerTimeoutMs",
    ]);
  });
});
