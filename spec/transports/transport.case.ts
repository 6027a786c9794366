// The transport conformance suite: what every transport serving a registry must do, run against
// HttpServer and the fetch handler (spec/transports/conformance.spec.ts).
import { expect } from 'chai';
import { cbor } from '../../codecs/cbor/index.ts';
import type { Codec } from '../../core/codec.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { HttpError, Registry, meta, method, service, t, type Endpoints } from '../../core/index.ts';
import { createClient } from '../../transports/client/index.ts';
import type { CorsOptions } from '../../core/index.ts';
import type { Served } from '../support/fetch-server.ts';
import { send, type Reply } from '../support/http-client.ts';
import { EXPECTED_VERBS, FaultyApi, FaultyService, Item, VerbApi, VerbService } from '../support/services.ts';

/** The options every transport takes. */
export interface TransportOptions {
  maxBodyBytes?: number;
  cors?: CorsOptions;
}

/** Serves `endpoints` under `prefix` on a free port of 127.0.0.1. */
export type StartTransport = (prefix: string, endpoints: Endpoints, options: TransportOptions) => Promise<Served>;

/** Counts its calls, so a spec can tell that a refused body never reached the service. */
class Tally {
  calls = 0;
  take(text: string): number {
    this.calls++;
    return text.length;
  }
}
meta(Tally, service({ take: method([t.string()], t.u32()) }));

const CODECS: readonly Codec[] = [json, msgpack, cbor];
const ORIGIN = 'https://app.example';
const ITEM = { id: 2n ** 64n - 1n, name: 'Ada', weight: 0.1 };
const ITEM_JSON = '{"id":1,"name":"a","weight":1}';
/** The body each VerbService method needs; the others take none. */
const VERB_BODIES: Record<string, string> = {
  getItem: '1', deleteItem: '1', updateItem: ITEM_JSON, createItem: ITEM_JSON, add: '[1, 2]', removeItem: '1',
};
const VOID_METHODS = new Set(['deleteItem', 'delete', 'removeItem']);
const LIMIT = 2048;

function expectProblem(reply: Reply, status: number): Record<string, unknown> {
  expect(reply.status, reply.text).to.equal(status);
  expect(reply.headers['content-type']).to.equal('application/problem+json');
  const doc = reply.json() as Record<string, unknown>;
  expect(doc).to.include({ type: 'about:blank', status });
  return doc;
}

