// Resource routes on both transports, through real HTTP: arguments from the path, the query and
// the body, shared paths with several verbs, HEAD and 405, a literal segment over a parameter, and
// everything an endpoint owes its caller (security, interceptors, onResponse, negotiation,
// problems) on a routed endpoint as on any other; then the typed client against the same server.
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import { expect } from 'chai';
import { json } from '../../../codecs/json/index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { HttpError } from '../../../index.ts';
import { createClient } from '../../../transports/client/index.ts';
import type { Served } from '../../support/fetch-server.ts';
import { send } from '../../support/http-client.ts';
import { TRANSPORTS } from '../both-transports.ts';
import { NotesApi, TOKEN, notesRegistry } from './notes-service.ts';

const MAX = '18446744073709551615';

for (const transport of TRANSPORTS) {
  describe(`transports: resource routes (${transport.kind})`, () => {
    let served: Served;
    let state: ReturnType<typeof notesRegistry>;
    const url = (path: string) => `${served.url}/api${path}`;
    beforeEach(async () => {
      state = notesRegistry({ errorOnMissingKeys: 'unless-default' });
      served = await transport.serve('/api', state.registry.endpoints);
    });
    afterEach(() => served.stop());

    describe('path parameters', () => {
      it('reads a u64 above 2^53 from its segment, exactly', async () => {
        const reply = await send(url(`/notes/${MAX}`));
        expect(reply.status).to.equal(200);
        expect(reply.text).to.equal(`{"id":${MAX},"title":"max","tags":[]}`);
        expect(state.seen.at(-1)).to.deep.equal({ method: 'getNote', args: [{ id: 2n ** 64n - 1n }] });
      });

      for (const [segment, code] of [
        ['x', 'type_mismatch'],
        ['-1', 'out_of_range'],
        [`${MAX}0`, 'out_of_range'],
        ['1.0', 'type_mismatch'],
        ['%2B1', 'type_mismatch'],
      ] as const) {
        it(`answers 400 naming /id for the segment '${segment}' (${code})`, async () => {
          const reply = await send(url(`/notes/${segment}`));
          expect(reply.status).to.equal(400);
          expect(reply.headers['content-type']).to.equal('application/problem+json');
          expect(reply.json()).to.include({ code, path: '/id' });
          expect(state.seen).to.deep.equal([]);
        });
      }

      it('reads a timestamp, a bool and a negative i64 from three segments', async () => {
        const reply = await send(url('/notes/at/2024-02-29T12%3A00%3A00Z/true/-9223372036854775808'));
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.json()).to.equal('2024-02-29T12:00:00.000Z true -9223372036854775808');
      });

      it('names each segment that does not read', async () => {
        const reply = await send(url('/notes/at/yesterday/yes/1'));
        expect(reply.status).to.equal(400);
        expect(reply.json().errors.map((e: { path: string }) => e.path)).to.have.members(['/day', '/pinned']);
      });

      it('refuses a segment holding an encoded / or \\ with 400, before any route', async () => {
        for (const path of ['/notes/1%2F2', '/notes/%5C']) {
          const reply = await send(url(path));
          expect(reply.status, path).to.equal(400);
        }
        expect(state.seen).to.deep.equal([]);
      });
    });

    describe('one path, several verbs', () => {
      it('GET, PUT (body: the patch), PATCH (body: an object of the two) and DELETE on /notes/:id', async () => {
        expect((await send(url('/notes/1'))).json()).to.deep.equal({ id: 1, title: 'one', tags: ['a'] });
        const put = await send(url('/notes/1'), {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: '{"patch":{"title":"uno"}}',
        });
        expect(put.json()).to.deep.equal({ id: 1, title: 'uno', tags: ['a'] });
        const patch = await send(url('/notes/1'), {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{"title":"eins","tags":["x"]}',
        });
        expect(patch.json()).to.deep.equal({ id: 1, title: 'eins', tags: ['x'] });
        const del = await send(url('/notes/1'), { method: 'DELETE' });
        expect(del.status).to.equal(204);
        expect((await send(url('/notes/1'))).status).to.equal(404);
      });

      it('answers HEAD for a GET route, with the GET headers and no body', async () => {
        const reply = await send(url('/notes/1'), { method: 'HEAD' });
        expect(reply.status).to.equal(200);
        expect(reply.headers['content-type']).to.equal('application/json');
        expect(reply.body.length).to.equal(0);
      });

      it('answers 405 with Allow listing every verb of the path', async () => {
        const reply = await send(url('/notes/1'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(reply.status).to.equal(405);
        expect(reply.headers.allow).to.equal('GET, HEAD, PUT, PATCH, DELETE');
        const collection = await send(url('/notes'), { method: 'DELETE' });
        expect(collection.status).to.equal(405);
        expect(collection.headers.allow).to.equal('GET, HEAD, POST');
      });

      it('answers 404 for a path no route matches', async () => {
        expect((await send(url('/notes/1/2/3'))).status).to.equal(404);
        expect((await send(url('/notes/'))).status).to.equal(404);
      });

      it('serves a literal segment before a parameter: /notes/search is not /notes/:id', async () => {
        const reply = await send(url('/notes/search?query=a'));
        expect(reply.status, reply.text).to.equal(200);
        expect(state.seen.at(-1)?.method).to.equal('searchNotes');
      });

      it('reads the body of a POST route with its status and headers', async () => {
        const reply = await send(url('/notes'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"note":{"id":7,"title":"seven","tags":[]}}',
        });
        expect(reply.status).to.equal(201);
        expect(reply.headers.location).to.equal('/notes/7');
        expect((await send(url('/notes/7'))).json().title).to.equal('seven');
      });

      it('keeps the specification path for a method without a route', async () => {
        const reply = await send(url('/countNotes'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '"o"',
        });
        expect(reply.json()).to.equal(1);
      });
    });

    describe('query strings', () => {
      it('reads an enum once and an array as a repeated key', async () => {
        const reply = await send(url('/notes?order=oldest&tags=a'));
        expect(reply.status, reply.text).to.equal(200);
        expect(state.seen.at(-1)).to.deep.equal({ method: 'listNotes', args: [{ order: 'oldest', tags: ['a'] }] });
        await send(url('/notes?order=newest&tags=a&tags=b&tags=c%20d'));
        expect(state.seen.at(-1)?.args).to.deep.equal([{ order: 'newest', tags: ['a', 'b', 'c d'] }]);
      });

      it('spreads an object parameter over the query, + as a space, with its defaults', async () => {
        const reply = await send(
          url('/notes/search?query=grüße+und%26mehr&tag=x'.replace('grüße', encodeURIComponent('grüße'))),
        );
        expect(reply.status, reply.text).to.equal(200);
        expect(state.seen.at(-1)?.args).to.deep.equal([{ q: { query: 'grüße und&mehr', limit: 10, tag: 'x' } }]);
      });

      it('names a member of the spread object that does not read: /q/limit', async () => {
        const reply = await send(url('/notes/search?query=a&limit=51'));
        expect(reply.status).to.equal(400);
        expect(reply.json()).to.include({ code: 'out_of_range', path: '/q/limit' });
      });

      it('refuses an unknown key and a missing one, both listed', async () => {
        const reply = await send(url('/notes?tags=a&colour=red'));
        expect(reply.status).to.equal(400);
        const errors = reply.json().errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`);
        expect(errors).to.have.members(['missing_key /order', 'unknown_key /colour']);
      });

      it('ignores the query of a body route', async () => {
        const reply = await send(url('/notes/1?whatever=1'), {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: '{"patch":{"title":"q"}}',
        });
        expect(reply.status).to.equal(200);
      });
    });

    describe('what every endpoint owes its caller, on a route', () => {
      it('checks security before reading anything: 401 with WWW-Authenticate, then the caller', async () => {
        const refused = await send(url('/notes/x/secret'));
        expect(refused.status).to.equal(401);
        expect(refused.headers['www-authenticate']).to.match(/^Bearer/);
        const admitted = await send(url('/notes/5/secret'), { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(admitted.json()).to.deep.equal({ id: 5, title: 'for reader', tags: [] });
      });

      it('runs interceptors with the named arguments as one object', async () => {
        await send(url('/notes/1'), {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: '{"tags":[],"title":"t"}',
        });
        expect(state.seen.at(-1)).to.deep.equal({ method: 'renameNote', args: [{ id: 1n, title: 't', tags: [] }] });
      });

      it('reports each answer to onResponse, 400s of the path included', async () => {
        await send(url('/notes/nope'), { headers: { 'x-request-id': 'route-400' } });
        await send(url('/notes/1'), { headers: { 'x-request-id': 'route-200' } });
        const byId = (id: string) => state.reports.find((r) => r.call.requestId === id);
        expect(byId('route-400')).to.deep.include({ status: 400, path: '/api/notes/nope' });
        expect(byId('route-400')!.call.method).to.equal('getNote');
        expect(byId('route-200')).to.deep.include({ status: 200, path: '/api/notes/1' });
      });

      it('negotiates the answer and reads the body in MessagePack and CBOR', async () => {
        const got = await send(url(`/notes/${MAX}`), { headers: { accept: 'application/msgpack' } });
        expect(got.headers['content-type']).to.equal('application/msgpack');
        expect(msgpackDecode(got.body, { useBigInt64: true })).to.deep.equal({
          id: 2n ** 64n - 1n,
          title: 'max',
          tags: [],
        });
        const put = await send(url('/notes/1'), {
          method: 'PUT',
          headers: { 'content-type': 'application/msgpack', accept: 'application/cbor' },
          body: msgpackEncode({ patch: { title: 'bin' } }),
        });
        expect(put.status).to.equal(200);
        expect(put.headers['content-type']).to.equal('application/cbor');
      });
    });

    describe('the typed client', () => {
      for (const codec of [json, msgpack, cbor]) {
        it(`calls every route with its arguments by name (${codec.contentTypes[0]})`, async () => {
          const api = createClient(NotesApi, {
            baseUrl: url(''),
            codec,
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          expect(await api.getNote({ id: 2n ** 64n - 1n })).to.deep.equal({
            id: 2n ** 64n - 1n,
            title: 'max',
            tags: [],
          });
          expect(await api.createNote({ note: { id: 9n, title: 'nine', tags: ['t'] } })).to.deep.equal({
            id: 9n,
            title: 'nine',
            tags: ['t'],
          });
          expect(await api.updateNote({ id: 9n, patch: { title: 'neun' } })).to.deep.include({ title: 'neun' });
          expect(await api.renameNote({ id: 9n, title: 'n/ä?#&', tags: ['x', 'y'] })).to.deep.include({
            title: 'n/ä?#&',
            tags: ['x', 'y'],
          });
          expect(await api.listNotes({ order: 'oldest', tags: ['t'] })).to.deep.equal([
            { id: 9n, title: 'nine', tags: ['t'] },
          ]);
          expect(await api.searchNotes({ q: { query: 'a&b=c d+e', tag: '?' } })).to.deep.equal([
            { id: 10n, title: 'a&b=c d+e|?', tags: [] },
          ]);
          expect(await api.noteAt({ day: new Date('2024-01-01T00:00:00Z'), pinned: false, offset: -5n })).to.equal(
            '2024-01-01T00:00:00.000Z false -5',
          );
          expect(await api.secretNote({ id: 3n })).to.deep.include({ title: 'for reader' });
          expect(await api.countNotes('n')).to.equal(1);
          await api.deleteNote({ id: 9n });
          const missing = await api.getNote({ id: 9n }).catch((e: unknown) => e);
          expect(missing).to.be.instanceOf(HttpError);
          expect((missing as HttpError).status).to.equal(404);
        });
      }

      it('refuses, before sending, a path value that cannot be a segment and a value its descriptor refuses', async () => {
        const api = createClient(NotesApi, { baseUrl: url(''), codec: json });
        const before = state.seen.length;
        for (const args of [{ id: -1n }, {}, { id: 'one' }]) {
          const error = await api.getNote(args as never).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error, Object.keys(args).join()).to.be.instanceOf(Error);
        }
        expect(state.seen.length).to.equal(before);
      });
    });
  });
}
