import { expect } from 'chai';
import fc from 'fast-check';
import {
  DEFAULT_CODECS,
  DEFAULT_MAX_BODY_BYTES,
  Endpoints,
  jsonSchema,
  meta,
  method,
  openApi,
  Problem,
  Registry,
  service,
  t,
  type Codec,
  type JsonSchema,
  type OpenApiDocument,
  type Opts,
  type Type,
  type AnyType,
} from '../../../../index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { arbDescriptor, arbMissingKeys } from '../../../support/arbitraries.ts';
import { Account, zooRegistry } from './fixtures.ts';
import { refsIn, resolve } from './support.ts';

const info = { title: 'Zoo', version: '1.0.0' };
const zooDoc = (options: Opts = {}) => openApi(zooRegistry(options).endpoints, { prefix: '/api', info });

/** A registry exposing one class with `methods`, and its document. */
function docFor(
  methods: Record<string, ReturnType<typeof method>>,
  options: {
    registry?: Opts;
    codecs?: readonly Codec[];
    schemaForms?: Record<string, 'json' | 'binary' | 'none'>;
  } = {},
): OpenApiDocument {
  class Svc {}
  for (const name of Object.keys(methods)) Object.defineProperty(Svc.prototype, name, { value: () => undefined });
  meta(Svc as never, service(methods));
  const registry = new Registry({ ...options.registry, ...(options.codecs ? { codecs: options.codecs } : {}) }).on(
    new Svc(),
  );
  return openApi(registry.endpoints, {
    prefix: '/api',
    info,
    ...(options.schemaForms ? { schemaForms: options.schemaForms } : {}),
  });
}

/**
 * The document of endpoints listing `methods` as one service's operations, made without
 * `Registry.on` (which prepares each codec for every descriptor, and so may refuse first what the
 * document must refuse itself).
 */
function docOfOperations(methods: Record<string, ReturnType<typeof method>>): OpenApiDocument {
  const endpoints = new Endpoints(DEFAULT_MAX_BODY_BYTES, DEFAULT_CODECS);
  for (const [name, contract] of Object.entries(methods)) {
    const verb = contract.verb ?? 'POST';
    endpoints.operations.push({ service: 'Svc', method: name, verb, path: `/${name}`, contract, security: [] });
  }
  return openApi(endpoints, { prefix: '/api', info });
}

type Op = Record<string, any>;
const op = (doc: OpenApiDocument, path: string, verb: string): Op => doc.paths[path]![verb] as Op;
const schemaOf = (doc: OpenApiDocument, name: string): JsonSchema => doc.components.schemas[name]!;
const bodySchema = (o: Op, mediaType = 'application/json'): JsonSchema => o.requestBody.content[mediaType].schema;
const answerSchema = (o: Op, status: string, mediaType = 'application/json'): JsonSchema =>
  o.responses[status].content[mediaType].schema;

