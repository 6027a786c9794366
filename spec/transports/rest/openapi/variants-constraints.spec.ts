// The OpenAPI document of a service using variants (with and without a discriminator), a recursive
// named object through t.lazy, timestamps, unknown values, constraints, descriptions and 64-bit
// integers as JSON strings: both OpenAPI 3.1 validators take it, its schemas say what the spec
// expects, and it agrees with the wire (answers in every codec validate, decoded by independent
// decoders; a JSON body is answered 400 exactly when its schema refuses it).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import fc from 'fast-check';
import { Agent } from 'node:http';
import {
  meta,
  method,
  openApi,
  Registry,
  service,
  t,
  type Infer,
  type OpenApiDocument,
  type Type,
} from '../../../../index.ts';
import { cbor } from '../../../../codecs/cbor/index.ts';
import { json } from '../../../../codecs/json/index.ts';
import { msgpack } from '../../../../codecs/msgpack/index.ts';
import { HttpServer } from '../../../../transports/http/index.ts';
import { send, type Reply } from '../../../support/http-client.ts';
import { decodeIndependently, refsIn, resolve, schemaPointer, token, validatorErrors } from './support.ts';

// ---- The service --------------------------------------------------------------------------------

const Circle = t.object(
  { type: t.literal('circle'), r: t.f64({ minimum: 0 }) },
  { name: 'Circle', description: 'A circle.' },
);
// (Bounds that take 0: an absent member reads as its kind's default, which the answer must be able to write.)
const Square = t.object({ type: t.literal('square'), side: t.f32({ minimum: 0, maximum: 100 }) }, { name: 'Square' });
const Shape = t.variant('type', [Circle, Square]).describe('A shape, told apart by type.');
/** Members without names, and discriminants that are numbers: no discriminator. */
const Step = t.variant('k', [t.object({ k: t.literal(1), to: t.string() }), t.object({ k: t.literal(2) })]);

const Event = t.object(
  {
    id: t.u64({ json: 'string' }),
    delta: t.i64({ json: 'string', minimum: -1000n, maximum: 1000n }),
    at: t.timestamp().describe('When it happened.'),
    shape: Shape,
    step: Step,
    payload: t.unknown(),
    tags: t.array(t.string({ minLength: 1, maxLength: 10, pattern: '^[a-z]+$' }), { maxItems: 3 }),
    email: t.optional(t.string({ format: 'email' })),
    score: t.f32({ minimum: 0, maximum: 1 }),
    attrs: t.map(t.i32({ minimum: 0 }), { maxProperties: 2 }),
    level: t.u8({ maximum: 10 }).default(1),
    big: t.i64({ minimum: -(2n ** 60n) - 1n, exclusiveMaximum: 2n ** 60n + 1n }),
  },
  { name: 'Event', description: 'Something that happened.' },
);
type Event = Infer<typeof Event>;

type Tree = { label: string; at?: Date | undefined; children: Tree[] };
const Tree: Type<Tree> = t.object(
  { label: t.string(), at: t.optional(t.timestamp()), children: t.array(t.lazy(() => Tree)) },
  { name: 'Tree' },
);

class Journal {
  record(e: Event): Event {
    return e;
  }
  plant(tree: Tree): Tree {
    return tree;
  }
  shapes(shapes: Infer<typeof Shape>[]): Infer<typeof Shape>[] {
    return shapes;
  }
  when(at: Date): Date {
    return at;
  }
  anything(v: unknown): unknown {
    return v;
  }
}
meta(
  Journal,
  service({
    record: method([Event], Event),
    plant: method([Tree], Tree),
    shapes: method([t.array(Shape)], t.array(Shape)),
    when: method([t.timestamp()], t.timestamp()),
    anything: method([t.unknown()], t.unknown()),
  }),
);

const info = { title: 'Journal', version: '1' };
const CODECS = { json, msgpack, cbor } as const;
const MEDIA = { json: 'application/json', msgpack: 'application/msgpack', cbor: 'application/cbor' } as const;
type CodecName = keyof typeof CODECS;

// ---- Values -------------------------------------------------------------------------------------

