// The transport conformance suite: what every transport serving a registry must do, run against
// HttpServer and the fetch handler (spec/transports/conformance.spec.ts).
import { expect } from 'chai';
import * as zlib from 'node:zlib';
import { cbor } from '../../codecs/cbor/index.ts';
import type { Codec } from '../../core/codec.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { HttpError, Registry, meta, method, service, t, type Endpoints } from '../../index.ts';
import { createClient } from '../../transports/client/index.ts';
import type { CorsOptions } from '../../index.ts';
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

const ShelfBook = t.object(
  { id: t.u32(), title: t.string(), author: t.string(), year: t.u16() },
  { name: 'ShelfBook' },
);
type ShelfBook = { id: number; title: string; author: string; year: number };
const SHELF: ShelfBook[] = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1,
  title: `Volume ${i + 1} of the collected works`,
  author: ['Le Guin', 'Lem', 'Borges', 'Calvino'][i % 4]!,
  year: 1950 + i,
}));

/** Answers large and small, a 204, and a method reading a body: what the compression specs need. */
class Shelf {
  calls = 0;
  listBooks(): ShelfBook[] {
    return SHELF;
  }
  firstBooks(n: number): ShelfBook[] {
    return SHELF.slice(0, n);
  }
  deleteBooks(): void {}
  count(books: ShelfBook[]): number {
    this.calls++;
    return books.length;
  }
}
const ShelfApi = meta(
  Shelf,
  service({
    listBooks: method([], t.array(ShelfBook)),
    firstBooks: method([t.u32()], t.array(ShelfBook)),
    deleteBooks: method([], t.void()),
    count: method([t.array(ShelfBook)], t.u32()),
  }),
);