describe('openApi: the document', () => {
  it('is an OpenAPI 3.1 document with the info and servers given, and a plain JSON value', () => {
    const registry = zooRegistry();
    const doc = openApi(registry.endpoints, {
      prefix: '/api',
      info: { ...info, description: 'Accounts' },
      servers: [{ url: 'https://zoo.example' }],
    });
    expect(doc.openapi).to.match(/^3\.1\.\d+$/);
    expect(doc.info).to.deep.equal({ title: 'Zoo', version: '1.0.0', description: 'Accounts' });
    expect(doc.servers).to.deep.equal([{ url: 'https://zoo.example' }]);
    expect(JSON.parse(JSON.stringify(doc))).to.deep.equal(doc);
  });

  it('has one operation per exposed method: path under the prefix, verb, tag, operationId', () => {
    const doc = zooDoc();
    const ops = Object.entries(doc.paths).flatMap(([path, verbs]) =>
      Object.entries(verbs).map(([verb, o]) => `${verb} ${path} ${(o as Op).operationId} ${(o as Op).tags}`),
    );
    expect(ops).to.deep.equal([
      'get /api/listAccounts listAccounts ZooService',
      'post /api/getAccount getAccount ZooService',
      'post /api/createAccount createAccount ZooService',
      'put /api/updateAccount updateAccount ZooService',
      'delete /api/deleteAccount deleteAccount ZooService',
      'post /api/searchAccounts searchAccounts ZooService',
      'post /api/move move ZooService',
      'post /api/upload upload ZooService',
      'post /api/touch touch ZooService',
    ]);
    expect(doc.tags).to.deep.equal([{ name: 'ZooService' }]);
  });

  it('lists operations registered after the registry was made, and mounts at the root with prefix ""', () => {
    const registry = zooRegistry();
    class Late {
      ping(): string {
        return 'pong';
      }
    }
    meta(Late, service({ ping: method([], t.string()) }));
    registry.on(new Late());
    for (const prefix of ['', '/']) {
      const doc = openApi(registry.endpoints, { prefix, info });
      expect(Object.keys(doc.paths)).to.include.members(['/listAccounts', '/ping']);
    }
    expect(doc2tags(openApi(registry.endpoints, { prefix: '/v1/', info }))).to.deep.equal(['ZooService', 'Late']);
    expect(Object.keys(openApi(registry.endpoints, { prefix: '/v1/', info }).paths)[0]).to.equal('/v1/listAccounts');
  });

  it('names operations that share a method name by their service', () => {
    class A {
      ping(): string {
        return 'a';
      }
    }
    class B {
      ping(): string {
        return 'b';
      }
    }
    meta(A, service({ ping: method([], t.string()) }));
    meta(B, service({ ping: method([], t.string(), { verb: 'PUT' }) }));
    const doc = openApi(new Registry().on(new A()).on(new B()).endpoints, { prefix: '/api', info });
    expect(op(doc, '/api/ping', 'post').operationId).to.equal('A.ping');
    expect(op(doc, '/api/ping', 'put').operationId).to.equal('B.ping');
  });

  it("describes the body and the answer in every codec's media type, and problems in every problem type", () => {
    const o = op(zooDoc(), '/api/createAccount', 'post');
    expect(o.requestBody.required).to.equal(true);
    expect(Object.keys(o.requestBody.content)).to.deep.equal([
      'application/json',
      'application/msgpack',
      'application/cbor',
    ]);
    expect(Object.keys(o.responses['201'].content)).to.deep.equal([
      'application/json',
      'application/msgpack',
      'application/cbor',
    ]);
    const doc = zooDoc();
    expect(Object.keys((doc.components.responses.BadRequest as Op).content)).to.deep.equal([
      'application/problem+json',
      'application/problem+msgpack',
      'application/problem+cbor',
    ]);
  });

  it('answers with the declared status: 200 by default, 201 or 202 when declared, 204 and no body for t.void()', () => {
    const doc = zooDoc();
    const statuses = (path: string, verb: string) =>
      Object.keys(op(doc, path, verb).responses).filter((s) => s.startsWith('2'));
    expect(statuses('/api/getAccount', 'post')).to.deep.equal(['200']);
    expect(statuses('/api/createAccount', 'post')).to.deep.equal(['201']);
    expect(statuses('/api/deleteAccount', 'delete')).to.deep.equal(['204']);
    expect(op(doc, '/api/deleteAccount', 'delete').responses['204']).not.to.have.property('content');
    expect(statuses('/api/touch', 'post')).to.deep.equal(['202']);
    expect(op(doc, '/api/touch', 'post').responses['202']).not.to.have.property('content');
    expect(op(doc, '/api/touch', 'post').responses['202'].description).to.equal('Accepted: no body');
  });

  it('lists the problem answers each operation can get, and x-request-id on every answer', () => {
    const doc = zooDoc();
    const problems = (path: string, verb: string) =>
      Object.keys(op(doc, path, verb).responses).filter((s) => !s.startsWith('2'));
    // Public, no body: no 400, 401, 403, 413 or 415; a GET with an entity tag: 304.
    expect(problems('/api/listAccounts', 'get')).to.deep.equal(['304', '406', '500', 'default']);
    // Secured, with a body, void: no 406.
    expect(problems('/api/deleteAccount', 'delete')).to.deep.equal([
      '400',
      '401',
      '403',
      '413',
      '415',
      '500',
      'default',
    ]);
    expect(problems('/api/createAccount', 'post')).to.deep.equal([
      '400',
      '401',
      '403',
      '406',
      '413',
      '415',
      '500',
      'default',
    ]);
    expect(problems('/api/touch', 'post')).to.deep.equal(['401', '403', '500', 'default']);
    expect(op(doc, '/api/getAccount', 'post').responses['200'].headers['x-request-id']).to.deep.equal({
      $ref: '#/components/headers/RequestId',
    });
    for (const response of Object.values(doc.components.responses)) {
      expect((response as Op).headers['x-request-id']).to.deep.equal({ $ref: '#/components/headers/RequestId' });
    }
    expect((doc.components.responses.Unauthorized as Op).headers).to.have.property('WWW-Authenticate');
    expect((doc.components.responses.UnsupportedMediaType as Op).headers).to.have.property('Accept-Post');
    expect((doc.components.responses.ContentTooLarge as Op).description).to.include('1048576 bytes');
  });

  it('leaves out the problem answers no operation gets', () => {
    const doc = docFor({ listThings: method([], t.array(t.string())) });
    expect(Object.keys(doc.components.responses)).to.deep.equal([
      'NotAcceptable',
      'InternalServerError',
      'OtherProblem',
    ]);
    expect(doc.components).not.to.have.property('securitySchemes');
  });

  it('has one Problem schema, describing type, title, status, detail, code, path and requestId', () => {
    const doc = zooDoc();
    const problem = schemaOf(doc, 'Problem') as Op;
    expect(Object.keys(problem.properties)).to.deep.equal(Object.keys(Problem.fields));
    expect(Object.keys(problem.properties)).to.include.members(['code', 'path', 'requestId']);
    expect(problem.required).to.deep.equal(['type', 'title', 'status']);
    const refs = refsIn(doc.components.responses);
    expect(new Set(refs.filter((r) => r.includes('/schemas/')))).to.deep.equal(
      new Set(['#/components/schemas/Problem']),
    );
  });

  it("gives the registry's security schemes, and each operation the schemes that admit a caller", () => {
    const doc = zooDoc();
    expect(doc.components.securitySchemes).to.deep.equal({
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    expect(op(doc, '/api/getAccount', 'post').security).to.deep.equal([{ bearer: [] }, { basic: [] }]);
    expect(op(doc, '/api/upload', 'post').security).to.deep.equal([{ key: [] }]);
    expect(op(doc, '/api/listAccounts', 'get')).not.to.have.property('security');
  });

  it("puts named objects in components.schemas, every $ref resolving from the document's root", () => {
    const doc = zooDoc();
    expect(Object.keys(doc.components.schemas)).to.include.members([
      'Address.input',
      'Address.output',
      'Search',
      'Problem',
    ]);
    const refs = refsIn(doc);
    expect(refs.length).to.be.greaterThan(20);
    for (const ref of refs) expect(() => resolve(doc, ref), ref).not.to.throw();
    expect(bodySchema(op(doc, '/api/searchAccounts', 'post'))).to.deep.equal({ $ref: '#/components/schemas/Search' });
  });

  it('writes number formats: int8 to uint32 with their bounds, int64 and uint64 (minimum 0), float, double', () => {
    const props = (schemaOf(zooDoc(), 'Account.output') as Op).properties;
    expect(props.small).to.deep.equal({ type: 'integer', format: 'int8', minimum: -128, maximum: 127 });
    expect(props.port).to.deep.equal({ type: 'integer', format: 'uint16', minimum: 0, maximum: 65535 });
    expect(props.count).to.deep.include({ type: 'integer', format: 'uint32', minimum: 0, maximum: 4294967295 });
    expect(props.id).to.deep.equal({ type: 'integer', format: 'uint64', minimum: 0 });
    expect(props.balance).to.deep.equal({ type: 'integer', format: 'int64' });
    expect(props.score).to.deep.include({ type: 'number', format: 'float' });
    expect(props.ratio).to.deep.equal({ type: 'number', format: 'double' });
  });

  it('writes bytes as base64 text in JSON and as byte strings in MessagePack and CBOR, in a .binary schema', () => {
    const doc = zooDoc();
    const props = (name: string) => (schemaOf(doc, name) as Op).properties;
    expect(props('Account.output').avatar).to.deep.include({ type: 'string', contentEncoding: 'base64' });
    expect(props('Account.output.binary').avatar).to.deep.equal({
      type: 'string',
      contentMediaType: 'application/octet-stream',
    });
    const o = op(doc, '/api/getAccount', 'post');
    expect(answerSchema(o, '200')).to.deep.equal({ $ref: '#/components/schemas/Account.output' });
    expect(answerSchema(o, '200', 'application/msgpack')).to.deep.equal({
      $ref: '#/components/schemas/Account.output.binary',
    });
    expect(answerSchema(o, '200', 'application/cbor')).to.deep.equal({
      $ref: '#/components/schemas/Account.output.binary',
    });
    // Address holds no bytes: one schema for every media type (one for bodies, one for answers).
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith('Address'))).to.deep.equal([
      'Address.output',
      'Address.input',
    ]);
  });

  it('lists as required what reading requires in bodies, and what writing always writes in answers', () => {
    const doc = zooDoc();
    expect(schemaOf(doc, 'Account.input')).not.to.have.property('required');
    expect((schemaOf(doc, 'Account.output') as Op).required).to.deep.equal(
      Object.keys(Account.fields).filter((k) => k !== 'nick'),
    );
    expect(schemaOf(doc, 'Address.input')).not.to.have.property('required');
    expect((schemaOf(doc, 'Address.output') as Op).required).to.deep.equal(['street']);
    // Search is only read: one schema, named as it is.
    expect(schemaOf(doc, 'Search')).to.deep.include({ title: 'Search', additionalProperties: false });
    expect(doc.components.schemas).not.to.have.property('Search.input');
  });

  it('writes .default() values as JSON data in each form', () => {
    const Defaults = t.object(
      {
        limit: t.i32().default(10),
        id: t.u64().default(7n),
        huge: t.u64().default(2n ** 64n - 1n),
        raw: t.bytes().default(new Uint8Array([255])),
        names: t.map(t.i32()).default(JSON.parse('{"__proto__": 1, "b": 2}')),
        when: t.nullable(t.string()).default(null),
        pair: t.tuple([t.i64(), t.optional(t.bool())]).default([5n, undefined]),
        sub: t.object({ a: t.i8(), b: t.optional(t.i8()) }).default({ a: 1, extra: 3 } as never),
      },
      { name: 'Defaults' },
    );
    const doc = docFor({ createDefaults: method([Defaults], t.void()) });
    const jsonProps = (schemaOf(doc, 'Defaults') as Op).properties;
    expect(jsonProps.limit.default).to.equal(10);
    expect(jsonProps.id.default).to.equal(7);
    expect(jsonProps.huge, 'a default JSON data cannot hold exactly is left out').not.to.have.property('default');
    expect(jsonProps.raw.default).to.equal('/w==');
    expect(Object.getOwnPropertyNames(jsonProps.names.default)).to.deep.equal(['__proto__', 'b']);
    expect(JSON.stringify(jsonProps.names.default)).to.equal('{"__proto__":1,"b":2}');
    expect(jsonProps.when.default).to.equal(null);
    expect(jsonProps.pair.default).to.deep.equal([5, null]);
    expect(jsonProps.sub.default, 'projected onto the descriptor, as writing does').to.deep.equal({ a: 1 });
    const binaryProps = (schemaOf(doc, 'Defaults.binary') as Op).properties;
    expect(binaryProps.raw, 'a JSON document holds no byte string').not.to.have.property('default');
    expect(binaryProps.limit.default).to.equal(10);
  });

  it('states t.void() parameters as null, the body reading takes', () => {
    const doc = docFor({ ping: method([t.void()], t.string()), pair: method([t.void(), t.i32()], t.string()) });
    expect(bodySchema(op(doc, '/api/ping', 'post'))).to.deep.equal({ type: 'null' });
    expect((bodySchema(op(doc, '/api/pair', 'post')) as Op).prefixItems[0]).to.deep.equal({ type: 'null' });
    expect(json.decode(t.void(), 'null')).to.equal(undefined);
  });

  it('describes several parameters as a tuple, in the order declared', () => {
    const o = op(zooDoc(), '/api/move', 'post');
    expect(o.requestBody.description).to.equal('The 3 parameters, as an array in the order declared.');
    expect(bodySchema(o)).to.deep.include({ type: 'array', items: false, minItems: 3, maxItems: 3 });
  });

  it('refers a recursive named object to itself', () => {
    const fields: Record<string, Type> = { value: t.i32() };
    const Node = t.object(fields, { name: 'Node' });
    fields.next = t.optional(Node);
    const doc = docOfOperations({ createNode: method([Node], t.void()) });
    expect((schemaOf(doc, 'Node') as Op).properties.next).to.deep.equal({
      anyOf: [{ $ref: '#/components/schemas/Node' }, { type: 'null' }],
    });
  });

  it('takes copies of a named object and structurally equal objects of the same name as one schema', () => {
    // Optional members only: what is read and what is written have one schema.
    const A = t.object({ x: t.optional(t.i32()) }, { name: 'Point' });
    const B = t.object({ x: t.optional(t.i32()) }, { name: 'Point' });
    const doc = docFor({ createPoint: method([A.default({ x: 1 })], B), updatePoint: method([A], A) });
    expect(Object.keys(doc.components.schemas)).to.deep.equal(['Point', 'Problem']);
  });

  it("uses the registry's codecs: a codec of its own is listed without a schema unless schemaForms says how it writes", () => {
    const jsonSeq: Codec = { ...json, name: 'json-seq', contentTypes: ['application/json-seq'] };
    const methods = { echo: method([t.bytes()], t.bytes()) };
    const plain = op(docFor(methods, { codecs: [json, jsonSeq] }), '/api/echo', 'post');
    expect(plain.requestBody.content['application/json-seq']).to.deep.equal({});
    const told = op(
      docFor(methods, { codecs: [json, jsonSeq], schemaForms: { 'json-seq': 'json' } }),
      '/api/echo',
      'post',
    );
    expect(told.requestBody.content['application/json-seq'].schema).to.deep.include({ contentEncoding: 'base64' });
    const onlyBinary = docFor(methods, { codecs: [jsonSeq], schemaForms: { 'json-seq': 'binary' } });
    expect(Object.keys((onlyBinary.components.responses.BadRequest as Op).content)).to.deep.equal([
      'application/problem+json',
      'application/problem+json-seq',
    ]);
    expect(() => docFor(methods, { schemaForms: { json: 'yaml' as never } })).to.throw(
      TypeError,
      "schemaForms.json must be 'json', 'binary' or 'none'",
    );
  });

  it("the JSON form of a body is jsonSchema's schema, with formats added and 64-bit bounds left to the format", () => {
    fc.assert(
      fc.property(arbDescriptor, arbMissingKeys, fc.constant(true), (type, errorOnMissingKeys, errorOnUnknownKeys) => {
        fc.pre(comparable(type));
        const opts = { errorOnMissingKeys, errorOnUnknownKeys };
        const doc = docFor({ send: method([type], t.void()) }, { registry: opts });
        const { $schema: _, ...expected } = jsonSchema(type, opts);
        expect(withoutFormats(bodySchema(op(doc, '/api/send', 'post')))).to.deep.equal(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('openApi: descriptors JSON Schema cannot state as lacquer reads them', () => {
  it('refuses two different objects of the same name, naming where each is used', () => {
    const A = t.object({ id: t.u64() }, { name: 'User' });
    const B = t.object({ id: t.string() }, { name: 'User' });
    expect(() => docFor({ getUser: method([], A), findUser: method([], B) })).to.throw(
      TypeError,
      "two different objects are named 'User' (Svc.getUser's answer and Svc.findUser's answer)",
    );
  });

  it('refuses one descriptor under the same name with another requiresKey rule, where it changes required', () => {
    const fields = { a: t.i32(), b: t.i32() };
    const A = t.object(fields, { name: 'Pair' });
    const B = t.object(fields, { name: 'Pair', requiresKey: (k) => k === 'a' });
    expect(() =>
      docFor(
        { createA: method([A], t.void()), createB: method([B], t.void()) },
        { registry: { errorOnMissingKeys: true } },
      ),
    ).to.throw(TypeError, "two different objects are named 'Pair'");
  });

  it('has no literal or enum value without a JSON form to describe: a bigint, NaN or an infinity is refused when the descriptor is made', () => {
    expect(() => t.literal(5n as never)).to.throw(
      TypeError,
      't.literal(): a literal is a string, a number, a boolean or null, got bigint',
    );
    expect(() => t.literal(NaN)).to.throw(TypeError, 't.literal(): NaN is not a finite number');
    expect(() => t.enum(['a', Infinity])).to.throw(
      TypeError,
      't.enum(): the values are strings and finite numbers, got Infinity',
    );
    expect(() => t.enum(['a', 1n as never])).to.throw(
      TypeError,
      't.enum(): the values are strings and finite numbers, got bigint',
    );
  });

  it('refuses an unnamed descriptor that holds itself, saying to name it', () => {
    const fields: Record<string, Type> = { value: t.i32() };
    const Loop = t.object(fields);
    fields.next = t.array(Loop);
    expect(() => docOfOperations({ createLoop: method([Loop], t.void()) })).to.throw(
      TypeError,
      'a recursive object must be named',
    );
  });

  it('refuses names that cannot name a component, or that the document uses itself', () => {
    expect(() => docFor({ createX: method([t.object({}, { name: 'My User' })], t.void()) })).to.throw(
      TypeError,
      "the object name 'My User' cannot name an OpenAPI component",
    );
    expect(() => docFor({ createX: method([t.object({ a: t.i8() }, { name: 'Problem' })], t.void()) })).to.throw(
      TypeError,
      "the object name 'Problem' is taken",
    );
    // `User` with bytes needs `User.binary`, which another object already is.
    const User = t.object({ raw: t.bytes() }, { name: 'User' });
    const Taken = t.object({ a: t.i8() }, { name: 'User.binary' });
    expect(() => docFor({ createUser: method([User, Taken], t.void()) })).to.throw(
      TypeError,
      "the component name 'User.binary' would be given to two schemas",
    );
  });

  it('refuses a prefix that is no path, and info without a title and version', () => {
    const endpoints = zooRegistry().endpoints;
    expect(() => openApi(endpoints, { prefix: 'api', info })).to.throw(
      TypeError,
      "prefix must be '' or a path starting with '/'",
    );
    expect(() => openApi(endpoints, { prefix: '/api', info: { title: 'x' } as never })).to.throw(
      TypeError,
      'info needs a title and a version',
    );
  });
});

function doc2tags(doc: OpenApiDocument): string[] {
  return doc.tags.map((tag) => tag.name);
}

/** `schema` with the number formats taken out and 64-bit bounds as `jsonSchema` writes them. */
/**
 * Whether the OpenAPI form of `type` is jsonSchema's with only 64-bit formats in place of bounds:
 * not for named objects (components, not `$defs`), recursion, timestamps and string formats (a
 * format of their own), 64-bit integers with bounds or in string form (the format states them).
 */
function comparable(type: Type, seen = new Set<Type>()): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  const d = type as AnyType;
  switch (d.kind) {
    case 'lazy':
    case 'timestamp':
      return false;
    case 'string':
      return d.constraints?.format === undefined;
    case 'i64':
    case 'u64':
      return d.constraints === undefined && d.json === 'number';
    case 'object':
      return d.name === undefined && Object.values(d.fields).every((f) => comparable(f, seen));
    case 'variant':
      return d.members.every((m) => comparable(m, seen));
    case 'array':
      return comparable(d.element, seen);
    case 'map':
      return comparable(d.values, seen);
    case 'tuple':
      return d.elements.every((e) => comparable(e, seen));
    case 'optional':
    case 'nullable':
      return comparable(d.inner, seen);
    default:
      return true;
  }
}

/** Keywords holding data, not schemas: their keys (`format`, `__proto__`) stay as they are. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum']);
/** Keywords holding schemas by name: a member may be named `default`. */
const NAMED_SCHEMAS = new Set(['properties', '$defs']);

function withoutFormats(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutFormats);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { format, ...rest } = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (DATA_KEYWORDS.has(k)) out[k] = v;
    else if (NAMED_SCHEMAS.has(k))
      out[k] = Object.fromEntries(Object.entries(v as object).map(([name, s]) => [name, withoutFormats(s)]));
    else out[k] = withoutFormats(v);
  }
  if (format === 'int64') return { ...out, minimum: -(2 ** 63 - 1024), maximum: 2 ** 63 - 1024 };
  if (format === 'uint64') return { ...out, minimum: 0, maximum: 2 ** 64 - 2048 };
  return out;
}
