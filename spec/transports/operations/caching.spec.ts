// Conditional requests and caching on both transports: GET answers carry a strong ETag of their
// encoded bytes (one per codec), a matching If-None-Match (a list, weak tags, `*`) is answered 304
// without a body, HEAD mirrors GET, Cache-Control comes from `cache` (`private` by default for a
// secured method), and streams, other verbs and `no-store` carry no ETag.
import { expect } from 'chai';
import { Registry, bearerAuth, contextKey, meta, method, service, t, type Call } from '../../../index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send, type Reply } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';

const Book = t.object({ id: t.u32(), title: t.string() }, { name: 'Book' });

const Books = service({
  getBook: method({ id: t.u32() }, Book, { route: 'GET /books/:id' }),
  cachedBook: method({ id: t.u32() }, Book, { route: 'GET /cached/:id', cache: { maxAge: 60 } }),
  publicBook: method({ id: t.u32() }, Book, {
    route: 'GET /public/:id',
    cache: { maxAge: 30, visibility: 'public' },
    security: ['bearer'],
  }),
  privateBook: method({ id: t.u32() }, Book, { route: 'GET /private/:id', security: ['bearer'] }),
  privateCached: method({ id: t.u32() }, Book, {
    route: 'GET /private-cached/:id',
    cache: { maxAge: 10 },
    security: ['bearer'],
  }),
  liveBook: method({ id: t.u32() }, Book, { route: 'GET /live/:id', cache: 'no-store' }),
  taggedBook: method({ id: t.u32() }, Book, { route: 'GET /tagged/:id' }),
  bookCount: method({}, t.void(), { route: 'GET /count', cache: { maxAge: 5 } }),
  addBook: method({ book: Book }, Book, { route: 'POST /books' }),
  allBooks: method({}, t.stream(Book), { route: 'GET /all' }),
});

class BooksImpl {
  titles = new Map([
    [1, 'Dune'],
    [2, 'Emma'],
  ]);
  #book(id: number) {
    return { id, title: this.titles.get(id) ?? 'unknown' };
  }
  getBook({ id }: { id: number }) {
    return this.#book(id);
  }
  cachedBook({ id }: { id: number }) {
    return this.#book(id);
  }
  publicBook({ id }: { id: number }) {
    return this.#book(id);
  }
  privateBook({ id }: { id: number }) {
    return this.#book(id);
  }
  privateCached({ id }: { id: number }) {
    return this.#book(id);
  }
  liveBook({ id }: { id: number }) {
    return this.#book(id);
  }
  taggedBook({ id }: { id: number }, call: Call) {
    call.header('etag', `"v${id}"`);
    return this.#book(id);
  }
  bookCount() {}
  addBook({ book }: { book: { id: number; title: string } }) {
    return book;
  }
  async *allBooks() {
    yield this.#book(1);
  }
}
meta(BooksImpl, Books);

const TOKEN = 'reader-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

