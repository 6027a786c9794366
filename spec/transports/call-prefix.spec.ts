// `call.prefix`: the mount path a request came through, on both transports and every protocol, so
// that a `Location` names the path the client can follow, also for a service mounted twice.
import { expect } from 'chai';
import { JSONRPC, Registry, meta, method, service, t, type Call } from '../../index.ts';
import type { Served } from '../support/fetch-server.ts';
import { send } from '../support/http-client.ts';
import { TRANSPORTS } from './both-transports.ts';

const Book = t.object({ id: t.u32(), title: t.string() }, { name: 'Book' });

class Books {
  readonly prefixes: string[] = [];
  createBook(book: { id: number; title: string }, call: Call) {
    this.prefixes.push(call.prefix);
    call.header('location', `${call.prefix}/books/${book.id}`);
    return book;
  }
}
meta(Books, service({ createBook: method([Book], Book, { status: 201 }) }));

const JSON_TYPE = { 'content-type': 'application/json' };

for (const transport of TRANSPORTS) {
  describe(`transports: call.prefix (${transport.kind})`, () => {
    let served: Served | undefined;
    afterEach(() => served?.stop());

    it('is the mount path the request came through, for a service mounted twice', async () => {
      const books = new Books();
      const endpoints = new Registry().on(books).endpoints;
      served = await transport.serve('/v1', endpoints, {}, [['/v2/library', endpoints]]);
      for (const prefix of ['/v1', '/v2/library']) {
        const created = await send(`${served.url}${prefix}/createBook`, {
          method: 'POST',
          headers: JSON_TYPE,
          body: '{"id":7,"title":"Emma"}',
        });
        expect(created.status).to.equal(201);
        expect(created.headers.location).to.equal(`${prefix}/books/7`);
      }
    });

    it("is empty at the root, and the JSON-RPC route's mount path for a JSON-RPC call", async () => {
      const books = new Books();
      served = await transport.serve('/', new Registry().on(books).endpoints, {}, [
        ['/rpc', new Registry({}, JSONRPC).on(books).endpoints],
      ]);
      const created = await send(`${served.url}/createBook`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: '{"id":1,"title":"Dune"}',
      });
      expect(created.headers.location).to.equal('/books/1');
      const called = await send(`${served.url}/rpc`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: '{"jsonrpc":"2.0","method":"createBook","params":[{"id":2,"title":"Emma"}],"id":1}',
      });
      expect(called.json()).to.have.nested.property('result.id', 2);
      expect(books.prefixes).to.deep.equal(['', '/rpc']);
    });
  });
}