/** Runs the suite against the transport `start` starts. */
export function transportConformance(start: StartTransport): void {
  const tally = new Tally();
  const main = new Registry({ errorOnMissingKeys: true, onError: () => {} })
    .on(new VerbService()).on(new FaultyService()).on(tally);
  const tight = new Registry({ maxBodyBytes: 64, onError: () => {} }).on(new FaultyService());
  let api = '';
  let tightApi = '';
  const running: Served[] = [];
  before(async () => {
    const a = await start('/api', main.endpoints, { maxBodyBytes: LIMIT, cors: { origins: [ORIGIN] } });
    const b = await start('/tight', tight.endpoints, {});
    running.push(a, b);
    api = `${a.url}/api`;
    tightApi = `${b.url}/tight`;
  });
  after(() => Promise.all(running.map((s) => s.stop())));
  const post = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}, verb = 'POST') =>
    send(`${api}${path}`, { method: verb, body, headers: { 'content-type': 'application/json', ...headers } });

  describe('routes', () => {
    for (const [name, verb] of Object.entries(EXPECTED_VERBS)) {
      it(`serves ${name} as ${verb} ${'{prefix}'}/${name}`, async () => {
        const body = VERB_BODIES[name];
        const reply = body === undefined ? await send(`${api}/${name}`, { method: verb }) : await post(`/${name}`, body, {}, verb);
        if (VOID_METHODS.has(name)) {
          expect(reply.status, reply.text).to.equal(204);
          expect(reply.body.length).to.equal(0);
        } else {
          expect(reply.status, reply.text).to.equal(200);
          expect(reply.json()).to.be.a('string').that.matches(new RegExp(`^${name}`));
        }
      });
    }
    it('answers 404 problems for unknown paths, the prefix itself and paths outside it', async () => {
      for (const path of [`${api}/nope`, api, api.replace(/\/api$/, '/other/getItems'), `${api}/getItems/more`]) {
        const doc = expectProblem(await send(path), 404);
        expect(doc.title).to.equal('Not Found');
      }
    });
    it('answers 405 with Allow for a known path and another verb', async () => {
      const reply = await send(`${api}/getItems`, { method: 'DELETE' });
      expectProblem(reply, 405);
      expect(reply.headers.allow).to.equal('GET, HEAD');
      expect((await send(`${api}/deleteItem`)).headers.allow).to.equal('DELETE');
    });
    it('answers HEAD with the GET headers and no body', async () => {
      const get = await send(`${api}/getItems`);
      const head = await send(`${api}/getItems`, { method: 'HEAD' });
      expect(head.status).to.equal(200);
      expect(head.body.length).to.equal(0);
      expect(head.headers['content-length']).to.equal(String(get.body.length));
      expect(head.headers['content-type']).to.equal(get.headers['content-type']);
    });
    it('answers OPTIONS with 204 and Allow', async () => {
      const reply = await send(`${api}/getItems`, { method: 'OPTIONS' });
      expect(reply.status).to.equal(204);
      expect(reply.headers.allow).to.equal('GET, HEAD');
    });
    it('answers a malformed path with a 400 problem', async () => {
      expectProblem(await send(`${api}/get%ZZ`), 400);
    });
  });

  describe('negotiation', () => {
    for (const request of CODECS) {
      for (const answer of CODECS) {
        it(`reads ${request.name} and answers ${answer.name} when asked`, async () => {
          const reply = await post('/echo', request.encode(Item, ITEM), {
            'content-type': request.contentTypes[0]!, accept: answer.contentTypes[0]!,
          });
          expect(reply.status, reply.text).to.equal(200);
          expect(reply.headers['content-type']).to.equal(answer.contentTypes[0]);
          expect(reply.headers.vary).to.equal('Accept');
          expect(answer.decode(Item, new Uint8Array(reply.body))).to.deep.equal({ ...ITEM, weight: Math.fround(0.1) });
        });
      }
      it(`answers ${request.name} in kind without Accept`, async () => {
        const reply = await post('/echo', request.encode(Item, ITEM), { 'content-type': request.contentTypes[0]! });
        expect(reply.headers['content-type']).to.equal(request.contentTypes[0]);
      });
    }
    it('follows q-values: the highest wins', async () => {
      const reply = await send(`${api}/getItems`, { headers: { accept: 'application/json;q=0.4, application/cbor;q=0.9' } });
      expect(reply.headers['content-type']).to.equal('application/cbor');
    });
    it('answers 415 with Accept-Post to a body it cannot read', async () => {
      const reply = await post('/echo', 'id=1', { 'content-type': 'application/x-www-form-urlencoded' });
      expectProblem(reply, 415);
      expect(reply.headers['accept-post']).to.include('application/json').and.include('application/cbor');
    });
    it('answers 406 when nothing acceptable can be written', async () => {
      const reply = await send(`${api}/getItems`, { headers: { accept: 'text/html' } });
      expectProblem(reply, 406);
      expect(reply.headers.vary).to.equal('Accept');
    });
    it('answers negotiated before the endpoint runs (404, 405, 413) with Vary: Accept and a reason phrase equal to the title', async () => {
      const big = JSON.stringify('x'.repeat(5 * LIMIT));
      const replies: [string, Reply, number][] = [
        ['404', await send(`${api}/nope`), 404],
        ['405', await send(`${api}/getItems`, { method: 'DELETE' }), 405],
        ['413 declared', await post('/take', big), 413],
        ['413 chunked', await post('/take', big, { 'transfer-encoding': 'chunked' }), 413],
        ['413 of the registry', await send(`${tightApi}/echo`, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } }), 413],
      ];
      for (const [label, reply, status] of replies) {
        const doc = expectProblem(reply, status);
        expect(reply.headers.vary, label).to.match(/\bAccept\b/);
        expect(reply.statusMessage, label).to.equal(doc.title);
      }
    });
    it('writes problems in CBOR for a client naming application/problem+cbor', async () => {
      const reply = await send(`${api}/teapot`, { method: 'POST', headers: { accept: 'application/json;q=0.5, application/problem+cbor' } });
      expect(reply.status).to.equal(418);
      expect(reply.headers['content-type']).to.equal('application/problem+cbor');
    });
  });

  describe('errors', () => {
    it('a ReadError on the body is a 400 with code and path', async () => {
      const doc = expectProblem(await post('/echo', '{"id": 1, "name": 5, "weight": 1}'), 400);
      expect(doc).to.include({ code: 'type_mismatch', path: '/name' });
      expect(expectProblem(await post('/echo', '{"id": 1, "weight": 1}'), 400)).to.include({ code: 'missing_key', path: '/name' });
    });
    it('InvalidArgument is a 400, HttpError its own status, with the message as detail', async () => {
      expect(expectProblem(await send(`${api}/invalid`, { method: 'POST' }), 400).detail).to.equal('weight must be positive');
      expect(expectProblem(await send(`${api}/teapot`, { method: 'POST' }), 418).detail).to.equal('short and stout');
    });
    it('anything else is a 500 that does not leak the message', async () => {
      const reply = await send(`${api}/crash`, { method: 'POST' });
      expectProblem(reply, 500);
      expect(reply.text).not.to.include('hunter2');
    });
  });

  describe('body limits', () => {
    beforeEach(() => (tally.calls = 0));
    it('reads a body of exactly maxBodyBytes', async () => {
      const reply = await post('/take', JSON.stringify('x'.repeat(LIMIT - 2)));
      expect(reply.status, reply.text).to.equal(200);
      expect(reply.json()).to.equal(LIMIT - 2);
    });
    it('answers 413 to a declared Content-Length over the limit without calling the service', async () => {
      const doc = expectProblem(await post('/take', JSON.stringify('x'.repeat(LIMIT))), 413);
      expect(doc.title).to.equal('Content Too Large');
      expect(tally.calls).to.equal(0);
    });
    it('answers 413 to a chunked body once it crosses the limit', async () => {
      const reply = await post('/take', JSON.stringify('x'.repeat(5 * LIMIT)), { 'transfer-encoding': 'chunked' });
      expectProblem(reply, 413);
      expect(tally.calls).to.equal(0);
    });
    it('applies the lower of its own and the registry limit', async () => {
      const small = JSON.stringify({ id: 1, name: 'a', weight: 1 });
      const large = JSON.stringify({ id: 1, name: 'x'.repeat(100), weight: 1 });
      const at = (body: string) => send(`${tightApi}/echo`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      expect((await at(small)).status).to.equal(200);
      expectProblem(await at(large), 413);
    });
  });

  describe('CORS', () => {
    it('labels answers to an allowed origin, merging Vary', async () => {
      const reply = await send(`${api}/getItems`, { headers: { origin: ORIGIN } });
      expect(reply.headers['access-control-allow-origin']).to.equal(ORIGIN);
      expect(reply.headers.vary).to.equal('Accept, Origin');
    });
    it('does not label answers to another origin', async () => {
      const reply = await send(`${api}/getItems`, { headers: { origin: 'https://evil.example' } });
      expect(reply.status).to.equal(200);
      expect(reply.headers['access-control-allow-origin']).to.equal(undefined);
    });
    it('answers a preflight from an allowed origin with the path\'s methods', async () => {
      const reply = await send(`${api}/createItem`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(reply.status).to.equal(204);
      expect(reply.headers).to.include({
        'access-control-allow-origin': ORIGIN, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type',
      });
    });
    it('refuses a preflight from another origin with 403', async () => {
      const reply = await send(`${api}/createItem`, {
        method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expectProblem(reply, 403);
      expect(reply.headers['access-control-allow-origin']).to.equal(undefined);
    });
  });

  describe('the typed client over it', () => {
    for (const codec of CODECS) {
      it(`round-trips u64, f32, several parameters, void and errors in ${codec.name}`, async () => {
        const client = createClient(FaultyApi, { baseUrl: api, codec });
        expect(await client.echo(ITEM)).to.deep.equal({ ...ITEM, weight: Math.fround(0.1) });
        expect(await client.slowEcho(-7)).to.equal(-7);
        const verbs = createClient(VerbApi, { baseUrl: api, codec });
        expect(await verbs.add(2, 3)).to.equal('add 5');
        expect(await verbs.getItems()).to.equal('getItems');
        expect(await verbs.updateItem(ITEM)).to.equal('updateItem Ada');
        expect(await verbs.deleteItem(7n)).to.equal(undefined);
        const error = await client.teapot().then(() => undefined, (e: unknown) => e);
        expect(error).to.be.instanceOf(HttpError);
        expect(error).to.include({ status: 418, detail: 'short and stout' });
      });
    }
  });
}
