import { expect } from 'chai';
import fc from 'fast-check';
import {
  apiKeyAuth,
  basicAuth,
  bearerAuth,
  contextKey,
  DEFAULT_MAX_CREDENTIAL_LENGTH,
  HttpError,
  meta,
  method,
  Registry,
  service,
  t,
  type BasicCredentials,
  type BodySource,
  type Call,
  type EndpointRequest,
  type EndpointResponse,
  type ErrorContext,
  type HeaderReader,
  type RegistryOptions,
} from '../../../../index.ts';
import { answerText } from '../../../support/answer-body.ts';

const USER = contextKey<string>('user');

const text = answerText;
const json = (answer: EndpointResponse) => JSON.parse(text(answer.body)) as Record<string, unknown>;

/** A POST to `path` with Web headers and a JSON body. */
function post(
  path: string,
  headers: Record<string, string> = {},
  body?: string | BodySource,
  search?: string,
): EndpointRequest {
  const encoded = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return {
    method: 'POST',
    path,
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
    body: encoded,
    ...(search === undefined ? {} : { search }),
  };
}

/** A request whose headers are read from `get`: any string may be a header value, as no Headers object would allow. */
function rawAuthorization(value: string): EndpointRequest {
  const headers: HeaderReader = { get: (name) => (name.toLowerCase() === 'authorization' ? value : null) };
  return { method: 'POST', path: '/whoAmI', headers, body: undefined };
}

/** A `verify` that records what it is given and admits everyone as `user:<credential>`. */
function recorder<C>(
  answer: (credential: C) => string | undefined = (c) => `user:${typeof c === 'string' ? c : JSON.stringify(c)}`,
) {
  const seen: C[] = [];
  const calls: Call[] = [];
  return {
    seen,
    calls,
    verify: (credential: C, call: Call) => {
      seen.push(credential);
      calls.push(call);
      return answer(credential);
    },
  };
}

/**
 * A fresh service class (each bound to its own contract): `whoAmI` and `store` take the service's
 * security, `ping` is public, `audit` names its own schemes.
 */