const arbDate = fc.date({
  min: new Date('0001-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const arbShape = fc.oneof(
  fc.record({
    type: fc.constant('circle' as const),
    r: fc.double({ min: 0, max: 1e6, noNaN: true }).map((r) => Math.abs(r)),
  }),
  fc.record({ type: fc.constant('square' as const), side: fc.float({ min: Math.fround(0.5), max: 100, noNaN: true }) }),
);
const arbEvent: fc.Arbitrary<Event> = fc
  .record(
    {
      id: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      delta: fc.bigInt({ min: -1000n, max: 1000n }),
      at: arbDate,
      shape: arbShape,
      step: fc.oneof(
        fc.record({ k: fc.constant(1 as const), to: fc.string({ maxLength: 4 }) }),
        fc.record({ k: fc.constant(2 as const) }),
      ),
      payload: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
      tags: fc.array(fc.stringMatching(/^[a-z]{1,10}$/), { maxLength: 3 }),
      email: fc.option(fc.constantFrom('ada@example.com', 'b@c.io'), { nil: undefined }),
      score: fc.float({ min: 0, max: 1, noNaN: true }),
      attrs: fc.dictionary(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }), { maxKeys: 2 }),
      level: fc.integer({ min: 0, max: 10 }),
      big: fc.bigInt({ min: -(2n ** 60n) - 1n, max: 2n ** 60n }),
    },
    { requiredKeys: ['id', 'delta', 'at', 'shape', 'step', 'payload', 'tags', 'score', 'attrs', 'level', 'big'] },
  )
  // `payload` of null reads as absent, as an optional's does: leave it out of the value compared.
  .map((e) => (e.payload === null ? (({ payload: _, ...rest }) => rest as Event)(e) : e));
const arbTree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.record(
    {
      label: fc.string({ maxLength: 3 }),
      at: fc.option(arbDate, { nil: undefined }),
      children: fc.oneof(
        { maxDepth: 4, depthIdentifier: 'tree' },
        fc.constant<Tree[]>([]),
        fc.array(tie('tree'), { maxLength: 2 }),
      ),
    },
    { requiredKeys: ['label', 'children'] },
  ),
})).tree;

/** A call of one method with valid arguments. */
const arbCall = fc.oneof(
  arbEvent.map((v) => ({ name: 'record', type: Event as Type, value: v as unknown })),
  arbTree.map((v) => ({ name: 'plant', type: Tree as Type, value: v as unknown })),
  fc
    .array(arbShape, { maxLength: 3 })
    .map((v) => ({ name: 'shapes', type: t.array(Shape) as Type, value: v as unknown })),
  arbDate.map((v) => ({ name: 'when', type: t.timestamp() as Type, value: v as unknown })),
  fc
    .jsonValue({ maxDepth: 2 })
    .filter((v) => v !== null)
    .map((v) => ({ name: 'anything', type: t.unknown() as Type, value: v as unknown })),
);

/** Any small JSON value, for the places where input is plain wrong. */
const arbAnyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, '', 'x', [], {}, '2024-05-01T12:00:00Z', '12', 2 ** 60, -(2 ** 60)),
  fc.jsonValue({ maxDepth: 1 }),
);

/** JSON data near `value`: now and then a member replaced, removed or added, at any depth. */
function nearJson(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) {
    return fc.oneof(
      { weight: 6, arbitrary: value.length === 0 ? fc.constant([]) : fc.tuple(...value.map(nearJson)) },
      { weight: 1, arbitrary: fc.tuple(...value.map(nearJson), arbAnyJson) },
      { weight: 1, arbitrary: arbAnyJson },
    );
  }
  if (typeof value === 'object' && value !== null) {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, v] of Object.entries(value))
      model[k] = fc.oneof({ weight: 12, arbitrary: nearJson(v) }, { weight: 1, arbitrary: fc.constant(undefined) });
    return fc
      .oneof(
        { weight: 8, arbitrary: fc.record(model) },
        { weight: 1, arbitrary: fc.record(model).map((r) => ({ ...r, extra: 1 })) },
        { weight: 1, arbitrary: arbAnyJson },
      )
      .map((r) =>
        typeof r === 'object' && r !== null && !Array.isArray(r) ? (JSON.parse(JSON.stringify(r)) as unknown) : r,
      );
  }
  return fc.oneof({ weight: 12, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: arbAnyJson });
}

