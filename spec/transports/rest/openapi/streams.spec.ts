// Stream operations in the document, which then says OpenAPI 3.2: each sequence media type the
// registry's codecs serve (and Server-Sent Events) states its item schema (`itemSchema`), and what
// the server sends, read item by item by parsers lacquer did not write, validates against it.
// The document is validated against the official OpenAPI 3.2 JSON Schema as
// @seriousme/openapi-schema-validator ships it (its schemas/v3.2); @readme/openapi-parser refuses
// 3.2 documents ("OpenAPI 3.2 is currently unsupported"), so it checks the 3.1 documents only.
import { expect } from 'chai';
import fc from 'fast-check';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Decoder as CborDecoder } from 'cbor-x';
import { Unpackr } from 'msgpackr';
import { Agent } from 'node:http';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  bearerAuth,
  contextKey,
  HttpError,
  meta,
  method,
  openApi,
  Registry,
  service,
  t,
  type Infer,
  type OpenApiDocument,
  type RegistryOptions,
  type Type,
} from '../../../../index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { HttpServer } from '../../../../transports/http/index.ts';
import { arbValueOf } from '../../../support/arbitraries.ts';
import { send, type Reply } from '../../../support/http-client.ts';
import { arbApiType, registryFor } from './arbitraries.ts';
import { notesRegistry } from './fixtures.ts';
import { ajvFor, asInstance, type DocValidator, resolve, token } from './support.ts';

const info = { title: 'Streams', version: '1' };
const agent = new Agent({ keepAlive: true });
const STREAM_TYPES = [
  'application/jsonl',
  'application/msgpack-seq',
  'application/cbor-seq',
  'text/event-stream',
] as const;
type StreamMediaType = (typeof STREAM_TYPES)[number];

/** Whether a stream's item may be `type` (no optional or void item). */
const canStream = (type: Type) => {
  try {
    t.stream(type);
    return true;
  } catch {
    return false;
  }
};

const Tick = t.object(
  { n: t.u32(), id: t.u64(), at: t.timestamp(), blob: t.bytes(), note: t.optional(t.string()) },
  { name: 'Tick' },
);
type Tick = Infer<typeof Tick>;
const Filter = t.object({ from: t.u32(), count: t.u32({ maximum: 100 }) }, { name: 'Filter' });
const tick = (n: number): Tick => ({
  n,
  id: 2n ** 64n - 1n - BigInt(n),
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
  blob: new Uint8Array([n, 255, 0]),
  ...(n % 2 ? { note: `tick ${n}` } : {}),
});

const StreamsApi = service(
  {
    listTicks: method({ count: t.u32({ maximum: 100 }), note: t.optional(t.string()) }, t.stream(Tick)),
    watchTicks: method([Filter], t.stream(Tick)),
    failAfter: method({ count: t.u32() }, t.stream(Tick), { verb: 'GET' }),
    refuseFirst: method([], t.stream(Tick), { verb: 'GET' }),
    listWords: method([], t.stream(t.string({ minLength: 1 }))),
    listSecrets: method([], t.stream(t.string()), { security: ['bearer'] }),
    getTick: method([t.u32()], Tick),
  },
  { security: [] },
);

class Streams {
  async *listTicks({ count }: { count: number }): AsyncIterable<Tick> {
    for (let n = 0; n < count; n++) yield tick(n);
  }
  async *watchTicks(filter: Infer<typeof Filter>): AsyncIterable<Tick> {
    for (let n = filter.from; n < filter.from + filter.count; n++) yield tick(n);
  }
  async *failAfter({ count }: { count: number }): AsyncIterable<Tick> {
    for (let n = 0; n < count; n++) yield tick(n);
    throw new HttpError(409, `stopped after ${count}`);
  }
  refuseFirst(): AsyncIterable<Tick> {
    // biome-ignore lint/correctness/useYield: a stream that fails before its first item
    return (async function* () {
      throw new HttpError(429, 'slow down');
    })();
  }
  listWords(): string[] {
    return ['a', 'bb'];
  }
  listSecrets(): string[] {
    return ['s'];
  }
  getTick(n: number): Tick {
    return tick(n);
  }
}
meta(Streams, StreamsApi);