function vault(serviceSecurity: readonly string[], auditSecurity: readonly string[] = []) {
  class Vault {
    ran: string[] = [];
    whoAmI(call: Call): string {
      this.ran.push('whoAmI');
      return call.get(USER);
    }
    store(note: string, call: Call): string {
      this.ran.push('store');
      return `${call.get(USER)} stored ${note}`;
    }
    ping(): string {
      this.ran.push('ping');
      return 'pong';
    }
    audit(call: Call): string {
      this.ran.push('audit');
      return `audited by ${call.get(USER)}`;
    }
  }
  meta(
    Vault,
    service(
      {
        whoAmI: method([], t.string()),
        store: method([t.string()], t.string()),
        ping: method([], t.string(), { security: [] }),
        audit: method([], t.string(), { security: auditSecurity }),
      },
      { security: serviceSecurity },
    ),
  );
  return new Vault();
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const basicBytes = (bytes: number[]) => `Basic ${Buffer.from(bytes).toString('base64')}`;

const BEARER = 'Bearer realm="api"';
const BEARER_INVALID = 'Bearer realm="api", error="invalid_token"';
const BASIC = 'Basic realm="api", charset="UTF-8"';
const KEY_HEADER = 'ApiKey in="header", name="x-api-key"';
const KEY_QUERY = 'ApiKey in="query", name="api_key"';

/** A registry with a bearer scheme (and whatever `extra` adds) around a fresh Vault. */
function setup(security: readonly string[] = ['bearer'], extra: Partial<RegistryOptions> = {}) {
  const bearer = recorder<string>();
  const errors: [unknown, ErrorContext][] = [];
  const instance = vault(security);
  const registry = new Registry({
    security: { bearer: bearerAuth({ verify: bearer.verify, key: USER }) },
    onError: (e, c) => void errors.push([e, c]),
    ...extra,
  }).on(instance);
  return { bearer, errors, instance, endpoints: registry.endpoints };
}

function expectUnauthorized(answer: EndpointResponse, challenge: string, detail?: string) {
  expect(answer.status, text(answer.body)).to.equal(401);
  expect(answer.headers['www-authenticate']).to.equal(challenge);
  expect(answer.headers['content-type']).to.equal('application/problem+json');
  const doc = json(answer);
  expect(doc).to.include({ type: 'about:blank', title: 'Unauthorized', status: 401 });
  if (detail !== undefined) expect(doc.detail).to.equal(detail);
  expect(doc.requestId, 'a 401 is not a server failure').to.equal(undefined);
}

/** RFC 6750's b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

describe('transports/rest security schemes', () => {
  describe('options are checked when a scheme is made', () => {
    const key = USER;
    const verify = () => 'someone';

    it('verify must be a function', () => {
      expect(() => bearerAuth({ key } as never)).to.throw(TypeError, /bearerAuth\(\): verify must be a function/);
      expect(() => basicAuth({ key, verify: 'yes' } as never)).to.throw(
        TypeError,
        /basicAuth\(\): verify must be a function/,
      );
      expect(() => apiKeyAuth({ header: 'x-api-key', key } as never)).to.throw(
        TypeError,
        /apiKeyAuth\(\): verify must be a function/,
      );
      expect(() => bearerAuth(undefined as never)).to.throw(TypeError, /verify must be a function/);
    });

    it('key must be a contextKey', () => {
      expect(() => bearerAuth({ verify } as never)).to.throw(TypeError, /key must be a contextKey/);
      expect(() => bearerAuth({ verify, key: 'user' } as never)).to.throw(TypeError, /key must be a contextKey/);
      expect(() => basicAuth({ verify, key: null } as never)).to.throw(TypeError, /key must be a contextKey/);
      expect(() => apiKeyAuth({ query: 'api_key', verify, key: {} } as never)).to.throw(
        TypeError,
        /key must be a contextKey/,
      );
    });

    it('a realm must be printable ASCII without a quote or a backslash', () => {
      expect(() => bearerAuth({ verify, key, realm: 'my "api"' })).to.throw(TypeError, /realm/);
      expect(() => basicAuth({ verify, key, realm: 'a\\b' })).to.throw(TypeError, /realm/);
      expect(() => bearerAuth({ verify, key, realm: 'line\r\nbreak' })).to.throw(TypeError, /realm/);
      expect(() => basicAuth({ verify, key, realm: 'café' })).to.throw(TypeError, /realm/);
      expect(bearerAuth({ verify, key, realm: 'books & more' }).challenge()).to.equal('Bearer realm="books & more"');
      expect(basicAuth({ verify, key, realm: '' }).challenge()).to.equal('Basic realm="", charset="UTF-8"');
    });

    it('an API key is in a header or in the query: not both, not neither', () => {
      expect(() => apiKeyAuth({ verify, key, header: 'x-api-key', query: 'api_key' } as never)).to.throw(
        TypeError,
        /either header or query/,
      );
      expect(() => apiKeyAuth({ verify, key } as never)).to.throw(TypeError, /either header or query/);
      expect(() => apiKeyAuth({ verify, key, query: '' })).to.throw(TypeError, /non-empty string/);
      expect(() => apiKeyAuth({ verify, key, header: 5 } as never)).to.throw(TypeError, /non-empty string/);
    });

    it('an API key header must be a header name', () => {
      for (const header of ['x api key', 'x-api-key:', 'clé', 'x\r\ny', '(key)']) {
        expect(() => apiKeyAuth({ verify, key, header }), header).to.throw(TypeError, /is not a header name/);
      }
      expect(apiKeyAuth({ verify, key, header: 'X-Api-Key' }).openApi).to.deep.equal({
        type: 'apiKey',
        in: 'header',
        name: 'X-Api-Key',
      });
    });

    it('maxLength must be an integer ≥ 1', () => {
      for (const maxLength of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => bearerAuth({ verify, key, maxLength }), String(maxLength)).to.throw(RangeError, /maxLength/);
        expect(() => basicAuth({ verify, key, maxLength }), String(maxLength)).to.throw(RangeError, /maxLength/);
        expect(() => apiKeyAuth({ verify, key, header: 'x-api-key', maxLength }), String(maxLength)).to.throw(
          RangeError,
          /maxLength/,
        );
      }
      expect(() => bearerAuth({ verify, key, maxLength: 1 })).not.to.throw();
    });

    it('describes each scheme for OpenAPI', () => {
      expect(bearerAuth({ verify, key }).openApi).to.deep.equal({ type: 'http', scheme: 'bearer' });
      expect(basicAuth({ verify, key }).openApi).to.deep.equal({ type: 'http', scheme: 'basic' });
      expect(apiKeyAuth({ verify, key, query: 'api_key' }).openApi).to.deep.equal({
        type: 'apiKey',
        in: 'query',
        name: 'api_key',
      });
    });

    it('a registry refuses a scheme that is not one', () => {
      expect(() => new Registry({ security: { x: {} as never } })).to.throw(
        TypeError,
        /security\.x must be bearerAuth\(\), apiKeyAuth\(\) or basicAuth\(\)/,
      );
      expect(() => new Registry({ security: { x: null as never } })).to.throw(TypeError, /security\.x/);
    });
  });

  describe('registration', () => {
    it('on() refuses a contract naming a scheme the registry lacks, naming the scheme and the method, and registers nothing', () => {
      const registry = new Registry({ security: { bearer: bearerAuth({ verify: () => 'u', key: USER }) } });
      expect(() => registry.on(vault(['oauth']))).to.throw(
        TypeError,
        /Vault\.whoAmI names the security scheme 'oauth'/,
      );
      expect(registry.endpoints.routes.size).to.equal(0);
      // The unknown scheme is on the fourth method only: the first three are not registered either.
      expect(() => registry.on(vault(['bearer'], ['basic']))).to.throw(
        TypeError,
        /Vault\.audit names the security scheme 'basic'/,
      );
      expect(registry.endpoints.routes.size).to.equal(0);
      // The same service is accepted once the registry has the scheme.
      expect(() =>
        new Registry({ security: { bearer: bearerAuth({ verify: () => 'u', key: USER }) } }).on(vault(['bearer'], [])),
      ).not.to.throw();
    });

    it('a registry without schemes takes public services, and refuses secured ones', () => {
      expect(() => new Registry().on(vault([], []))).not.to.throw();
      expect(() => new Registry().on(vault(['bearer'], []))).to.throw(TypeError, /'bearer'/);
    });
  });

  describe('which methods are secured', () => {
    it('a method with security: [] is public inside a secured service', async () => {
      const { endpoints, bearer, instance } = setup();
      const answer = await endpoints.handle(post('/ping'));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"pong"');
      expect(instance.ran).to.deep.equal(['ping']);
      expect(bearer.seen).to.deep.equal([]);
    });

    it("a method naming its own schemes overrides the service's", async () => {
      const basicUsers = recorder<BasicCredentials>((c) => c.username);
      const bearer = recorder<string>();
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({ verify: bearer.verify, key: USER }),
          basic: basicAuth({ verify: basicUsers.verify, key: USER }),
        },
      }).on(vault(['bearer'], ['basic'])).endpoints;
      // audit takes basic only: a bearer token is no credential for it.
      expectUnauthorized(await endpoints.handle(post('/audit', { authorization: 'Bearer abc' })), BASIC);
      expect(bearer.seen).to.deep.equal([]);
      const answer = await endpoints.handle(post('/audit', { authorization: basic('ann', 'pw') }));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"audited by ann"');
      // whoAmI takes the service's bearer only.
      expectUnauthorized(await endpoints.handle(post('/whoAmI', { authorization: basic('ann', 'pw') })), BEARER);
      expect((await endpoints.handle(post('/whoAmI', { authorization: 'Bearer abc' }))).status).to.equal(200);
    });
  });

  describe('bearer tokens', () => {
    it('admits a token verify accepts, storing the caller under the key', async () => {
      const { endpoints, bearer } = setup();
      const answer = await endpoints.handle(post('/whoAmI', { authorization: 'Bearer abc.DEF-_~+/9==' }));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"user:abc.DEF-_~+/9=="');
      expect(bearer.seen).to.deep.equal(['abc.DEF-_~+/9==']);
    });

    it('verify gets the call before its body is read: method and path known, args empty', async () => {
      const { endpoints, bearer } = setup();
      const answer = await endpoints.handle(
        post('/store', { authorization: 'Bearer t0k', 'x-request-id': 'req-42' }, '"a note"'),
      );
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"user:t0k stored a note"');
      const [call] = bearer.calls;
      expect(call).to.include({ service: 'Vault', method: 'store', path: '/store', verb: 'POST', requestId: 'req-42' });
      expect(call!.args).to.deep.equal(['a note'], 'the same call later holds the arguments');
      expect(bearer.calls).to.have.length(1);
    });

    it('reads the scheme name case-insensitively', async () => {
      const { endpoints, bearer } = setup();
      for (const name of ['bearer', 'BEARER', 'bEaReR']) {
        const answer = await endpoints.handle(post('/whoAmI', { authorization: `${name} tok` }));
        expect(answer.status, name).to.equal(200);
      }
      expect(bearer.seen).to.deep.equal(['tok', 'tok', 'tok']);
    });

    it('property: the scheme is Bearer exactly when the name before the space is bearer in any case', async () => {
      const { endpoints, bearer } = setup();
      // Names near "Bearer": its letters in either case, and characters one bit (0x20) away from them.
      const near = fc
        .array(fc.constantFrom(...'BbEeAaRr@`"%!2AB-+\u00c2\u00e2\u00c5'), { minLength: 5, maxLength: 7 })
        .map((c) => c.join(''));
      const latin1 = fc.string({
        unit: fc.integer({ min: 0x21, max: 0xff }).map((c) => String.fromCharCode(c)),
        maxLength: 8,
      });
      const name = fc.oneof(near, latin1);
      await fc.assert(
        fc.asyncProperty(name, async (scheme) => {
          bearer.seen.length = 0;
          const answer = await endpoints.handle(post('/whoAmI', { authorization: `${scheme} tok` }));
          const isBearer = scheme.toLowerCase() === 'bearer';
          expect(answer.status, scheme).to.equal(isBearer ? 200 : 401);
          expect(bearer.seen, scheme).to.deep.equal(isBearer ? ['tok'] : []);
        }),
        { numRuns: 500, seed: 20261123 },
      );
    });

    it('takes several spaces between the scheme and the token', async () => {
      const { endpoints, bearer } = setup();
      const answer = await endpoints.handle(post('/whoAmI', { authorization: 'Bearer     tok' }));
      expect(answer.status).to.equal(200);
      expect(bearer.seen).to.deep.equal(['tok']);
    });

    it('an Authorization header of another scheme counts as absent', async () => {
      const { endpoints, bearer } = setup();
      for (const authorization of ['Token abc', 'Basic YTpi', 'Bearerabc', 'Bearer-abc']) {
        expectUnauthorized(
          await endpoints.handle(post('/whoAmI', { authorization })),
          BEARER,
          'this call needs credentials',
        );
      }
      expect(bearer.seen).to.deep.equal([]);
    });

    it('an Authorization header of another scheme lets a second scheme decide', async () => {
      const basicUsers = recorder<BasicCredentials>((c) => c.username);
      const bearer = recorder<string>();
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({ verify: bearer.verify, key: USER }),
          basic: basicAuth({ verify: basicUsers.verify, key: USER }),
        },
      }).on(vault(['bearer', 'basic'])).endpoints;
      const answer = await endpoints.handle(post('/whoAmI', { authorization: basic('ann', 'pw') }));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"ann"');
      expect(bearer.seen).to.deep.equal([]);
    });

    const malformed: [string, string][] = [
      ['an empty token', 'Bearer'],
      ['an empty token after spaces', 'Bearer    '],
      ['a token with a space', 'Bearer abc def'],
      ['a token with a comma', 'Bearer abc,def'],
      ['a token with a quote', 'Bearer "abc"'],
      ['a token with non-ASCII', 'Bearer abcé'],
      ['padding in the middle', 'Bearer ab=c'],
      ['only padding', 'Bearer =='],
      ['two Authorization lines (joined with a comma)', 'Bearer abc, Bearer def'],
    ];
    for (const [label, authorization] of malformed) {
      it(`${label} is refused 401 without calling verify`, async () => {
        const { endpoints, bearer, errors } = setup();
        expectUnauthorized(await endpoints.handle(post('/whoAmI', { authorization })), BEARER_INVALID);
        expect(bearer.seen).to.deep.equal([]);
        expect(errors).to.deep.equal([]);
      });
    }

    it('a token with characters no Headers object carries (control, above U+00FF) is refused without calling verify', async () => {
      const { endpoints, bearer } = setup();
      for (const token of ['abc\u0001', 'a\u0000b', 'to\u20ackén', 'a\tb', '\ud800x']) {
        expectUnauthorized(await endpoints.handle(rawAuthorization(`Bearer ${token}`)), BEARER_INVALID);
      }
      expect(bearer.seen).to.deep.equal([]);
    });

    it('a token of exactly maxLength characters is read; one more is refused without calling verify', async () => {
      const bearer = recorder<string>();
      const endpoints = new Registry({
        security: { bearer: bearerAuth({ verify: bearer.verify, key: USER, maxLength: 10 }) },
      }).on(vault(['bearer'], [])).endpoints;
      expect((await endpoints.handle(post('/whoAmI', { authorization: `Bearer ${'a'.repeat(10)}` }))).status).to.equal(
        200,
      );
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { authorization: `Bearer ${'a'.repeat(11)}` })),
        BEARER_INVALID,
      );
      expect(bearer.seen).to.deep.equal(['a'.repeat(10)]);
    });

    it(`the default maxLength is DEFAULT_MAX_CREDENTIAL_LENGTH (${DEFAULT_MAX_CREDENTIAL_LENGTH})`, async () => {
      const { endpoints, bearer } = setup();
      const max = DEFAULT_MAX_CREDENTIAL_LENGTH;
      expect((await endpoints.handle(post('/whoAmI', { authorization: `Bearer ${'b'.repeat(max)}` }))).status).to.equal(
        200,
      );
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { authorization: `Bearer ${'b'.repeat(max + 1)}` })),
        BEARER_INVALID,
      );
      expect(bearer.seen).to.have.length(1);
    });

    it('a custom realm is in the challenge', async () => {
      const endpoints = new Registry({
        security: { bearer: bearerAuth({ verify: () => 'u', key: USER, realm: 'books' }) },
      }).on(vault(['bearer'], [])).endpoints;
      expectUnauthorized(await endpoints.handle(post('/whoAmI')), 'Bearer realm="books"');
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { authorization: 'Bearer a b' })),
        'Bearer realm="books", error="invalid_token"',
      );
    });

    it('property: no Authorization value makes the endpoint fail, or hands verify anything but a b64token', async () => {
      const seen: string[] = [];
      const basics: BasicCredentials[] = [];
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({ verify: (token) => (seen.push(token), 'b'), key: USER, maxLength: 24 }),
          basic: basicAuth({ verify: (c) => (basics.push(c), 'c'), key: USER, maxLength: 24 }),
        },
        onError: () => expect.fail('onError must not be told of a credential'),
      }).on(vault(['bearer', 'basic'], [])).endpoints;
      const tricky = fc.constantFrom(
        ' ',
        '\t',
        '\r',
        '\n',
        '\0',
        '\u0001',
        '\u007f',
        ',',
        '"',
        '=',
        '/',
        '+',
        '~',
        'é',
        '\u00a0',
        '\u2028',
        '\ufeff',
        '\ud800',
        '\udfff',
        '😀',
        'a',
        'Z',
        '9',
      );
      const prefix = fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'bearer  ',
        'BEARER ',
        ' Bearer ',
        'Bearer\t',
        'Basic ',
        'basic ',
        'Token ',
      );
      const header = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.tuple(prefix, fc.string({ unit: tricky, maxLength: 30 })).map(([p, s]) => p + s),
        fc.tuple(prefix, fc.string({ unit: 'binary', maxLength: 30 })).map(([p, s]) => p + s),
        fc.tuple(prefix, fc.base64String({ maxLength: 40 })).map(([p, s]) => p + s),
      );
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(header, async (value) => {
          seen.length = 0;
          let answer: EndpointResponse;
          try {
            answer = await endpoints.handle(rawAuthorization(value));
          } catch (e) {
            throw new Error(`the endpoint rejected for ${JSON.stringify(value)}: ${String(e)}`);
          }
          expect([200, 401], JSON.stringify(value)).to.include(answer.status);
          for (const token of seen) {
            expect(token, JSON.stringify(value)).to.match(B64TOKEN);
            expect(token.length).to.be.at.most(24);
          }
          if (answer.status === 401) expect(answer.headers['www-authenticate']).to.be.a('string').and.not.equal('');
          statuses.add(answer.status);
        }),
        { numRuns: 2000 },
      );
      expect([...statuses].sort(), 'the values reach both outcomes').to.deep.equal([200, 401]);
    });

    it('property: verify gets every well-formed token exactly as sent', async () => {
      const { endpoints, bearer } = setup();
      const b64char = fc.constantFrom(...'ABCXYZabcxyz0189-._~+/');
      const token = fc
        .tuple(fc.string({ unit: b64char, minLength: 1, maxLength: 60 }), fc.nat({ max: 3 }))
        .map(([body, pad]) => body + '='.repeat(pad));
      await fc.assert(
        fc.asyncProperty(
          token,
          fc.constantFrom('Bearer', 'bearer', 'BEARER'),
          fc.integer({ min: 1, max: 4 }),
          async (tok, scheme, spaces) => {
            bearer.seen.length = 0;
            const answer = await endpoints.handle(
              post('/whoAmI', { authorization: `${scheme}${' '.repeat(spaces)}${tok}` }),
            );
            expect(answer.status).to.equal(200);
            expect(bearer.seen).to.deep.equal([tok]);
          },
        ),
        { numRuns: 300 },
      );
    });
  });

  describe('basic credentials', () => {
    function basicSetup() {
      const users = recorder<BasicCredentials>((c) => `${c.username}/${c.password}`);
      const endpoints = new Registry({ security: { basic: basicAuth({ verify: users.verify, key: USER }) } }).on(
        vault(['basic']),
      ).endpoints;
      return { users, endpoints };
    }

    it('splits user and password at the first colon: a:b:c is user a, password b:c', async () => {
      const { users, endpoints } = basicSetup();
      const answer = await endpoints.handle(post('/whoAmI', { authorization: `Basic ${btoa('a:b:c')}` }));
      expect(answer.status).to.equal(200);
      expect(users.seen).to.deep.equal([{ username: 'a', password: 'b:c' }]);
      expect(text(answer.body)).to.equal('"a/b:c"');
    });

    it('decodes UTF-8 users and passwords', async () => {
      const { users, endpoints } = basicSetup();
      expect(
        (await endpoints.handle(post('/whoAmI', { authorization: basic('José', 'pässwörd 😀') }))).status,
      ).to.equal(200);
      expect((await endpoints.handle(post('/whoAmI', { authorization: basic('', '') }))).status).to.equal(200);
      expect(users.seen).to.deep.equal([
        { username: 'José', password: 'pässwörd 😀' },
        { username: '', password: '' },
      ]);
    });

    it('reads the scheme name case-insensitively', async () => {
      const { users, endpoints } = basicSetup();
      expect((await endpoints.handle(post('/whoAmI', { authorization: `basic ${btoa('u:p')}` }))).status).to.equal(200);
      expect((await endpoints.handle(post('/whoAmI', { authorization: `BASIC  ${btoa('u:p')}` }))).status).to.equal(
        200,
      );
      expect(users.seen).to.have.length(2);
    });

    it('accepts padded base64 of every length', async () => {
      const { users, endpoints } = basicSetup();
      // 'a:b' (3 bytes, no padding), 'a:bc' (==), 'a:bcd' (=)
      for (const encoded of ['YTpi', 'YTpiYw==', 'YTpiY2Q=']) {
        expect(
          (await endpoints.handle(post('/whoAmI', { authorization: `Basic ${encoded}` }))).status,
          encoded,
        ).to.equal(200);
      }
      expect(users.seen.map((c) => c.password)).to.deep.equal(['b', 'bc', 'bcd']);
    });

    const refused: [string, string][] = [
      ['unpadded base64', 'Basic YTpiYw'],
      ['short padding', 'Basic YTpiYw='],
      ['extra padding', 'Basic YTpiYw==='],
      ['padding where none belongs', 'Basic YTpi='],
      ['characters outside base64', 'Basic YTp!Yw=='],
      ['base64url characters', 'Basic YTr_'],
      ['a space inside the base64', 'Basic YTpi YTpi'],
      ['bytes that are not UTF-8', basicBytes([0x61, 0x3a, 0xff])],
      ['an overlong UTF-8 encoding', basicBytes([0x61, 0x3a, 0xc0, 0xaf])],
      ['a lone UTF-8 continuation byte', basicBytes([0x80, 0x3a, 0x61])],
      ['no colon', `Basic ${btoa('justauser')}`],
      ['nothing after the scheme', 'Basic'],
    ];
    for (const [label, authorization] of refused) {
      it(`${label} is refused 401 without calling verify`, async () => {
        const { users, endpoints } = basicSetup();
        expectUnauthorized(await endpoints.handle(post('/whoAmI', { authorization })), BASIC);
        expect(users.seen).to.deep.equal([]);
      });
    }

    it('credentials longer than maxLength are refused without calling verify', async () => {
      const users = recorder<BasicCredentials>((c) => c.username);
      const endpoints = new Registry({
        security: { basic: basicAuth({ verify: users.verify, key: USER, maxLength: 8 }) },
      }).on(vault(['basic'])).endpoints;
      expect((await endpoints.handle(post('/whoAmI', { authorization: `Basic ${btoa('ab:cd')}` }))).status).to.equal(
        200,
      ); // 8 characters
      expectUnauthorized(await endpoints.handle(post('/whoAmI', { authorization: `Basic ${btoa('ab:cdef')}` })), BASIC); // 12
      expect(users.seen).to.have.length(1);
    });
  });

  describe('API keys', () => {
    it('reads a key from a header, by case-insensitive name', async () => {
      const keys = recorder<string>();
      const endpoints = new Registry({
        security: { key: apiKeyAuth({ header: 'X-Api-Key', verify: keys.verify, key: USER }) },
      }).on(vault(['key'], [])).endpoints;
      const answer = await endpoints.handle(post('/whoAmI', { 'x-api-key': 'secret 1' }));
      expect(answer.status).to.equal(200);
      expect(keys.seen).to.deep.equal(['secret 1']);
      expectUnauthorized(await endpoints.handle(post('/whoAmI')), 'ApiKey in="header", name="X-Api-Key"');
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { 'x-api-key': '' })),
        'ApiKey in="header", name="X-Api-Key"',
      );
      expect(keys.seen).to.have.length(1);
    });

    it('reads a key from the query', async () => {
      const keys = recorder<string>();
      const endpoints = new Registry({
        security: { key: apiKeyAuth({ query: 'api_key', verify: keys.verify, key: USER }) },
      }).on(vault(['key'], [])).endpoints;
      expect((await endpoints.handle(post('/whoAmI', {}, undefined, 'api_key=k%201&other=x'))).status).to.equal(200);
      expect((await endpoints.handle(post('/whoAmI', {}, undefined, 'x=1&api_key=k2&api_key=k3'))).status).to.equal(
        200,
      );
      expect(keys.seen).to.deep.equal(['k 1', 'k2']);
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { api_key: 'in-a-header' })),
        KEY_QUERY,
        'this call needs credentials',
      );
      expectUnauthorized(await endpoints.handle(post('/whoAmI', {}, undefined, 'api_key=')), KEY_QUERY);
      expectUnauthorized(await endpoints.handle(post('/whoAmI', {}, undefined, 'apikey=k')), KEY_QUERY);
      expect(keys.seen).to.have.length(2);
    });

    it('a key longer than maxLength is refused without calling verify', async () => {
      const keys = recorder<string>();
      const endpoints = new Registry({
        security: { key: apiKeyAuth({ header: 'x-api-key', verify: keys.verify, key: USER, maxLength: 4 }) },
      }).on(vault(['key'], [])).endpoints;
      expect((await endpoints.handle(post('/whoAmI', { 'x-api-key': 'abcd' }))).status).to.equal(200);
      expectUnauthorized(await endpoints.handle(post('/whoAmI', { 'x-api-key': 'abcde' })), KEY_HEADER);
      expect(keys.seen).to.deep.equal(['abcd']);
    });
  });

  describe('what verify decides', () => {
    it('null or undefined from verify, sync or async, is a 401 with error="invalid_token"', async () => {
      for (const refuse of [() => undefined, () => null, async () => undefined, async () => null]) {
        const endpoints = new Registry({
          security: { bearer: bearerAuth({ verify: refuse as () => undefined, key: USER }) },
        }).on(vault(['bearer'], [])).endpoints;
        expectUnauthorized(
          await endpoints.handle(post('/whoAmI', { authorization: 'Bearer tok' })),
          BEARER_INVALID,
          'the credentials were refused',
        );
      }
    });

    it('a falsy caller other than null and undefined is a caller', async () => {
      const endpoints = new Registry({ security: { bearer: bearerAuth({ verify: () => '', key: USER }) } }).on(
        vault(['bearer'], []),
      ).endpoints;
      const answer = await endpoints.handle(post('/whoAmI', { authorization: 'Bearer tok' }));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('""');
    });

    it('HttpError(403) from verify is a 403, and the next scheme is not consulted', async () => {
      const keys = recorder<string>();
      const instance = vault(['bearer', 'key'], []);
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({
            verify: () => {
              throw new HttpError(403, 'suspended');
            },
            key: USER,
          }),
          key: apiKeyAuth({ header: 'x-api-key', verify: keys.verify, key: USER }),
        },
        onError: () => {},
      }).on(instance).endpoints;
      const answer = await endpoints.handle(post('/whoAmI', { authorization: 'Bearer tok', 'x-api-key': 'k' }));
      expect(answer.status).to.equal(403);
      expect(json(answer)).to.include({ status: 403, title: 'Forbidden', detail: 'suspended' });
      expect(answer.headers['www-authenticate']).to.equal(undefined);
      expect(keys.seen).to.deep.equal([]);
      expect(instance.ran).to.deep.equal([]);
      // With no bearer token, the key decides.
      expect((await endpoints.handle(post('/whoAmI', { 'x-api-key': 'k' }))).status).to.equal(200);
      expect(keys.seen).to.deep.equal(['k']);
    });

    it('a refusal by the first scheme with a credential does not fall through either', async () => {
      const keys = recorder<string>();
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({ verify: () => undefined, key: USER }),
          key: apiKeyAuth({ header: 'x-api-key', verify: keys.verify, key: USER }),
        },
      }).on(vault(['bearer', 'key'], [])).endpoints;
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { authorization: 'Bearer tok', 'x-api-key': 'k' })),
        BEARER_INVALID,
      );
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI', { authorization: 'Bearer a,b', 'x-api-key': 'k' })),
        BEARER_INVALID,
      );
      expect(keys.seen).to.deep.equal([]);
    });

    it('any other error from verify is a 500 that does not leak its message; onError is told', async () => {
      const errors: [unknown, ErrorContext][] = [];
      const boom = new Error('database password is hunter2');
      const instance = vault(['bearer'], []);
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({
            verify: async () => {
              throw boom;
            },
            key: USER,
          }),
        },
        onError: (e, c) => void errors.push([e, c]),
      }).on(instance).endpoints;
      const answer = await endpoints.handle(post('/whoAmI', { authorization: 'Bearer tok' }));
      expect(answer.status).to.equal(500);
      const requestId = answer.headers['x-request-id'];
      expect(json(answer)).to.deep.equal({
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        detail: 'The server failed to handle the request.',
        requestId,
      });
      expect(text(answer.body)).not.to.include('hunter2');
      expect(answer.headers['www-authenticate']).to.equal(undefined);
      expect(errors).to.deep.equal([[boom, { service: 'Vault', method: 'whoAmI', status: 500, requestId }]]);
      expect(instance.ran).to.deep.equal([]);
    });

    const misuses: [string, (call: Call) => string | undefined][] = [
      [
        'refuses',
        (call) => {
          call.status(300);
          return undefined;
        },
      ],
      [
        'throws HttpError(403)',
        (call) => {
          call.header('bad name', 'x');
          throw new HttpError(403, 'no');
        },
      ],
      [
        'admits',
        (call) => {
          call.status(300);
          return 'u';
        },
      ],
    ];
    for (const [label, decide] of misuses) {
      it(`a misuse of the call inside a verify that then ${label} is answered 500, as a misuse in the method is`, async () => {
        const errors: [unknown, ErrorContext][] = [];
        const endpoints = new Registry({
          security: { bearer: bearerAuth({ verify: (_token, call) => decide(call), key: USER }) },
          onError: (e, c) => void errors.push([e, c]),
        }).on(vault(['bearer'], [])).endpoints;
        const answer = await endpoints.handle(post('/whoAmI', { authorization: 'Bearer tok' }));
        expect(answer.status).to.equal(500);
        expect(errors, 'onError is told the mistake once').to.have.length(1);
        expect(String((errors[0]![0] as Error).message)).to.match(/Vault\.whoAmI: call\.(status|header)\(/);
        expect(errors[0]![1].status).to.equal(500);
      });
    }
  });

  describe('401 answers', () => {
    it("without any credential, the 401 lists every scheme's challenge in one WWW-Authenticate", async () => {
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({ verify: () => 'a', key: USER }),
          key: apiKeyAuth({ header: 'x-api-key', verify: () => 'b', key: USER }),
          basic: basicAuth({ verify: () => 'c', key: USER }),
          query: apiKeyAuth({ query: 'api_key', verify: () => 'd', key: USER }),
        },
      }).on(vault(['bearer', 'key', 'basic', 'query'], [])).endpoints;
      expectUnauthorized(
        await endpoints.handle(post('/whoAmI')),
        [BEARER, KEY_HEADER, BASIC, KEY_QUERY].join(', '),
        'this call needs credentials',
      );
    });

    it('names only the scheme that decided when a credential was bad', async () => {
      const endpoints = new Registry({
        security: {
          bearer: bearerAuth({ verify: () => 'a', key: USER }),
          basic: basicAuth({ verify: () => 'c', key: USER }),
        },
      }).on(vault(['bearer', 'basic'], [])).endpoints;
      expectUnauthorized(await endpoints.handle(post('/whoAmI', { authorization: 'Basic %%%%' })), BASIC);
      expectUnauthorized(await endpoints.handle(post('/whoAmI', { authorization: 'Bearer %%%%' })), BEARER_INVALID);
    });

    it('a 401 is not reported to onError', async () => {
      const errors: unknown[] = [];
      const endpoints = new Registry({
        security: { bearer: bearerAuth({ verify: (tok) => (tok === 'good' ? 'u' : undefined), key: USER }) },
        onError: (e) => void errors.push(e),
      }).on(vault(['bearer'], [])).endpoints;
      for (const headers of [
        {},
        { authorization: 'Bearer bad' },
        { authorization: 'Bearer a b' },
        { authorization: 'Bearer' },
      ]) {
        expect((await endpoints.handle(post('/whoAmI', headers))).status).to.equal(401);
      }
      expect(errors).to.deep.equal([]);
    });

    it('carries an x-request-id like every answer', async () => {
      const { endpoints } = setup();
      const answer = await endpoints.handle(post('/whoAmI', { 'x-request-id': 'trace-7' }));
      expect(answer.status).to.equal(401);
      expect(answer.headers['x-request-id']).to.equal('trace-7');
    });
  });

  describe("a refused call's body is never read", () => {
    it('a body that could not be decoded still gets the 401, and the method does not run', async () => {
      const { endpoints, instance } = setup();
      expectUnauthorized(await endpoints.handle(post('/store', {}, '{"not": json')), BEARER);
      expectUnauthorized(
        await endpoints.handle(post('/store', { authorization: 'Bearer a b' }, '{"not": json')),
        BEARER_INVALID,
      );
      expectUnauthorized(
        await endpoints.handle(post('/store', { 'content-type': 'text/plain' }, 'plain text')),
        BEARER,
      );
      expect(instance.ran).to.deep.equal([]);
    });

    it('a body read on demand is not read for a refused call, and is read once for an admitted one', async () => {
      const { endpoints } = setup();
      let reads = 0;
      const body: BodySource = async () => {
        reads++;
        return new TextEncoder().encode('"note"');
      };
      expectUnauthorized(await endpoints.handle(post('/store', {}, body)), BEARER);
      expectUnauthorized(await endpoints.handle(post('/store', { authorization: 'Bearer ' }, body)), BEARER_INVALID);
      expect(reads).to.equal(0);
      const refusing = new Registry({ security: { bearer: bearerAuth({ verify: () => undefined, key: USER }) } }).on(
        vault(['bearer'], []),
      ).endpoints;
      expectUnauthorized(await refusing.handle(post('/store', { authorization: 'Bearer tok' }, body)), BEARER_INVALID);
      expect(reads).to.equal(0);
      const answer = await endpoints.handle(post('/store', { authorization: 'Bearer tok' }, body));
      expect(answer.status).to.equal(200);
      expect(text(answer.body)).to.equal('"user:tok stored note"');
      expect(reads).to.equal(1);
    });
  });
});