/** The body of `reply` with its Content-Encoding undone (node:zlib, independent of the transports). */
function inflated(reply: Reply): Buffer {
  const coding = reply.headers['content-encoding'];
  if (coding === undefined) return reply.body;
  if (coding === 'gzip') return zlib.gunzipSync(reply.body);
  if (coding === 'br') return zlib.brotliDecompressSync(reply.body);
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (coding === 'zstd' && zstd !== undefined) return zstd(reply.body);
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

/** The members of a `Vary`, as listed. */
function varyOf(reply: Reply): string[] {
  return String(reply.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

const CODECS: readonly Codec[] = [json, msgpack, cbor];
const ORIGIN = 'https://app.example';
const ITEM = { id: 2n ** 64n - 1n, name: 'Ada', weight: 0.1 };
const ITEM_JSON = '{"id":1,"name":"a","weight":1}';
/** The body each VerbService method needs; the others take none. */
const VERB_BODIES: Record<string, string> = {
  getItem: '1',
  deleteItem: '1',
  updateItem: ITEM_JSON,
  createItem: ITEM_JSON,
  add: '[1, 2]',
  removeItem: '1',
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
    .on(new VerbService())
    .on(new FaultyService())
    .on(tally);
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
        const reply =
          body === undefined ? await send(`${api}/${name}`, { method: verb }) : await post(`/${name}`, body, {}, verb);
        if (VOID_METHODS.has(name)) {
          expect(reply.status, reply.text).to.equal(204);
          expect(reply.body.length).to.equal(0);
        } else {
          expect(reply.status, reply.text).to.equal(200);
          expect(reply.json())
            .to.be.a('string')
            .that.matches(new RegExp(`^${name}`));
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
            'content-type': request.contentTypes[0]!,
            accept: answer.contentTypes[0]!,
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
      const reply = await send(`${api}/getItems`, {
        headers: { accept: 'application/json;q=0.4, application/cbor;q=0.9' },
      });
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
        [
          '413 of the registry',
          await send(`${tightApi}/echo`, {
            method: 'POST',
            body: big,
            headers: { 'content-type': 'application/json' },
          }),
          413,
        ],
      ];
      for (const [label, reply, status] of replies) {
        const doc = expectProblem(reply, status);
        expect(reply.headers.vary, label).to.match(/\bAccept\b/);
        expect(reply.statusMessage, label).to.equal(doc.title);
      }
    });
    it('writes problems in CBOR for a client naming application/problem+cbor', async () => {
      const reply = await send(`${api}/teapot`, {
        method: 'POST',
        headers: { accept: 'application/json;q=0.5, application/problem+cbor' },
      });
      expect(reply.status).to.equal(418);
      expect(reply.headers['content-type']).to.equal('application/problem+cbor');
    });
  });

  describe('errors', () => {
    it('a ReadError on the body is a 400 with code and path', async () => {
      const doc = expectProblem(await post('/echo', '{"id": 1, "name": 5, "weight": 1}'), 400);
      expect(doc).to.include({ code: 'type_mismatch', path: '/name' });
      expect(expectProblem(await post('/echo', '{"id": 1, "weight": 1}'), 400)).to.include({
        code: 'missing_key',
        path: '/name',
      });
    });
    it('InvalidArgument is a 400, HttpError its own status, with the message as detail', async () => {
      expect(expectProblem(await send(`${api}/invalid`, { method: 'POST' }), 400).detail).to.equal(
        'weight must be positive',
      );
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
      const at = (body: string) =>
        send(`${tightApi}/echo`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
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
    it("answers a preflight from an allowed origin with the path's methods", async () => {
      const reply = await send(`${api}/createItem`, {
        method: 'OPTIONS',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(reply.status).to.equal(204);
      expect(reply.headers).to.include({
        'access-control-allow-origin': ORIGIN,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type',
      });
    });
    it('refuses a preflight from another origin with 403', async () => {
      const reply = await send(`${api}/createItem`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
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
        const error = await client.teapot().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(HttpError);
        expect(error).to.include({ status: 418, detail: 'short and stout' });
      });
    }
  });

  describe('compression', () => {
    const shelf = new Shelf();
    let zip = '';
    /** The identity answer of GET listBooks in each codec. */
    const identity = new Map<string, Buffer>();
    before(async () => {
      const served = await start('/zip', new Registry({ onError: () => {} }).on(shelf).endpoints, {
        cors: { origins: [ORIGIN] },
      });
      running.push(served);
      zip = `${served.url}/zip`;
      for (const codec of CODECS) {
        const reply = await send(`${zip}/listBooks`, { headers: { accept: codec.contentTypes[0]! } });
        expect(reply.headers['content-encoding']).to.equal(undefined);
        identity.set(codec.name, reply.body);
      }
    });
    const list = (acceptEncoding: string, headers: Record<string, string> = {}) =>
      send(`${zip}/listBooks`, { headers: { 'accept-encoding': acceptEncoding, ...headers } });
    const coded = async (acceptEncoding: string) => (await list(acceptEncoding)).headers['content-encoding'];
    /** Posts `books` to count, encoded by `codec` and then by `coding`. */
    const count = (body: Uint8Array, contentEncoding: string, codec: Codec = json) =>
      send(`${zip}/count`, {
        method: 'POST',
        body,
        headers: { 'content-type': codec.contentTypes[0]!, 'content-encoding': contentEncoding },
      });

    for (const codec of CODECS) {
      it(`gzips a ${codec.name} answer: Content-Length of the compressed bytes, Vary, the identity bytes once inflated`, async () => {
        const reply = await list('gzip', { accept: codec.contentTypes[0]! });
        expect(reply.status).to.equal(200);
        expect(reply.headers['content-encoding']).to.equal('gzip');
        expect(reply.headers['content-length']).to.equal(String(reply.body.length));
        expect(reply.body.length).to.be.below(identity.get(codec.name)!.length);
        expect(inflated(reply).equals(identity.get(codec.name)!)).to.equal(true);
        expect(varyOf(reply)).to.deep.equal(['Accept', 'Accept-Encoding']);
      });
    }
    for (const coding of ['br', 'zstd']) {
      it(`answers ${coding} where the transport offers it, identity where not, and the same bytes either way`, async () => {
        const reply = await list(coding);
        expect([coding, undefined]).to.include(reply.headers['content-encoding']);
        expect(reply.headers['content-length']).to.equal(String(reply.body.length));
        expect(inflated(reply).equals(identity.get('json')!)).to.equal(true);
        expect(varyOf(reply)).to.include('Accept-Encoding');
      });
    }
    it('follows q-values: the highest q wins, a coding at q=0 is never chosen', async () => {
      expect(await coded('gzip;q=1, br;q=0.5, zstd;q=0.2')).to.equal('gzip');
      expect(await coded('br;q=0.5, gzip;q=0.9')).to.equal('gzip');
      expect(await coded('br;q=0, zstd;q=0, gzip;q=0.001')).to.equal('gzip');
      expect(await coded('gzip;q=0')).to.equal(undefined);
      expect(await coded('gzip;q=0, br;q=0, zstd;q=0')).to.equal(undefined);
      expect(await coded('gzip;q=0, *')).to.be.oneOf([undefined, 'br', 'zstd']);
      expect(await coded('*;q=0.5, gzip;q=0')).to.be.oneOf([undefined, 'br', 'zstd']);
      expect(await coded('*')).to.be.oneOf(['br', 'zstd', 'gzip']);
      expect(await coded('br, zstd, gzip')).to.be.oneOf(['br', 'zstd', 'gzip']);
      expect(await coded('GZIP;Q=0.5')).to.equal('gzip');
      expect(await coded('x-gzip')).to.equal('gzip');
      expect(await coded('gzip, gzip;q=0')).to.equal(undefined);
    });
    it('handles identity;q=0 and *;q=0: a coding when one is acceptable, else identity (never 406)', async () => {
      expect(await coded('identity;q=0, gzip')).to.equal('gzip');
      expect(await coded('*;q=0, gzip')).to.equal('gzip');
      for (const header of ['*;q=0', 'identity;q=0', 'identity;q=0, *;q=0', 'identity;q=0, compress']) {
        const reply = await list(header);
        expect(reply.status, header).to.equal(200);
        expect(reply.headers['content-encoding'], header).to.equal(undefined);
        expect(reply.body.equals(identity.get('json')!), header).to.equal(true);
      }
      expect(await coded('gzip;q=0.5, identity')).to.equal(undefined);
      expect(await coded('gzip;q=0.5, identity;q=0.5')).to.equal('gzip');
    });
    it('answers identity, without an error, to junk in Accept-Encoding', async () => {
      for (const header of [
        'gzip;q=2',
        'gzip;q=abc',
        'gzip;q=-1',
        'gzip;q=0.0001',
        'gzip;level=9',
        'gzip q=1',
        '@@@',
        ';;;',
        ',,,',
        '',
        'deflate',
        'compress',
        'g zip',
        '"gzip"',
      ]) {
        const reply = await list(header);
        expect(reply.status, header).to.equal(200);
        expect(reply.headers['content-encoding'], header).to.equal(undefined);
        expect(reply.body.equals(identity.get('json')!), header).to.equal(true);
      }
    });
    it('leaves an answer below the threshold (1 KiB) alone: identity and no Vary: Accept-Encoding', async () => {
      const reply = await send(`${zip}/firstBooks`, {
        method: 'POST',
        body: '1',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br' },
      });
      expect(reply.status).to.equal(200);
      expect(reply.body.length).to.be.below(1024);
      expect(reply.headers['content-encoding']).to.equal(undefined);
      expect(varyOf(reply)).to.deep.equal(['Accept']);
    });
    it('never compresses HEAD: the identity Content-Length, no body, Vary kept', async () => {
      const reply = await send(`${zip}/listBooks`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip, br' } });
      expect(reply.status).to.equal(200);
      expect(reply.headers['content-encoding']).to.equal(undefined);
      expect(reply.headers['content-length']).to.equal(String(identity.get('json')!.length));
      expect(reply.body.length).to.equal(0);
      expect(varyOf(reply)).to.deep.equal(['Accept', 'Accept-Encoding']);
    });
    it('never compresses a 204', async () => {
      const reply = await send(`${zip}/deleteBooks`, { method: 'DELETE', headers: { 'accept-encoding': 'gzip, br' } });
      expect(reply.status).to.equal(204);
      expect(reply.headers['content-encoding']).to.equal(undefined);
      expect(varyOf(reply)).not.to.include('Accept-Encoding');
    });
    it('merges Vary: Accept-Encoding with Accept and Origin, each once', async () => {
      const reply = await list('gzip', { origin: ORIGIN });
      expect(reply.headers['content-encoding']).to.equal('gzip');
      expect(reply.headers['access-control-allow-origin']).to.equal(ORIGIN);
      expect([...varyOf(reply)].sort()).to.deep.equal(['Accept', 'Accept-Encoding', 'Origin']);
    });

    const BOOKS = SHELF.slice(0, 30);
    for (const codec of CODECS) {
      const plain = (() => {
        const encoded = codec.encode(t.array(ShelfBook), BOOKS);
        return typeof encoded === 'string' ? Buffer.from(encoded) : Buffer.from(encoded);
      })();
      const bodies: [string, string, Buffer][] = [
        ['gzip', 'gzip', zlib.gzipSync(plain)],
        ['x-gzip', 'x-gzip', zlib.gzipSync(plain)],
        ['deflate (zlib)', 'deflate', zlib.deflateSync(plain)],
        ['deflate (raw)', 'deflate', zlib.deflateRawSync(plain)],
        ['identity', 'identity', plain],
      ];
      it(`inflates ${codec.name} request bodies: ${bodies.map(([name]) => name).join(', ')}`, async () => {
        for (const [name, header, body] of bodies) {
          const reply = await count(body, header, codec);
          expect(reply.status, `${name}: ${reply.text}`).to.equal(200);
          expect(codec.decode(t.u32(), new Uint8Array(reply.body)), name).to.equal(BOOKS.length);
        }
      });
      it(`inflates a br ${codec.name} request body where the transport can, and answers 415 naming what it can where not`, async () => {
        const reply = await count(zlib.brotliCompressSync(plain), 'br', codec);
        if (reply.status === 200) {
          expect(codec.decode(t.u32(), new Uint8Array(reply.body))).to.equal(BOOKS.length);
        } else {
          expectProblem(reply, 415);
          expect(reply.headers['accept-encoding']).to.include('gzip').and.not.include('br');
        }
      });
    }
    it('applies maxBodyBytes to the inflated size: a gzip bomb (10 MiB of zeros in ~10 KB) is a 413', async () => {
      const calls = shelf.calls;
      const bomb = zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024));
      expect(bomb.length).to.be.below(16 * 1024);
      const doc = expectProblem(await count(bomb, 'gzip'), 413);
      expect(doc.detail).to.match(/inflates to over 1048576 bytes/);
      // Inflating past the limit by a little is refused as well: the limit is exact.
      const justOver = zlib.gzipSync(Buffer.from(JSON.stringify('x'.repeat(1024 * 1024 - 1))));
      expectProblem(await count(justOver, 'gzip'), 413);
      expect(shelf.calls).to.equal(calls);
    });
    it('answers 415 with Accept-Encoding to a Content-Encoding it cannot inflate, without calling the method', async () => {
      const calls = shelf.calls;
      for (const header of ['compress', 'gzip, gzip', 'snappy', 'gzip;q=1']) {
        const reply = await count(Buffer.from('[]'), header);
        expectProblem(reply, 415);
        expect(reply.headers['accept-encoding'], header).to.include('gzip').and.include('deflate');
        expect(varyOf(reply), header).to.include('Accept');
      }
      expect(shelf.calls).to.equal(calls);
    });
    it('answers 400 to a corrupt or truncated compressed body', async () => {
      const good = zlib.gzipSync(Buffer.from(JSON.stringify(BOOKS)));
      const corrupt = Buffer.from(good);
      corrupt.fill(0x55, 10, 40);
      for (const [name, body, header] of [
        ['corrupt gzip', corrupt, 'gzip'],
        ['truncated gzip', good.subarray(0, good.length - 12), 'gzip'],
        ['not gzip at all', Buffer.from('[1, 2, 3]'), 'gzip'],
        ['not deflate', Buffer.from([0xff, 0xff, 0xff, 0xff]), 'deflate'],
      ] as const) {
        const doc = expectProblem(await count(body, header), 400);
        expect(doc.detail, name).to.match(/not valid (gzip|deflate) data/);
      }
    });
    it('serves the typed client, whose fetch inflates the answers', async () => {
      for (const codec of CODECS) {
        const seen: (string | null)[] = [];
        const client = createClient(ShelfApi, {
          baseUrl: zip,
          codec,
          fetch: async (request: Request) => {
            const response = await fetch(request);
            seen.push(response.headers.get('content-encoding'));
            return response;
          },
        });
        expect(await client.listBooks()).to.deep.equal(SHELF);
        expect(await client.firstBooks(2)).to.deep.equal(SHELF.slice(0, 2));
        expect(await client.count(BOOKS)).to.equal(BOOKS.length);
        // Node's fetch sends Accept-Encoding: gzip, deflate (br too in later versions).
        expect(seen[0], codec.name).to.be.oneOf(['gzip', 'br', 'zstd']);
        expect(seen[1], codec.name).to.equal(null);
      }
    });
  });
}