// ---- Validating instances against the document --------------------------------------------------

/** How the 64-bit formats are checked: by the integer a sent text states, or as the double a received one rounds to. */
let rounding: 'sent' | 'received' = 'sent';
const ajv = new Ajv2020({ strict: false, ownProperties: true, validateFormats: true });
addFormats.default(ajv);
{
  const int = (min: number, max: number) => ({
    type: 'number' as const,
    validate: (n: number) => Number.isInteger(n) && n >= min && n <= max,
  });
  ajv
    .addFormat('int8', int(-128, 127))
    .addFormat('uint8', int(0, 255))
    .addFormat('int32', int(-(2 ** 31), 2 ** 31 - 1))
    .addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) })
    .addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
  const ranges = { int64: [-(2n ** 63n), 2n ** 63n - 1n], uint64: [0n, 2n ** 64n - 1n] } as const;
  for (const [name, [min, max]] of Object.entries(ranges)) {
    ajv.addFormat(name, {
      type: 'number',
      validate: (n: number) => {
        if (!Number.isInteger(n)) return false;
        if (rounding === 'received') return n >= Number(min) && n <= Number(max);
        const text = JSON.stringify(n);
        return /^-?\d+$/.test(text) && BigInt(text) >= min && BigInt(text) <= max;
      },
    });
  }
}
let documents = 0;

/** Checks data against the schema at a JSON Pointer of `doc`. */
function validatorFor(
  doc: OpenApiDocument,
): (pointer: string, how: 'sent' | 'received', data: unknown) => { ok: boolean; errors: unknown } {
  const id = `https://lacquer.test/variants-constraints-${documents++}.json`;
  ajv.addSchema(JSON.parse(JSON.stringify(doc)), id);
  const compiled = new Map<string, ValidateFunction>();
  return (pointer, how, data) => {
    let v = compiled.get(pointer);
    if (v === undefined) compiled.set(pointer, (v = ajv.compile({ $ref: `${id}#${pointer}` })));
    rounding = how;
    const ok = v(data);
    return { ok, errors: v.errors };
  };
}

type Op = Record<string, any>;
const schemas = (doc: OpenApiDocument) => doc.components.schemas as Record<string, Op>;

