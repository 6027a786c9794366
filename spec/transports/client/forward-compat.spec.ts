// The client against servers of another version, over real HTTP: answers are read with
// errorOnUnknownKeys: false unless the client asks otherwise, so a server whose contract grew a
// member still answers older clients; parameters are typed by InferInput (members with .default()
// may be left out); a 400 problem's `errors` reach the HttpError the call rejects with.
import { expect } from 'chai';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import {
  HttpError,
  meta,
  method,
  ReadError,
  Registry,
  service,
  t,
  type Codec,
  type Infer,
  type InferInput,
} from '../../../index.ts';
import { createClient, type ClientParams, type ProblemEntry } from '../../../transports/client/index.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen } from '../../support/http-client.ts';

// ---- Version 2 of a contract, served ------------------------------------------------------------

const Circle = t.object({ type: t.literal('circle'), r: t.f64() });
const Square = t.object({ type: t.literal('square'), side: t.f64() });

const UserV2 = t.object(
  {
    id: t.u64(),
    name: t.string(),
    email: t.string(), // new in version 2
    home: t.object({ city: t.string(), zip: t.string() }), // zip is new
    shape: t.variant('type', [t.object({ type: t.literal('circle'), r: t.f64(), color: t.string() }), Square]), // color is new
    friends: t.array(t.object({ id: t.u64(), since: t.timestamp() })), // since is new
  },
  { name: 'User' },
);
type UserV2 = Infer<typeof UserV2>;

const Search = t.object({
  query: t.string(),
  limit: t.u8({ maximum: 50 }).default(10),
  tags: t.array(t.string()).default([]),
});

class UsersV2 {
  getUser(id: bigint): UserV2 {
    return {
      id,
      name: 'Ada',
      email: 'ada@example.com',
      home: { city: 'London', zip: 'N1' },
      shape: { type: 'circle', r: 1, color: 'red' },
      friends: [{ id: 2n, since: new Date(0) }],
    };
  }
  search(s: Infer<typeof Search>): string {
    return `${s.query} ${s.limit} ${s.tags.length}`;
  }
  createUsers(users: { name: string; age: number }[]): number {
    return users.length;
  }
}
meta(
  UsersV2,
  service({
    getUser: method([t.u64()], UserV2),
    search: method([Search], t.string()),
    createUsers: method([t.array(t.object({ name: t.string({ minLength: 1 }), age: t.u8() }))], t.u32()),
  }),
);

// ---- Version 1, as an older client knows it -----------------------------------------------------

const UserV1 = t.object({
  id: t.u64(),
  name: t.string(),
  home: t.object({ city: t.string() }),
  shape: t.variant('type', [Circle, Square]),
  friends: t.array(t.object({ id: t.u64() })),
});
const UsersV1 = service({
  getUser: method([t.u64()], UserV1),
  search: method([Search], t.string()),
  createUsers: method([t.array(t.object({ name: t.string(), age: t.u8() }))], t.u32()),
});

const CODECS: readonly Codec[] = [json, msgpack, cbor];
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  );

