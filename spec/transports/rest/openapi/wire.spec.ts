// The document agrees with the wire. Through HttpServer, over real HTTP:
// - what the server answers, in JSON, MessagePack and CBOR (decoded by @msgpack/msgpack and
//   cbor-x, not by lacquer), validates with ajv against the schema the document gives that
//   status and media type, problems included;
// - a JSON body the request schema rejects is answered 400, and one it accepts is not (the
//   jsonSchema agreement property of spec/core/read-write-properties.spec.ts, for whole operations);
// - a request whose path and query values are built from the document's parameters is accepted
//   exactly when every value fits its parameter (see `textFits` for how a text becomes a value).
import { hasRequiredEmptyKey } from '../../../support/empty-key.ts';
import { expect } from 'chai';
import fc from 'fast-check';
import { Agent } from 'node:http';
import {
  HttpError,
  method,
  openApi,
  t,
  type OpenApiDocument,
  type RegistryOptions,
  type Type,
} from '../../../../index.ts';
import { cbor } from '../../../../codecs/cbor/index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { msgpack } from '../../../../codecs/msgpack/index.ts';
import { createExampleServer } from '../../../../examples/app.ts';
import { HttpServer } from '../../../../transports/http/index.ts';
import { argumentSources } from '../../../../transports/rest/arguments.ts';
import { arbJsonNear, arbMissingKeys, arbValueOf } from '../../../support/arbitraries.ts';
import { send, type Reply } from '../../../support/http-client.ts';
import { arbApiType, arbRoutedService, Record64, registryFor, TOKEN } from './arbitraries.ts';
import { notesRegistry, zooRegistry, ZOO_KEY, ZOO_TOKEN } from './fixtures.ts';
import { arbCall, arbKeyValue, keyTypes, type ParamSchema, templateOf, textFits, textOf } from './parameter-text.ts';
import { ajvFor, decodeIndependently, type DocValidator, resolve, schemaPointer, token } from './support.ts';

const info = { title: 'Wire', version: '1' };
const agent = new Agent({ keepAlive: true });
const CODECS = { json, msgpack, cbor } as const;
const MEDIA = { json: 'application/json', msgpack: 'application/msgpack', cbor: 'application/cbor' } as const;
type CodecName = keyof typeof CODECS;

/**
 * Checks one answer against the document: the response the document gives its status (or
 * `default`), a body exactly when it lists content, in a media type it lists, whose data validates.
 * Returns the status.
 */
function checkAnswer(doc: OpenApiDocument, validator: DocValidator, path: string, verb: string, reply: Reply): number {
  const responses = (doc.paths[path]![verb.toLowerCase()] as { responses: Record<string, { $ref?: string }> })
    .responses;
  const status = String(reply.status);
  const declared = responses[status] ?? responses.default;
  expect(declared, `${verb} ${path}: ${status} is not in the document`).not.to.equal(undefined);
  const at =
    declared!.$ref === undefined
      ? `/paths/${token(path)}/${verb.toLowerCase()}/responses/${responses[status] ? status : 'default'}`
      : declared!.$ref.slice(1);
  const response = resolve(doc, `#${at}`) as { content?: Record<string, unknown>; headers: Record<string, unknown> };
  expect(response.headers, 'x-request-id documented').to.have.property('x-request-id');
  expect(reply.headers['x-request-id'], 'x-request-id sent').to.be.a('string');
  if (response.content === undefined) {
    expect(reply.body.length, `${verb} ${path} ${status}: no body`).to.equal(0);
    return reply.status;
  }
  const mediaType = String(reply.headers['content-type']).split(';')[0]!.trim();
  expect(Object.keys(response.content), `${verb} ${path} ${status}`).to.include(mediaType);
  const instance = decodeIndependently(mediaType, reply.body);
  const validate = validator(`${at}/content/${token(mediaType)}/schema`, 'received');
  expect(
    validate(instance),
    `${verb} ${path} ${status} ${mediaType}: ${JSON.stringify(validate.errors)}\n${reply.text.slice(0, 500)}`,
  ).to.equal(true);
  return reply.status;
}

