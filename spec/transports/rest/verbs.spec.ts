import { expect } from 'chai';
import { Registry, method, t } from '../../../index.ts';
import { startsWithWord, verbFor } from '../../../transports/rest/verb.ts';
import { HttpServer } from '../../../transports/http/index.ts';
import { listen, post, send } from '../../support/http-client.ts';
import { EXPECTED_VERBS, VerbService } from '../../support/services.ts';

describe('transports/rest: verbs', () => {
  describe('word-boundary prefixes', () => {
    for (const name of ['getUser', 'get_user', 'get', 'get2', 'get$']) {
      it(`${name} starts with the word get`, () => expect(startsWithWord(name, 'get')).to.equal(true));
    }
    for (const [name, prefix] of [
      ['getaway', 'get'],
      ['listen', 'list'],
      ['deleted', 'delete'],
      ['finder', 'find'],
      ['Get', 'get'],
    ] as const) {
      it(`${name} does not start with the word ${prefix}`, () => expect(startsWithWord(name, prefix)).to.equal(false));
    }
  });

  describe('the rules, in order', () => {
    const none = method([], t.string());
    const one = method([t.u64()], t.string());
    const cases: [string, ReturnType<typeof method>, string][] = [
      ['deleteUser', one, 'DELETE'],
      ['delete', none, 'DELETE'],
      ['deleteAll', none, 'DELETE'],
      ['updateUser', one, 'PUT'],
      ['update', none, 'PUT'],
      ['createUser', one, 'POST'],
      ['createDefault', none, 'POST'],
      ['getAllUsers', none, 'GET'],
      ['findAll', none, 'GET'],
      ['listBooks', none, 'GET'],
      ['get_version', none, 'GET'],
      ['getUserById', one, 'POST'],
      ['findUser', one, 'POST'],
      ['listPage', one, 'POST'],
      ['searchUsers', one, 'POST'],
      ['ping', none, 'POST'],
      ['getaway', none, 'POST'],
      ['listen', none, 'POST'],
      ['deleted', one, 'POST'],
      ['updates', none, 'POST'],
      ['creates', none, 'POST'],
    ];
    for (const [name, contract, verb] of cases) {
      it(`${name}(${contract.params.length ? 'x' : ''}) → ${verb}`, () =>
        expect(verbFor(name, contract)).to.equal(verb));
    }
    it('method(..., { verb }) overrides the rules', () => {
      expect(verbFor('getUser', method([t.u64()], t.string(), { verb: 'PUT' }))).to.equal('PUT');
      expect(verbFor('ping', method([], t.string(), { verb: 'GET' }))).to.equal('GET');
    });
    it('refuses verb GET for a method with parameters', () => {
      expect(() => method([t.u64()], t.string(), { verb: 'GET' })).to.throw(TypeError, /GET.*parameters/);
    });
  });

  describe('through HTTP', () => {
    const service = new VerbService();
    const server = new HttpServer();
    server.mount('/v', new Registry({ onError: () => {} }).on(service).endpoints);
    let url = '';
    before(async () => (url = await listen(server)));
    after(() => server.stop());

    const bodies: Record<string, string> = {
      getItem: '7',
      deleteItem: '7',
      removeItem: '9',
      add: '[2, 3]',
      updateItem: '{"id": 1, "name": "u", "weight": 1}',
      createItem: '{"id": 1, "name": "c", "weight": 1}',
    };
    const voids = new Set(['deleteItem', 'delete', 'removeItem']);
    const expectedBody: Record<string, string> = {
      getItem: '"getItem 7"',
      add: '"add 5"',
      updateItem: '"updateItem u"',
      createItem: '"createItem c"',
    };

    for (const [name, verb] of Object.entries(EXPECTED_VERBS)) {
      it(`${name} answers ${verb} /v/${name}, and only that verb`, async () => {
        const body = bodies[name];
        const reply =
          body === undefined
            ? await send(`${url}/v/${name}`, { method: verb })
            : await post(`${url}/v/${name}`, body, verb);
        if (voids.has(name)) {
          expect(reply.status).to.equal(204);
          expect(reply.body.length).to.equal(0);
        } else {
          expect(reply.status, reply.text).to.equal(200);
          expect(reply.text).to.equal(expectedBody[name] ?? JSON.stringify(name));
        }
        const other = verb === 'POST' ? 'PUT' : 'POST';
        const wrong = await post(`${url}/v/${name}`, body ?? '', other);
        expect(wrong.status).to.equal(405);
        expect(wrong.headers.allow).to.equal(verb === 'GET' ? 'GET, HEAD' : verb);
      });
    }

    it('a void delete* method really ran (DELETE + 204)', async () => {
      service.deleted.length = 0;
      const reply = await post(`${url}/v/deleteItem`, '12', 'DELETE');
      expect(reply.status).to.equal(204);
      expect(service.deleted).to.deep.equal(['deleteItem 12']);
    });

    it('a method with several parameters takes an array body, one element each', async () => {
      expect((await post(`${url}/v/add`, '[40, 2]')).text).to.equal('"add 42"');
      const short = await post(`${url}/v/add`, '[40]');
      expect(short.status).to.equal(400);
      expect(short.json()).to.include({ code: 'type_mismatch', path: '' });
      const wrong = await post(`${url}/v/add`, '[40, "2"]');
      expect(wrong.json()).to.include({ code: 'type_mismatch', path: '/1' });
    });

    it('a method with one parameter takes its value as the body, not wrapped', async () => {
      expect((await post(`${url}/v/getItem`, '18446744073709551615')).text).to.equal('"getItem 18446744073709551615"');
      const wrapped = await post(`${url}/v/getItem`, '{"id": 5}');
      expect(wrapped.status).to.equal(400);
      expect(wrapped.json().code).to.equal('type_mismatch');
    });

    it('a method without parameters ignores a body', async () => {
      const reply = await post(`${url}/v/ping`, 'not json at all', 'POST', { 'content-type': 'text/plain' });
      expect(reply.status).to.equal(200);
      expect(reply.text).to.equal('"ping"');
    });

    it('a method with parameters and no body answers 400', async () => {
      const reply = await send(`${url}/v/getItem`, { method: 'POST' });
      expect(reply.status).to.equal(400);
      expect(reply.json().code).to.equal('syntax_error');
    });
  });
});