const TOKEN = 'streams-token';
const streamsRegistry = (options: RegistryOptions = {}) =>
  new Registry({
    ...options,
    onError: () => {},
    security: {
      bearer: bearerAuth({ verify: (tk) => (tk === TOKEN ? 'tester' : undefined), key: contextKey<string>('who') }),
    },
  }).on(new Streams());

type Op = {
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, Record<string, unknown>> }>;
};
const op = (doc: OpenApiDocument, path: string, verb: string) => doc.paths[path]![verb] as Op;
const successContent = (doc: OpenApiDocument, path: string, verb: string) =>
  op(doc, path, verb).responses['200']!.content!;
const itemPointer = (path: string, verb: string, mediaType: string) =>
  `/paths/${token(path)}/${verb}/responses/200/content/${token(mediaType)}/itemSchema`;

/** A Server-Sent Events stream parsed as the HTML specification says, as OpenAPI 3.2 models its items. */
function sseItems(text: string): { data: string; event?: string; id?: string }[] {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (e) => events.push(e) }).feed(text);
  return events.map((e) => ({
    data: e.data,
    ...(e.event === undefined ? {} : { event: e.event }),
    ...(e.id === undefined ? {} : { id: e.id }),
  }));
}

/** What one stream answer held, as read by parsers other than lacquer's. */
interface Outcome {
  readonly items: unknown[];
  /** The problem document that ended the stream, or `undefined` for a clean end. */
  readonly problem: unknown;
}

/** The framing of JSON Lines, CBOR and MessagePack sequences: items, the end marker, then the marker again or a problem. */
function framed(values: unknown[], isEnd: (v: unknown) => boolean): Outcome {
  const end = values.findIndex(isEnd);
  expect(end, 'an end marker').to.be.at.least(0);
  expect(values.length, 'the outcome after the marker, and nothing else').to.equal(end + 2);
  const outcome = values[end + 1];
  return { items: values.slice(0, end), problem: isEnd(outcome) ? undefined : outcome };
}

/**
 * Reads one stream answer with independent parsers and checks every item against the itemSchema
 * its media type states (SSE: the event against the event schema, and its data's JSON against the
 * `contentSchema` of the event's branch), and a problem that ends it against `Problem`.
 */
function checkStream(doc: OpenApiDocument, validator: DocValidator, path: string, verb: string, reply: Reply): Outcome {
  expect(reply.status, reply.text).to.equal(200);
  const mediaType = String(reply.headers['content-type']) as StreamMediaType;
  const pointer = itemPointer(path, verb, mediaType);
  const item = validator(pointer, 'received');
  const problemValidator = validator('/components/schemas/Problem', 'received');
  const valid = (v: { (d: unknown): boolean; errors: unknown }, data: unknown, what: string) =>
    expect(
      v(data),
      `${verb} ${path} ${mediaType} ${what}: ${JSON.stringify(data)} ${JSON.stringify(v.errors)}`,
    ).to.equal(true);
  let outcome: Outcome;
  if (mediaType === 'text/event-stream') {
    const events = sseItems(reply.text);
    const branches = (resolve(doc, `#${pointer}`) as { oneOf: { properties: { event: { const: string } } }[] }).oneOf;
    const items: unknown[] = [];
    let problem: unknown;
    events.forEach((e, i) => {
      valid(item, e, `event ${i}`);
      const branch = branches.findIndex((b) => b.properties.event.const === (e.event ?? 'message'));
      expect(branch, `a branch for the event ${e.event}`).to.be.at.least(0);
      const data = resolve(doc, `#${pointer}/oneOf/${branch}/properties/data`) as { contentSchema?: unknown };
      if (data.contentSchema === undefined) return;
      const parsed = JSON.parse(e.data);
      valid(
        validator(`${pointer}/oneOf/${branch}/properties/data/contentSchema`, 'received'),
        parsed,
        `event ${i}'s data`,
      );
      if (e.event === 'error') problem = parsed;
      else items.push(parsed);
    });
    expect(events.at(-1)?.event, 'the last event ends the stream').to.be.oneOf(['end', 'error']);
    // Each item and the problem were checked against their branch's contentSchema.
    return { items, problem };
  } else if (mediaType === 'application/jsonl') {
    expect(reply.text.endsWith('\n')).to.equal(true);
    const lines = reply.text.slice(0, -1).split('\n');
    outcome = framed(
      lines.map((l) => (l === '' ? undefined : JSON.parse(l))),
      (v) => v === undefined,
    );
  } else if (mediaType === 'application/cbor-seq') {
    const values: unknown[] = [];
    new CborDecoder({ mapsAsObjects: false, useRecords: false }).decodeMultiple(reply.body, (v) => {
      values.push(v);
    });
    outcome = framed(values, (v) => v === undefined);
    outcome = { items: outcome.items.map(asInstance), problem: asInstance(outcome.problem) };
  } else {
    expect(mediaType).to.equal('application/msgpack-seq');
    const values = new Unpackr({ mapsAsObjects: false, useRecords: false, int64AsType: 'bigint' }).unpackMultiple(
      reply.body,
    );
    outcome = framed(values, (v) => v === undefined);
    outcome = { items: outcome.items.map(asInstance), problem: asInstance(outcome.problem) };
  }
  outcome.items.forEach((data, i) => valid(item, data, `item ${i}`));
  if (outcome.problem !== undefined) valid(problemValidator, outcome.problem, 'problem');
  return outcome;
}