describe('transports/client: forward compatibility and input types', () => {
  const server = new HttpServer();
  let base = '';
  before(async () => {
    // The server stays strict: errorOnMissingKeys on, unknown keys refused.
    server.mount('/api', new Registry({ onError: () => {}, errorOnMissingKeys: true }).on(new UsersV2()).endpoints);
    base = `${await listen(server)}/api`;
  });
  after(() => server.stop());

  for (const codec of CODECS) {
    describe(`in ${codec.name}`, () => {
      it('reads an answer with members its contract does not know, leaving them out, at any depth', async () => {
        const api = createClient(UsersV1, { baseUrl: base, codec });
        const user = await api.getUser(1n);
        expect(user).to.deep.equal({
          id: 1n,
          name: 'Ada',
          home: { city: 'London' },
          shape: { type: 'circle', r: 1 },
          friends: [{ id: 2n }],
        });
        expect(Object.keys(user)).to.deep.equal(['id', 'name', 'home', 'shape', 'friends']);
      });

      it('refuses them with errorOnUnknownKeys: true, listing every one', async () => {
        const strict = createClient(UsersV1, { baseUrl: base, codec, errorOnUnknownKeys: true });
        const error = await rejection(strict.getUser(1n));
        expect(error).to.be.instanceOf(ReadError).and.include({ code: 'unknown_key' });
        const errors = (error as ReadError).errors;
        expect(errors.map((e) => e.path)).to.have.members(['/email', '/home/zip', '/shape/color', '/friends/0/since']);
        expect(errors.every((e) => e.code === 'unknown_key')).to.equal(true);
      });

      it('keeps its other reading options: errorOnMissingKeys applies to the answer as given', async () => {
        const Wider = service({ getUser: method([t.u64()], t.object({ id: t.u64(), nickname: t.string() })) });
        const lenient = createClient(Wider, { baseUrl: base, codec });
        expect(await lenient.getUser(3n)).to.deep.equal({ id: 3n, nickname: '' });
        const strict = createClient(Wider, { baseUrl: base, codec, errorOnMissingKeys: true });
        expect(await rejection(strict.getUser(3n)))
          .to.be.instanceOf(ReadError)
          .and.include({ code: 'missing_key', path: '/nickname' });
      });

      it('sends the defaults of the members a call leaves out', async () => {
        const api = createClient(UsersV1, { baseUrl: base, codec });
        expect(await api.search({ query: 'ada' })).to.equal('ada 10 0');
        expect(await api.search({ query: 'ada', limit: 3, tags: ['x'] })).to.equal('ada 3 1');
      });

      it('rejects a body the server refuses with an HttpError carrying every problem as errors', async () => {
        const api = createClient(UsersV1, { baseUrl: base, codec });
        const error = await rejection(
          api.createUsers([
            { name: '', age: 1 },
            { name: 'Bo', age: 2 },
            { name: '', age: 3 },
          ]),
        );
        expect(error).to.be.instanceOf(HttpError).and.include({ status: 400, code: 'out_of_range', path: '/0/name' });
        const errors = (error as HttpError).errors;
        expect(errors.map((e) => [e.code, e.path])).to.deep.equal([
          ['out_of_range', '/0/name'],
          ['out_of_range', '/2/name'],
        ]);
        expect(errors[0]!.message).to.equal((error as HttpError).detail);
        const entry: ProblemEntry = errors[1]!;
        expect(entry.message).to.include('minLength');
      });
    });
  }

  it('gives an HttpError without errors for other problems, and keeps detail when errors has a shape of its own', async () => {
    const answer =
      (body: unknown, contentType = 'application/problem+json') =>
      async () =>
        new Response(
          contentType.endsWith('cbor') ? (cbor.encode(t.unknown(), body) as BodyInit) : JSON.stringify(body),
          { status: 400, headers: { 'content-type': contentType } },
        );
    const plain = createClient(UsersV1, {
      baseUrl: base,
      codec: json,
      fetch: async () =>
        new Response(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such user' }), {
          status: 404,
          headers: { 'content-type': 'application/problem+json' },
        }),
    });
    expect(await rejection(plain.getUser(1n)))
      .to.be.instanceOf(HttpError)
      .and.deep.include({ status: 404, errors: [] });

    const odd = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'bad',
      errors: [{ code: 'x', path: '/a', message: 'm' }, 'junk', { code: 1 }],
    };
    const viaJson = createClient(UsersV1, { baseUrl: base, codec: json, fetch: answer(odd) });
    expect(await rejection(viaJson.getUser(1n))).to.deep.include({
      detail: 'bad',
      errors: [{ code: 'x', path: '/a', message: 'm' }],
    });
    const viaCbor = createClient(UsersV1, {
      baseUrl: base,
      codec: cbor,
      fetch: answer({ ...odd, errors: 'none' }, 'application/problem+cbor'),
    });
    expect(await rejection(viaCbor.getUser(1n))).to.deep.include({ detail: 'bad', errors: [] });
  });

  it('types parameters by InferInput and results by Infer', () => {
    const api = createClient(UsersV1, { baseUrl: base, codec: json });
    const typed = async () => {
      const s: Promise<string> = api.search({ query: 'x' });
      const input: ClientParams<[typeof Search]> = [{ query: 'x', tags: [] }];
      const same: InferInput<typeof Search> = input[0];
      // @ts-expect-error: query has no default
      void api.search({ limit: 3 });
      // @ts-expect-error: limit is a number
      void api.search({ query: 'x', limit: '3' });
      // @ts-expect-error: Infer, what reading gives (and a result is), has every member
      const read: Infer<typeof Search> = { query: 'x' };
      const user: { id: bigint; name: string } = await api.getUser(1n);
      return [s, same, read, user];
    };
    expect(typed).to.be.a('function');
  });
});