for (const transport of TRANSPORTS) {
  describe(`transports: conditional requests and caching (${transport.kind})`, () => {
    let served: Served;
    let impl: BooksImpl;
    const url = (path: string) => `${served.url}/api${path}`;
    const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
      send(url(path), { method, headers });
    beforeEach(async () => {
      impl = new BooksImpl();
      const registry = new Registry({
        security: {
          bearer: bearerAuth({
            verify: (token) => (token === TOKEN ? 'reader' : undefined),
            key: contextKey<string>('reader'),
          }),
        },
      });
      served = await transport.serve('/api', registry.on(impl).endpoints);
    });
    afterEach(() => served.stop());

    describe('ETag and If-None-Match', () => {
      const accepts = ['application/json', 'application/msgpack', 'application/cbor'];

      it('tags a GET answer with a strong ETag, the same for the same bytes, another per codec', async () => {
        const tags: string[] = [];
        for (const accept of accepts) {
          const first = await get('/books/1', { accept });
          const again = await get('/books/1', { accept });
          expect(first.status).to.equal(200);
          expect(first.headers.etag).to.match(/^"[0-9a-f]{16}"$/);
          expect(again.headers.etag).to.equal(first.headers.etag);
          expect(first.headers.vary).to.match(/Accept/);
          tags.push(first.headers.etag!);
        }
        expect(new Set(tags).size).to.equal(3);
        expect((await get('/books/2')).headers.etag).not.to.equal(tags[0]);
      });

      for (const accept of accepts) {
        it(`answers 304 without a body to a matching If-None-Match (${accept})`, async () => {
          const first = await get('/books/1', { accept });
          const tag = first.headers.etag!;
          const again = await get('/books/1', { accept, 'if-none-match': tag });
          expect(again.status).to.equal(304);
          expect(again.body.byteLength).to.equal(0);
          expect(again.headers.etag).to.equal(tag);
          expect(again.headers.vary).to.match(/Accept/);
          expect(again.headers).not.to.have.property('content-type');
          // A cache would take a Content-Length of 0 for the stored answer's.
          expect(again.headers).not.to.have.property('content-length');
        });
      }

      it("answers 200 with the body once the bytes changed, and to another codec's tag", async () => {
        const tag = (await get('/books/1')).headers.etag!;
        const cbor = await get('/books/1', { accept: 'application/cbor', 'if-none-match': tag });
        expect(cbor.status).to.equal(200);
        impl.titles.set(1, 'Dune Messiah');
        const changed = await get('/books/1', { 'if-none-match': tag });
        expect(changed.status).to.equal(200);
        expect(changed.json()).to.deep.equal({ id: 1, title: 'Dune Messiah' });
        expect(changed.headers.etag).not.to.equal(tag);
      });

      it('matches a tag anywhere in a list, weak or strong (weak comparison), and * always', async () => {
        const tag = (await get('/books/1')).headers.etag!;
        for (const header of [`"nope", ${tag}`, `W/${tag}`, `"a",W/"b" ,\tW/${tag} , "c"`, '*']) {
          expect((await get('/books/1', { 'if-none-match': header })).status, header).to.equal(304);
        }
        for (const header of ['"nope"', `W/"b", "c"`, tag.slice(1, -1), `"${tag}"`, '']) {
          expect((await get('/books/1', { 'if-none-match': header })).status, header).to.equal(200);
        }
      });

      it('weakens the tag of a compressed answer, and answers 304 to it, weak as the client holds it', async () => {
        impl.titles.set(1, 'long '.repeat(500));
        const plain = await get('/books/1');
        const gzip = await get('/books/1', { 'accept-encoding': 'gzip' });
        expect(gzip.headers['content-encoding']).to.equal('gzip');
        expect(gzip.headers.etag).to.equal(`W/${plain.headers.etag}`);
        const again = await get('/books/1', { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag! });
        expect(again.status).to.equal(304);
        expect(again.headers.etag).to.equal(gzip.headers.etag);
        expect(again.headers).not.to.have.property('content-encoding');
        expect((await get('/books/1', { 'if-none-match': plain.headers.etag! })).headers.etag).to.equal(
          plain.headers.etag,
        );
      });

      it('answers HEAD as GET: the same ETag, and 304 when it matches', async () => {
        const got = await get('/books/1');
        const head = await get('/books/1', {}, 'HEAD');
        expect(head.status).to.equal(200);
        expect(head.body.byteLength).to.equal(0);
        expect(head.headers.etag).to.equal(got.headers.etag);
        expect((await get('/books/1', { 'if-none-match': got.headers.etag! }, 'HEAD')).status).to.equal(304);
      });

      it('keeps the ETag a method set, and compares If-None-Match with it', async () => {
        const reply = await get('/tagged/7');
        expect(reply.headers.etag).to.equal('"v7"');
        expect((await get('/tagged/7', { 'if-none-match': '"v7"' })).status).to.equal(304);
      });

      it('tags no answer of another verb, of a stream, of cache: no-store, or without a body', async () => {
        const post = await send(url('/books'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"book":{"id":3,"title":"Ulysses"}}',
        });
        expect(post.status).to.equal(200);
        expect(post.headers).not.to.have.property('etag');
        const stream = await get('/all', { accept: 'application/jsonl' });
        expect(stream.status).to.equal(200);
        expect(stream.headers).not.to.have.property('etag');
        expect(stream.headers['cache-control']).to.equal('no-store');
        const live = await get('/live/1', { 'if-none-match': '*' });
        expect(live.status).to.equal(200);
        expect(live.headers).not.to.have.property('etag');
        expect(live.headers['cache-control']).to.equal('no-store');
        const count = await get('/count', { 'if-none-match': '*' });
        expect(count.status).to.equal(204);
        expect(count.headers).not.to.have.property('etag');
      });

      it('answers a failure without an ETag, whatever If-None-Match says', async () => {
        const reply = await get('/books/x', { 'if-none-match': '*' });
        expect(reply.status).to.equal(400);
        expect(reply.headers).not.to.have.property('etag');
      });
    });

    describe('Cache-Control', () => {
      const control = async (path: string, headers: Record<string, string> = {}): Promise<string | undefined> => {
        const reply: Reply = await get(path, headers);
        expect(reply.status, reply.text).to.be.oneOf([200, 204]);
        return reply.headers['cache-control'];
      };

      it('writes none for a public method without cache, max-age for one with it', async () => {
        expect(await control('/books/1')).to.equal(undefined);
        expect(await control('/cached/1')).to.equal('max-age=60');
        expect(await control('/count')).to.equal('max-age=5');
      });

      it('writes private for a secured method without cache, and with a maxAge but no visibility', async () => {
        expect(await control('/private/1', AUTH)).to.equal('private');
        expect(await control('/private-cached/1', AUTH)).to.equal('private, max-age=10');
      });

      it('writes the visibility a method names', async () => {
        expect(await control('/public/1', AUTH)).to.equal('public, max-age=30');
      });

      it('writes it on a 304 too', async () => {
        const tag = (await get('/cached/1')).headers.etag!;
        const again = await get('/cached/1', { 'if-none-match': tag });
        expect(again.status).to.equal(304);
        expect(again.headers['cache-control']).to.equal('max-age=60');
      });
    });
  });
}

describe('method(): cache', () => {
  it('refuses a policy that is not no-store or { maxAge, visibility? }', () => {
    for (const bad of ['public', { maxAge: -1 }, { maxAge: 1.5 }, { maxAge: 10, visibility: 'shared' }, null]) {
      expect(() => method([], t.string(), { cache: bad as never }), JSON.stringify(bad)).to.throw(
        TypeError,
        /cache must be/,
      );
    }
  });
});