describe('openApi: the document agrees with the wire', function () {
  this.timeout(120_000);
  const server = new HttpServer();
  let base = '';
  let mounts = 0;

  before(async () => {
    await server.bind(0).start();
    base = server.url;
  });
  after(async () => {
    agent.destroy();
    await server.stop();
  });

  /** Serves `send(value) → value` for `type` under a fresh prefix; its document and validators. */
  function echo(type: Type, options: RegistryOptions) {
    const prefix = `/echo${mounts++}`;
    const registry = registryFor(
      { options, methods: [{ name: 'sendValue', contract: method([type], type) }] },
      (_m, args) => args[0],
    );
    server.mount(prefix, registry.endpoints);
    const doc = openApi(registry.endpoints, { prefix, info });
    return { url: `${base}${prefix}/sendValue`, path: `${prefix}/sendValue`, doc, validator: ajvFor(doc) };
  }

  // The registry's reading options reach the document through `endpoints.opts`; without it the
  // document describes the default options, so only those are served then.
  const arbOptions = fc.record({
    errorOnMissingKeys: arbMissingKeys,
    errorOnUnknownKeys: fc.boolean(),
  });

  it('answers in every codec validate against the answer schema of their media type', async () => {
    // Values of the type, sent as lacquer writes them: with errorOnMissingKeys on, a requiresKey
    // rule may require an optional member the value leaves out, so reading takes them all here.
    const options = arbOptions.map((o) => ({ ...o, errorOnMissingKeys: false }));
    const cases = fc
      .record({ type: arbApiType('E'), options, codec: fc.constantFrom<CodecName>('json', 'msgpack', 'cbor') })
      .chain((c) => arbValueOf(c.type).map((value) => ({ ...c, value })));
    await fc.assert(
      fc.asyncProperty(cases, async ({ type, options, codec, value }) => {
        const e = echo(type, options);
        const reply = await send(e.url, {
          method: 'POST',
          agent,
          body: json.encode(type, value as never),
          headers: { 'content-type': 'application/json', accept: MEDIA[codec] },
        });
        expect(reply.status, reply.text).to.equal(200);
        expect(reply.headers['content-type']).to.equal(MEDIA[codec]);
        checkAnswer(e.doc, e.validator, e.path, 'POST', reply);
      }),
      { numRuns: 300 },
    );
  });

  it('a JSON body the request schema rejects is answered 400, and one it accepts is answered 200', async () => {
    let refused = 0;
    let accepted = 0;
    const cases = fc
      .record({ type: arbApiType('Q'), options: arbOptions })
      .chain((c) => arbJsonNear(c.type).map((value) => ({ ...c, value })));
    await fc.assert(
      fc.asyncProperty(cases, async ({ type, options, value }) => {
        fc.pre(!hasRequiredEmptyKey(type, options.errorOnMissingKeys));
        const e = echo(type, options);
        const validate = e.validator(schemaPointer(e.path, 'post', 'request', 'application/json'), 'sent');
        const schemaAccepts = validate(value);
        const reply = await send(e.url, {
          method: 'POST',
          agent,
          body: JSON.stringify(value),
          headers: { 'content-type': 'application/json' },
        });
        expect(reply.status, `${JSON.stringify(value)}: ${reply.text} / ${JSON.stringify(validate.errors)}`).to.equal(
          schemaAccepts ? 200 : 400,
        );
        checkAnswer(e.doc, e.validator, e.path, 'POST', reply);
        if (schemaAccepts) accepted++;
        else refused++;
      }),
      { numRuns: 500 },
    );
    expect(refused, 'bodies refused').to.be.greaterThan(60);
    expect(accepted, 'bodies accepted').to.be.greaterThan(60);
  });

  it("a request whose path and query values are built from the document's parameters is accepted exactly when each fits", async () => {
    let refused = 0;
    let accepted = 0;
    const cases = arbRoutedService.chain((svc) =>
      fc.nat(svc.methods.length - 1).chain((i) => {
        const m = svc.methods[i]!;
        const keys = keyTypes(m.name, m.contract);
        return fc
          .record(Object.fromEntries([...keys].map(([key, { place, type }]) => [key, arbKeyValue(place, type)])))
          .map((values) => ({ svc, m, keys, values }));
      }),
    );
    await fc.assert(
      fc.asyncProperty(cases, async ({ svc, m, keys, values }) => {
        const registry = registryFor(svc, () => true);
        const prefix = `/routed${mounts++}`;
        server.mount(prefix, registry.endpoints);
        const doc = openApi(registry.endpoints, { prefix, info });
        const validator = ajvFor(doc);
        const operation = registry.endpoints.operations.find((o) => o.method === m.name)!;
        const template = templateOf(prefix, operation);
        const verb = operation.verb.toLowerCase();
        const parameters =
          (
            doc.paths[template]?.[verb] as {
              parameters?: { name: string; in: string; required: boolean; schema: ParamSchema }[];
            }
          )?.parameters ?? [];
        expect(parameters.map((p) => `${p.in} ${p.name}`).sort(), template).to.deep.equal(
          [...keys].map(([key, k]) => `${k.place} ${key}`).sort(),
        );

        let target = template;
        const query: string[] = [];
        let fits = true;
        let emptySegment = false;
        parameters.forEach((p, n) => {
          const given = values[p.name];
          const texts =
            given === undefined
              ? []
              : p.schema.type === 'array' && Array.isArray(given.value)
                ? given.value.map(textOf)
                : Array<string>(given.twice ? 2 : 1).fill(textOf(given.value));
          fc.pre(texts.every((text) => text.isWellFormed()));
          const pointer = `/paths/${token(template)}/${verb}/parameters/${n}/schema`;
          if (texts.length === 0) fits &&= !p.required;
          else if (p.schema.type === 'array') {
            const item = validator(`${pointer}/items`, 'received');
            fits &&=
              texts.length >= (p.schema.minItems ?? 0) &&
              texts.length <= (p.schema.maxItems ?? Infinity) &&
              texts.every((text) => textFits((p.schema as { items: ParamSchema }).items, text, item));
          } else fits &&= texts.length === 1 && textFits(p.schema, texts[0]!, validator(pointer, 'received'));
          if (p.in === 'path') {
            emptySegment ||= texts[0] === '' || texts[0] === '.' || texts[0] === '..';
            target = target.replace(`{${p.name}}`, encodeURIComponent(texts[0]!));
          } else for (const text of texts) query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`);
        });
        const url = `${base}${target}${query.length === 0 ? '' : `?${query.join('&')}`}`;
        const reply = await send(url, { method: operation.verb, agent });
        const what = `${operation.verb} ${url}: ${reply.status} ${reply.text}\n${JSON.stringify(parameters)}`;
        // An empty or dot segment matches no route (the client resolves a dot segment away): 404 unless
        // another value is refused first, the document's pattern having refused it.
        expect(fits ? [200] : emptySegment ? [400, 404] : [400], what).to.include(reply.status);
        if (!emptySegment) checkAnswer(doc, validator, template, operation.verb, reply);
        if (fits) accepted++;
        else refused++;
      }),
      { numRuns: 400 },
    );
    expect(refused, 'requests refused').to.be.greaterThan(50);
    expect(accepted, 'requests accepted').to.be.greaterThan(50);
  });

  it("a map with the key __proto__ is an own member in the schema's eyes and the server's, both ways", async () => {
    const type = t.map(t.i32());
    const e = echo(type, {});
    const validate = e.validator(schemaPointer(e.path, 'post', 'request', 'application/json'), 'sent');
    for (const [body, accepted] of [
      ['{"__proto__":1}', true],
      ['{"__proto__":"x"}', false],
      ['{"__proto__":{}}', false],
    ] as const) {
      expect(validate(JSON.parse(body)), body).to.equal(accepted);
      const reply = await send(e.url, { method: 'POST', agent, body, headers: { 'content-type': 'application/json' } });
      expect(reply.status, body).to.equal(accepted ? 200 : 400);
      if (accepted) expect(reply.text).to.equal(body);
    }
    for (const codec of ['json', 'msgpack', 'cbor'] as const) {
      const reply = await send(e.url, {
        method: 'POST',
        agent,
        body: '{"__proto__":1}',
        headers: { 'content-type': 'application/json', accept: MEDIA[codec] },
      });
      checkAnswer(e.doc, e.validator, e.path, 'POST', reply);
      expect(Object.getOwnPropertyNames(decodeIndependently(MEDIA[codec], reply.body)), codec).to.deep.equal([
        '__proto__',
      ]);
    }
  });

  it('every answer of a service using every kind validates, in each codec, problems included', async () => {
    const registry = zooRegistry();
    const prefix = `/zoo${mounts++}`;
    server.mount(prefix, registry.endpoints);
    const doc = openApi(registry.endpoints, { prefix, info });
    const validator = ajvFor(doc);
    const seen = new Set<string>();
    const auth = fc.constantFrom<Record<string, string>>(
      {},
      { authorization: `Bearer ${ZOO_TOKEN}` },
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${btoa('zoo:pw')}` },
      { 'x-api-key': ZOO_KEY },
    );
    const calls = fc
      .record({
        op: fc.constantFrom(...registry.endpoints.operations),
        codec: fc.constantFrom<CodecName>('json', 'msgpack', 'cbor'),
        accept: fc.constantFrom<CodecName | 'none' | 'text'>('json', 'msgpack', 'cbor', 'none', 'text'),
        auth,
      })
      .chain((c) => arbCall(c.op).map((call) => ({ ...c, ...call })));
    await fc.assert(
      fc.asyncProperty(calls, async ({ op, codec, accept, auth: headers, target, input, args }) => {
        const path = templateOf(prefix, op);
        const body = input === undefined ? undefined : CODECS[codec].encode(input, args as never);
        const reply = await send(`${base}${prefix}${target}`, {
          method: op.verb,
          agent,
          ...(body === undefined ? {} : { body }),
          headers: {
            ...headers,
            ...(body === undefined ? {} : { 'content-type': MEDIA[codec] }),
            ...(accept === 'none' ? {} : { accept: accept === 'text' ? 'text/plain' : MEDIA[accept] }),
          },
        });
        seen.add(String(checkAnswer(doc, validator, path, op.verb, reply)));
      }),
      { numRuns: 200 },
    );
    expect([...seen].sort()).to.include.members(['200', '201', '204', '401', '406']);
  });

  it('every answer of routed operations validates, in each codec: path, query and bodies by name', async () => {
    const registry = notesRegistry();
    const prefix = `/notes${mounts++}`;
    server.mount(prefix, registry.endpoints);
    const doc = openApi(registry.endpoints, { prefix, info });
    const validator = ajvFor(doc);
    const seen = new Set<string>();
    const calls = fc
      .record({
        op: fc.constantFrom(...registry.endpoints.operations),
        codec: fc.constantFrom<CodecName>('json', 'msgpack', 'cbor'),
        accept: fc.constantFrom<CodecName>('json', 'msgpack', 'cbor'),
      })
      .chain((c) => arbCall(c.op).map((call) => ({ ...c, ...call })));
    await fc.assert(
      fc.asyncProperty(calls, async ({ op, codec, accept, target, input, args }) => {
        const body = input === undefined ? undefined : CODECS[codec].encode(input, args as never);
        const reply = await send(`${base}${prefix}${target}`, {
          method: op.verb,
          agent,
          ...(body === undefined ? {} : { body }),
          headers: { accept: MEDIA[accept], ...(body === undefined ? {} : { 'content-type': MEDIA[codec] }) },
        });
        const status = checkAnswer(doc, validator, templateOf(prefix, op), op.verb, reply);
        expect(status, `${op.verb} ${target}: ${reply.text}`).to.be.within(200, 299);
        seen.add(`${op.method} ${status}`);
      }),
      { numRuns: 150 },
    );
    expect([...seen].sort()).to.include.members([
      'deleteNote 204',
      'getNote 200',
      'moveNote 200',
      'searchNotes 200',
      'tagNotes 200',
      'updateNote 200',
    ]);
  });

  it('a JSON body of named parameters the request schema rejects is answered 400, and one it accepts is answered 200', async () => {
    let refused = 0;
    let accepted = 0;
    const cases = fc
      .record({ a: arbApiType('A'), b: fc.option(arbApiType('B'), { nil: undefined }), options: arbOptions })
      .chain((c) => {
        const params: Record<string, Type> = { id: t.u32(), a: c.a, ...(c.b === undefined ? {} : { b: c.b }) };
        const contract = method(params, t.bool(), { route: 'PUT /things/:id' });
        const body = argumentSources('spec', contract, 'PUT').body!;
        return arbJsonNear(body).map((value) => ({ ...c, contract, body, value }));
      });
    await fc.assert(
      fc.asyncProperty(cases, async ({ contract, body, options, value }) => {
        fc.pre(!hasRequiredEmptyKey(body, options.errorOnMissingKeys));
        const registry = registryFor({ options, methods: [{ name: 'putThing', contract }] }, () => true);
        const prefix = `/named${mounts++}`;
        server.mount(prefix, registry.endpoints);
        const doc = openApi(registry.endpoints, { prefix, info });
        const validator = ajvFor(doc);
        const path = `${prefix}/things/{id}`;
        const validate = validator(schemaPointer(path, 'put', 'request', 'application/json'), 'sent');
        const schemaAccepts = validate(value);
        const reply = await send(`${base}${prefix}/things/7`, {
          method: 'PUT',
          agent,
          body: JSON.stringify(value),
          headers: { 'content-type': 'application/json' },
        });
        expect(reply.status, `${JSON.stringify(value)}: ${reply.text} / ${JSON.stringify(validate.errors)}`).to.equal(
          schemaAccepts ? 200 : 400,
        );
        checkAnswer(doc, validator, path, 'PUT', reply);
        if (schemaAccepts) accepted++;
        else refused++;
      }),
      { numRuns: 300 },
    );
    expect(refused, 'bodies refused').to.be.greaterThan(40);
    expect(accepted, 'bodies accepted').to.be.greaterThan(40);
  });

  it('every problem answer validates against the response the document gives it: 400 to 500 and default', async () => {
    const svc = {
      options: {},
      methods: [
        { name: 'createThing', contract: method([Record64], Record64, { security: ['bearer'] }) },
        { name: 'failThing', contract: method([], t.string(), { verb: 'POST', security: [] }) },
        { name: 'refuseThing', contract: method([], t.void(), { verb: 'POST', security: [] }) },
      ],
    };
    const registry = registryFor(svc, (m, args) => {
      if (m.name === 'failThing') throw new Error('secret');
      if (m.name === 'refuseThing')
        throw new HttpError(409, 'taken', { extensions: { holder: 'ada' }, type: 'https://example.com/taken' });
      return args[0];
    });
    const prefix = `/problems${mounts++}`;
    server.mount(prefix, registry.endpoints);
    const doc = openApi(registry.endpoints, { prefix, info });
    const validator = ajvFor(doc);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const call = async (name: string, headers: Record<string, string>, body?: string | Uint8Array) => {
      const reply = await send(`${base}${prefix}/${name}`, {
        method: 'POST',
        agent,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      checkAnswer(doc, validator, `${prefix}/${name}`, 'POST', reply);
      return reply;
    };
    const json64 = '{"id":1,"raw":"AA==","tags":{},"pair":[1,null],"parent":null}';
    const replies = [
      await call('createThing', { ...auth, 'content-type': 'application/json' }, '{"id":-1}'),
      await call('createThing', { 'content-type': 'application/json' }, json64),
      await call('createThing', { ...auth, 'content-type': 'application/json', accept: 'text/plain' }, json64),
      await call(
        'createThing',
        { ...auth, 'content-type': 'application/json' },
        'x'.repeat(registry.endpoints.maxBodyBytes + 1),
      ),
      await call('createThing', { ...auth, 'content-type': 'text/plain' }, json64),
      await call(
        'createThing',
        { ...auth, 'content-type': 'application/json', accept: 'application/json;q=0.5, application/problem+cbor' },
        '[]',
      ),
      await call('failThing', { accept: 'application/json;q=0.5, application/problem+msgpack' }),
      await call('refuseThing', {}),
      await call('createThing', { ...auth, 'content-type': 'application/json' }, json64),
    ];
    expect(replies.map((r) => r.status)).to.deep.equal([400, 401, 406, 413, 415, 400, 500, 409, 200]);
    expect(replies.map((r) => r.headers['content-type'])).to.deep.equal([
      'application/problem+json',
      'application/problem+json',
      'application/problem+json',
      'application/problem+json',
      'application/problem+json',
      'application/problem+cbor',
      'application/problem+msgpack',
      'application/problem+json',
      'application/json',
    ]);
  });

  it('every answer of the example application validates, in each codec', async () => {
    const { registry } = createExampleServer({
      log: () => {},
      tokens: { demo: 'wire-demo', readOnly: 'wire-read' },
      registry: { onError: () => {} },
    });
    const prefix = `/example${mounts++}`;
    server.mount(prefix, registry.endpoints);
    const doc = openApi(registry.endpoints, { prefix, info });
    const validator = ajvFor(doc);
    const seen = new Set<number>();
    const calls = fc
      .record({
        op: fc.constantFrom(...registry.endpoints.operations),
        codec: fc.constantFrom<CodecName>('json', 'msgpack', 'cbor'),
        token: fc.constantFrom('wire-demo', 'wire-read', undefined),
      })
      .chain((c) => arbCall(c.op).map((call) => ({ ...c, ...call })));
    await fc.assert(
      fc.asyncProperty(calls, async ({ op, codec, token: bearer, target, input, args }) => {
        const path = templateOf(prefix, op);
        const body = input === undefined ? undefined : CODECS[codec].encode(input, args as never);
        const reply = await send(`${base}${prefix}${target}`, {
          method: op.verb,
          agent,
          ...(body === undefined ? {} : { body }),
          headers: {
            accept: MEDIA[codec],
            ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
            ...(body === undefined ? {} : { 'content-type': MEDIA[codec] }),
          },
        });
        seen.add(checkAnswer(doc, validator, path, op.verb, reply));
      }),
      { numRuns: 200 },
    );
    expect(
      [...seen].some((s) => s >= 200 && s < 300),
      'some calls succeeded',
    ).to.equal(true);
    expect(seen.has(401), 'some calls were refused').to.equal(true);
  });
});