describe('openApi: stream operations (OpenAPI 3.2 itemSchema)', function () {
  this.timeout(60_000);

  describe('the document', () => {
    const doc = () => openApi(streamsRegistry().endpoints, { prefix: '/api', info });

    it('says 3.2.0 and validates against the official OpenAPI 3.2 schema', async () => {
      expect(Validator.supportedVersions.has('3.2')).to.equal(true);
      const d = doc();
      expect(d.openapi).to.equal('3.2.0');
      const result = await new Validator().validate(JSON.parse(JSON.stringify(d)));
      expect(result.errors ?? null).to.equal(null);
      expect(result.valid).to.equal(true);
      // The validator is no formality: an itemSchema that is no schema, or a 3.1 version, fails.
      const broken = JSON.parse(JSON.stringify(d));
      broken.paths['/api/listTicks'].get.responses['200'].content['application/jsonl'].itemSchema = 42;
      expect((await new Validator().validate(broken)).valid).to.equal(false);
    });

    it('a request stream: its body in each sequence media type (no SSE) with the item schema, and 3.2.0', async () => {
      class Imports {
        importTicks(_ticks: AsyncIterable<unknown>) {
          return 0;
        }
      }
      meta(Imports, service({ importTicks: method([t.stream(Tick)], t.u32()) }));
      const d = openApi(new Registry().on(new Imports()).endpoints, { prefix: '/api', info });
      expect(d.openapi).to.equal('3.2.0');
      const operation = (
        d.paths as Record<
          string,
          Record<
            string,
            { requestBody: { content: Record<string, { itemSchema?: unknown }> }; responses: Record<string, unknown> }
          >
        >
      )['/api/importTicks']!.post!;
      expect(Object.keys(operation.requestBody.content)).to.deep.equal([
        'application/jsonl',
        'application/msgpack-seq',
        'application/cbor-seq',
      ]);
      for (const media of Object.values(operation.requestBody.content)) expect(media.itemSchema).to.be.an('object');
      expect(Object.keys(operation.responses)).to.include.members(['400', '413', '415']);
      const result = await new Validator().validate(JSON.parse(JSON.stringify(d)));
      expect(result.errors ?? null).to.equal(null);
    });

    it('a document without a stream operation still says 3.1.1, as before', () => {
      expect(openApi(notesRegistry().endpoints, { prefix: '/api', info }).openapi).to.equal('3.1.1');
      class Plain {
        getTick(n: number) {
          return tick(n);
        }
      }
      meta(Plain, service({ getTick: method([t.u32()], Tick) }));
      expect(openApi(new Registry().on(new Plain()).endpoints, { prefix: '/api', info }).openapi).to.equal('3.1.1');
    });

    it("a stream's success answer: each sequence media type the codecs serve, and SSE, with its item schema and framing", () => {
      const d = doc();
      const content = successContent(d, '/api/listTicks', 'get');
      expect(Object.keys(content)).to.deep.equal([...STREAM_TYPES]);
      expect(content['application/jsonl']).to.deep.include({ itemSchema: { $ref: '#/components/schemas/Tick' } });
      // Bytes and timestamps are written natively in the binary forms: Tick's .binary component.
      expect(content['application/msgpack-seq']).to.deep.include({
        itemSchema: { $ref: '#/components/schemas/Tick.binary' },
      });
      expect(content['application/cbor-seq']).to.deep.include({
        itemSchema: { $ref: '#/components/schemas/Tick.binary' },
      });
      for (const m of STREAM_TYPES) {
        expect(content[m], m).not.to.have.property('schema');
        expect(content[m]!.description, m).to.be.a('string');
      }
      expect(content['application/jsonl']!.description)
        .to.match(/two blank lines/i)
        .and.match(/problem document/);
      expect(content['application/cbor-seq']!.description).to.match(/`f7` twice/);
      expect(content['application/msgpack-seq']!.description).to.match(/`d4 00 00` twice/);
      const sse = content['text/event-stream']!.itemSchema as {
        type: string;
        required: string[];
        properties: Record<string, unknown>;
        oneOf: { required?: string[]; properties: Record<string, Record<string, unknown>> }[];
      };
      expect(sse.type).to.equal('object');
      expect(sse.required).to.deep.equal(['data']);
      expect(sse.properties).to.deep.equal({
        data: { type: 'string' },
        event: { type: 'string' },
        id: { type: 'string' },
      });
      const [message, end, error] = sse.oneOf;
      expect(message!.properties).to.deep.equal({
        event: { const: 'message' },
        data: { contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/Tick' } },
      });
      expect(end).to.deep.include({
        required: ['event'],
        properties: { event: { const: 'end' }, data: { const: '' } },
      });
      expect(error).to.deep.include({
        required: ['event'],
        properties: {
          event: { const: 'error' },
          data: { contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/Problem' } },
        },
      });
      // An item that is no object: its own schema.
      expect(successContent(d, '/api/listWords', 'get')['application/jsonl']!.itemSchema).to.deep.equal({
        type: 'string',
        minLength: 1,
      });
      // The answer says it is a stream; a plain answer is as before.
      expect(op(d, '/api/listTicks', 'get').responses['200']!.description).to.match(/stream/);
      expect(Object.keys(successContent(d, '/api/getTick', 'post'))).to.deep.equal([
        'application/json',
        'application/msgpack',
        'application/cbor',
      ]);
    });

    it('problems before the first item are ordinary problem answers: 413 and 415 only with a body', () => {
      const d = doc();
      const statuses = (path: string, verb: string) => Object.keys(op(d, path, verb).responses);
      expect(statuses('/api/listTicks', 'get')).to.deep.equal(['200', '400', '406', '500', 'default']);
      expect(statuses('/api/refuseFirst', 'get')).to.deep.equal(['200', '406', '500', 'default']);
      expect(statuses('/api/watchTicks', 'post')).to.deep.equal(['200', '400', '406', '413', '415', '500', 'default']);
      expect(statuses('/api/listSecrets', 'get')).to.deep.equal(['200', '401', '403', '406', '500', 'default']);
      expect(d.paths['/api/watchTicks']!.post!.requestBody).to.deep.include({ required: true });
    });

    it('only the media types the registry can serve: a registry with JSON alone has JSON Lines and SSE', () => {
      const registry = streamsRegistry({ codecs: [json] });
      const d = openApi(registry.endpoints, { prefix: '/api', info });
      expect(Object.keys(successContent(d, '/api/listWords', 'get'))).to.deep.equal([
        'application/jsonl',
        'text/event-stream',
      ]);
    });

    it('schemaForms apply to the stream media types: none lists the framing alone, JSON gives the JSON form', async () => {
      const d = openApi(streamsRegistry().endpoints, {
        prefix: '/api',
        info,
        schemaForms: { json: 'none', cbor: 'json' },
      });
      const content = successContent(d, '/api/listTicks', 'get');
      expect(Object.keys(content['application/jsonl']!)).to.deep.equal(['description']);
      expect(Object.keys(content['text/event-stream']!)).to.deep.equal(['description']);
      expect(content['application/cbor-seq']!.itemSchema).to.deep.equal({ $ref: '#/components/schemas/Tick' });
      expect(content['application/msgpack-seq']!.itemSchema).to.deep.equal({
        $ref: '#/components/schemas/Tick.binary',
      });
      expect((await new Validator().validate(JSON.parse(JSON.stringify(d)))).valid).to.equal(true);
    });
  });

  describe('what the server sends validates against the itemSchema of its media type', () => {
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

    it('items, the clean end and a mid-stream error, in every stream media type, for GET and POST', async () => {
      const prefix = `/s${mounts++}`;
      const registry = streamsRegistry();
      server.mount(prefix, registry.endpoints);
      const doc = openApi(registry.endpoints, { prefix, info });
      const validator = ajvFor(doc);
      for (const accept of STREAM_TYPES) {
        const got = checkStream(
          doc,
          validator,
          `${prefix}/listTicks`,
          'get',
          await send(`${base}${prefix}/listTicks?count=3&note=x`, { agent, headers: { accept } }),
        );
        expect(got.items, accept).to.have.length(3);
        expect(got.problem, accept).to.equal(undefined);
        const body = JSON.stringify({ from: 5, count: 2 });
        const posted = checkStream(
          doc,
          validator,
          `${prefix}/watchTicks`,
          'post',
          await send(`${base}${prefix}/watchTicks`, {
            agent,
            method: 'POST',
            body,
            headers: { accept, 'content-type': 'application/json' },
          }),
        );
        expect(posted.items, accept).to.have.length(2);
        const failed = checkStream(
          doc,
          validator,
          `${prefix}/failAfter`,
          'get',
          await send(`${base}${prefix}/failAfter?count=2`, { agent, headers: { accept } }),
        );
        expect(failed.items, accept).to.have.length(2);
        expect(failed.problem, accept).to.deep.include({ status: 409, detail: 'stopped after 2' });
        const words = checkStream(
          doc,
          validator,
          `${prefix}/listWords`,
          'get',
          await send(`${base}${prefix}/listWords`, { agent, headers: { accept } }),
        );
        expect(words.items, accept).to.deep.equal(['a', 'bb']);
      }
    });

    it('the problems before the first item are the responses the document lists, with the Problem schema', async () => {
      const prefix = `/s${mounts++}`;
      const registry = streamsRegistry();
      server.mount(prefix, registry.endpoints);
      const doc = openApi(registry.endpoints, { prefix, info });
      const validator = ajvFor(doc);
      const cases: [string, string, Record<string, string>, number][] = [
        ['/listTicks?count=x', 'get', {}, 400],
        ['/listTicks?count=3', 'get', { accept: 'text/html' }, 406],
        ['/refuseFirst', 'get', { accept: 'text/event-stream' }, 429],
        ['/listSecrets', 'get', {}, 401],
      ];
      for (const [url, verb, headers, status] of cases) {
        const reply = await send(`${base}${prefix}${url}`, { agent, headers });
        expect(reply.status, url).to.equal(status);
        const responses = op(doc, `${prefix}${url.split('?')[0]}`, verb).responses;
        const declared = responses[String(status)] ?? responses.default!;
        const response = resolve(doc, declared.$ref!) as { content: Record<string, unknown> };
        expect(Object.keys(response.content)).to.include(String(reply.headers['content-type']));
        expect(validator('/components/schemas/Problem', 'received')(reply.json()), url).to.equal(true);
      }
    });

    it('for generated item types: the document validates, and so does every item in every stream media type', async () => {
      let items = 0;
      const cases = arbApiType('S')
        .filter(canStream)
        .chain((type) => fc.array(arbValueOf(type), { maxLength: 3 }).map((values) => ({ type, values })));
      await fc.assert(
        fc.asyncProperty(cases, async ({ type, values }) => {
          const prefix = `/g${mounts++}`;
          const registry = registryFor(
            { options: {}, methods: [{ name: 'listValues', contract: method([], t.stream(type as Type)) }] },
            () => values,
          );
          server.mount(prefix, registry.endpoints);
          const doc = openApi(registry.endpoints, { prefix, info });
          const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)));
          expect(result.valid, JSON.stringify(result.errors)).to.equal(true);
          const validator = ajvFor(doc);
          for (const accept of STREAM_TYPES) {
            const got = checkStream(
              doc,
              validator,
              `${prefix}/listValues`,
              'get',
              await send(`${base}${prefix}/listValues`, { agent, headers: { accept } }),
            );
            expect(got.items, accept).to.have.length(values.length);
            expect(got.problem, `${accept}: ${JSON.stringify(got.problem)}`).to.equal(undefined);
            items += got.items.length;
          }
        }),
        { numRuns: 40 },
      );
      expect(items, 'items checked').to.be.greaterThan(100);
    });
  });
});