describe('openApi: variants, recursion, timestamps, unknown values, constraints, descriptions', function () {
  this.timeout(120_000);
  const registry = new Registry({ onError: () => {} }).on(new Journal());
  const doc = openApi(registry.endpoints, { prefix: '/api', info });

  it('validates with both OpenAPI 3.1 validators, every $ref resolving', async () => {
    for (const ref of refsIn(doc)) resolve(doc, ref);
    expect(await validatorErrors(doc)).to.deep.equal({ seriousme: null, readme: null });
  });

  it('gives a variant of named objects a discriminator whose mapping names their components', () => {
    const event = schemas(doc)['Event.input']!;
    const shape = event.properties.shape;
    expect(shape).to.deep.include({ type: 'object', required: ['type'], description: 'A shape, told apart by type.' });
    // A body's members are not required (errorOnMissingKeys is off), an answer's are: Circle.input and Circle.output.
    expect(shape.oneOf).to.deep.equal([
      { $ref: '#/components/schemas/Circle.input' },
      { $ref: '#/components/schemas/Square.input' },
    ]);
    expect(shape.discriminator).to.deep.equal({
      propertyName: 'type',
      mapping: { circle: '#/components/schemas/Circle.input', square: '#/components/schemas/Square.input' },
    });
    expect(schemas(doc)['Event.output']!.properties.shape.discriminator.mapping).to.deep.equal({
      circle: '#/components/schemas/Circle.output',
      square: '#/components/schemas/Square.output',
    });
    for (const ref of Object.values(shape.discriminator.mapping as Record<string, string>))
      expect(() => resolve(doc, ref)).not.to.throw();
    expect(schemas(doc)['Circle.input']).to.deep.include({ title: 'Circle', description: 'A circle.' });
    expect(schemas(doc)['Circle.input']!.properties.type).to.deep.equal({ const: 'circle' });
    // Unnamed members, number discriminants: oneOf alone.
    expect(event.properties.step).not.to.have.property('discriminator');
    expect(event.properties.step.oneOf).to.have.length(2);
  });

  it('refers to a recursive named object by $ref, from its own schema too', () => {
    for (const name of ['Tree.input', 'Tree.output', 'Tree.input.binary', 'Tree.output.binary']) {
      expect(schemas(doc)[name]!.properties.children.items, name).to.deep.equal({
        $ref: `#/components/schemas/${name}`,
      });
    }
  });

  it('states timestamps as RFC 3339 text, marked x-wire: timestamp in the binary form, which gets components of its own', () => {
    const names = Object.keys(schemas(doc));
    expect(names).to.include.members([
      'Event.input',
      'Event.input.binary',
      'Event.output',
      'Event.output.binary',
      'Circle.input',
      'Square.output',
    ]);
    expect(names, 'objects without timestamps or bytes have one form').not.to.include('Circle.input.binary');
    expect(schemas(doc)['Event.input']!.properties.at).to.deep.equal({
      type: 'string',
      format: 'date-time',
      description: 'When it happened.',
    });
    expect(schemas(doc)['Event.input.binary']!.properties.at).to.deep.equal({
      type: 'string',
      format: 'date-time',
      'x-wire': 'timestamp',
      description: 'When it happened.',
    });
    const when = doc.paths['/api/when']!.post as Op;
    expect(when.requestBody.content['application/json'].schema).to.deep.equal({ type: 'string', format: 'date-time' });
    expect(when.requestBody.content['application/cbor'].schema).to.deep.equal({
      type: 'string',
      format: 'date-time',
      'x-wire': 'timestamp',
    });
  });

  it('writes 64-bit integers in JSON strings as what the server reads (either form) and writes (the string), native in binary', () => {
    const id = (name: string) => schemas(doc)[name]!.properties.id;
    expect(id('Event.input').anyOf[0]).to.deep.equal({ type: 'integer', format: 'uint64', minimum: 0 });
    expect(id('Event.input').anyOf[1].type).to.equal('string');
    expect(id('Event.output')).to.deep.equal(id('Event.input').anyOf[1]);
    expect(id('Event.input.binary')).to.deep.equal({ type: 'integer', format: 'uint64', minimum: 0 });
    const delta = schemas(doc)['Event.input']!.properties.delta;
    expect(delta.anyOf[0]).to.deep.equal({ type: 'integer', format: 'int64', minimum: -1000, maximum: 1000 });
    const pattern = new RegExp(delta.anyOf[1].pattern as string, 'u');
    expect(['-1000', '0', '-0', '1000'].map((s) => pattern.test(s))).to.deep.equal([true, true, true, true]);
    expect(['-1001', '1001', '01', '+1'].map((s) => pattern.test(s))).to.deep.equal([false, false, false, false]);
  });

  it('states constraints, descriptions and unknown values', () => {
    const p = schemas(doc)['Event.input']!.properties;
    expect(schemas(doc)['Event.input']).to.deep.include({ title: 'Event', description: 'Something that happened.' });
    expect(p.tags).to.deep.equal({
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 10, pattern: '^[a-z]+$' },
      maxItems: 3,
    });
    expect(p.email.anyOf[0]).to.deep.equal({ type: 'string', format: 'email' });
    expect(p.attrs).to.deep.equal({
      type: 'object',
      additionalProperties: { type: 'integer', format: 'int32', minimum: 0, maximum: 2147483647 },
      maxProperties: 2,
    });
    expect(p.level).to.deep.equal({ type: 'integer', format: 'uint8', minimum: 0, maximum: 10, default: 1 });
    expect(p.payload).to.deep.equal({});
    // In an answer, a member with a default is always written; an unknown one may be skipped.
    expect(schemas(doc)['Event.output']!.required)
      .to.include('level')
      .and.not.include('payload')
      .and.not.include('email');
  });

  it('lists errors in the Problem schema, each { code, path, message }', () => {
    const problem = schemas(doc).Problem!;
    expect(problem.properties.errors).to.deep.include({ type: 'array', maxItems: 100 });
    expect(problem.properties.errors.items).to.deep.include({ type: 'object', required: ['code', 'path', 'message'] });
    const badRequest = resolve(doc, '#/components/responses/BadRequest') as Op;
    expect(badRequest.content['application/problem+json'].schema).to.deep.equal({
      $ref: '#/components/schemas/Problem',
    });
  });

  describe('agrees with the wire', () => {
    const server = new HttpServer();
    const agent = new Agent({ keepAlive: true });
    let base = '';
    const validate = validatorFor(doc);
    before(async () => {
      server.mount('/api', registry.endpoints);
      await server.bind(0).start();
      base = server.url;
    });
    after(async () => {
      agent.destroy();
      await server.stop();
    });

    /** Checks an answer against the schema the document gives its status and media type. */
    function checkAnswer(path: string, reply: Reply): void {
      const responses = (doc.paths[path]!.post as Op).responses as Record<string, { $ref?: string }>;
      const declared = responses[String(reply.status)] ?? responses.default!;
      const at =
        declared.$ref === undefined ? `/paths/${token(path)}/post/responses/${reply.status}` : declared.$ref.slice(1);
      const mediaType = String(reply.headers['content-type']).split(';')[0]!.trim();
      const instance = decodeIndependently(mediaType, reply.body);
      const { ok, errors } = validate(`${at}/content/${token(mediaType)}/schema`, 'received', instance);
      expect(
        ok,
        `${path} ${reply.status} ${mediaType}: ${JSON.stringify(errors)}\n${JSON.stringify(instance)}`,
      ).to.equal(true);
    }

    it('answers in every codec, decoded independently, validate against their schemas', async () => {
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(
          arbCall,
          fc.constantFrom<CodecName>('json', 'msgpack', 'cbor'),
          fc.constantFrom<CodecName>('json', 'msgpack', 'cbor'),
          async (call, inCodec, outCodec) => {
            const reply = await send(`${base}/api/${call.name}`, {
              method: 'POST',
              agent,
              body: CODECS[inCodec].encode(call.type, call.value as never),
              headers: { 'content-type': MEDIA[inCodec], accept: MEDIA[outCodec] },
            });
            expect(reply.status, reply.text).to.equal(200);
            checkAnswer(`/api/${call.name}`, reply);
            seen.add(call.name);
          },
        ),
        { numRuns: 250 },
      );
      expect([...seen].sort()).to.deep.equal(['anything', 'plant', 'record', 'shapes', 'when']);
    });

    it('a JSON body the request schema refuses is answered 400, one it accepts 200, with errors that validate', async () => {
      let refused = 0;
      let accepted = 0;
      const cases = arbCall.chain((call) =>
        nearJson(JSON.parse(json.encode(call.type, call.value as never))).map((body) => ({ name: call.name, body })),
      );
      await fc.assert(
        fc.asyncProperty(cases, async ({ name, body }) => {
          const path = `/api/${name}`;
          const { ok, errors } = validate(schemaPointer(path, 'post', 'request', 'application/json'), 'sent', body);
          const reply = await send(`${base}${path}`, {
            method: 'POST',
            agent,
            body: JSON.stringify(body),
            headers: { 'content-type': 'application/json' },
          });
          expect(reply.status, `${JSON.stringify(body)}: ${reply.text} / ${JSON.stringify(errors)}`).to.equal(
            ok ? 200 : 400,
          );
          checkAnswer(path, reply);
          if (ok) {
            accepted++;
          } else {
            refused++;
            const problem = reply.json() as { code: string; path: string; errors: { code: string; path: string }[] };
            expect(problem.errors[0]).to.deep.include({ code: problem.code, path: problem.path });
          }
        }),
        { numRuns: 400 },
      );
      expect(refused, 'bodies refused').to.be.greaterThan(40);
      expect(accepted, 'bodies accepted').to.be.greaterThan(40);
    });
  });

  it('refuses a recursive descriptor without a name in its cycle, naming the method and the place', () => {
    const Loop: Type = t.object({ next: t.optional(t.lazy(() => Loop)) });
    class Loops {
      follow(_l: unknown) {
        return true;
      }
    }
    meta(Loops, service({ follow: method([Loop], t.bool()) }));
    expect(() => openApi(new Registry().on(new Loops()).endpoints, { prefix: '/api', info })).to.throw(
      TypeError,
      /Loops\.follow's body, at \.next: the descriptor holds itself; a recursive object must be named/,
    );
  });
});
