// A descriptor that holds itself with no named object in the cycle has no schema (a schema repeats
// itself only through a `$ref`, which only named objects get): jsonSchema and openApi refuse it by
// one rule, with one message, each saying where in its own notation. A name anywhere in the cycle
// is enough for both.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  DEFAULT_CODECS,
  DEFAULT_MAX_BODY_BYTES,
  Endpoints,
  jsonSchema,
  method,
  openApi,
  t,
  type OpenApiDocument,
  type Type,
} from '../../../../index.ts';

const info = { title: 'Cycles', version: '1.0.0' };

/** The document of one operation taking `type`, made without `Registry.on` (whose codecs refuse some cycles first). */
function docOf(type: Type): OpenApiDocument {
  const endpoints = new Endpoints(DEFAULT_MAX_BODY_BYTES, DEFAULT_CODECS);
  endpoints.operations.push({
    service: 'Svc',
    method: 'send',
    verb: 'POST',
    path: '/send',
    contract: method([type], t.void()),
    security: [],
  });
  return openApi(endpoints, { prefix: '/api', info });
}

/** The TypeError `make` throws (failing the spec on any other outcome). */
function refusal(make: () => unknown): TypeError {
  try {
    make();
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(TypeError);
    return e as TypeError;
  }
  expect.fail('expected a TypeError');
}

const RULE =
  'the descriptor holds itself; a recursive object must be named: it refers to itself through t.lazy ' +
  "(or a fields object it is in) with no named object in the cycle; give the recursive object a name (t.object(fields, { name: 'Tree' })), " +
  'which is written once and refers to itself with $ref';

describe('jsonSchema and openApi: a descriptor that holds itself without a name', () => {
  it('is refused by both with one message, at the place it comes back to itself', () => {
    const Unnamed: Type = t.object({ children: t.array(t.lazy(() => Unnamed)) });
    expect(refusal(() => jsonSchema(Unnamed)).message).to.equal(`jsonSchema(): at /properties/children/items: ${RULE}`);
    expect(refusal(() => docOf(Unnamed)).message).to.equal(`openApi(): Svc.send's body, at .children[]: ${RULE}`);
    const Nested: Type = t.array(t.lazy(() => Nested));
    expect(refusal(() => jsonSchema(Nested)).message).to.equal(`jsonSchema(): at /items: ${RULE}`);
    expect(refusal(() => docOf(Nested)).message).to.equal(`openApi(): Svc.send's body, at []: ${RULE}`);
  });

  it('is refused when the cycle runs through a shared fields object instead of t.lazy', () => {
    const fields: Record<string, Type> = { value: t.i32() };
    const Loop = t.object(fields);
    fields.next = t.array(Loop);
    expect(refusal(() => jsonSchema(Loop)).message).to.equal(`jsonSchema(): at /properties/next/items: ${RULE}`);
    expect(refusal(() => docOf(Loop)).message).to.equal(`openApi(): Svc.send's body, at .next[]: ${RULE}`);
  });

  /** A container around `inner`, and the step of each notation into it. */
  type Wrap = { wrap: (inner: Type) => Type; pointer: string; access: string };
  const WRAPS: Wrap[] = [
    { wrap: (x) => t.array(x), pointer: '/items', access: '[]' },
    { wrap: (x) => t.map(x), pointer: '/additionalProperties', access: '{}' },
    { wrap: (x) => t.tuple([t.u8(), x]), pointer: '/prefixItems/1', access: '[1]' },
    { wrap: (x) => t.object({ 'a-b': x }), pointer: '/properties/a-b', access: '["a-b"]' },
    { wrap: (x) => t.object({ next: t.optional(x) }), pointer: '/properties/next', access: '.next' },
    { wrap: (x) => t.nullable(t.array(x)), pointer: '/items', access: '[]' },
  ];

  it('is refused by both, with the same rule after the place, for cycles through any containers; a name anywhere in the cycle lets both through', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WRAPS), { minLength: 1, maxLength: 4 }), fc.nat(), (wraps, at) => {
        const build = (named: number | undefined): Type => {
          const root: Type = wraps.reduceRight<Type>(
            (inner, w, i) => {
              const wrapped = w.wrap(inner);
              return i === named ? t.object({ inner: wrapped }, { name: 'Named' }) : wrapped;
            },
            t.lazy(() => root),
          );
          return root;
        };
        const loop = build(undefined);
        const json = refusal(() => jsonSchema(loop)).message;
        const doc = refusal(() => docOf(loop)).message;
        // The cycle comes back to the outermost container after every step.
        expect(json).to.equal(`jsonSchema(): at ${wraps.map((w) => w.pointer).join('')}: ${RULE}`);
        expect(doc).to.equal(`openApi(): Svc.send's body, at ${wraps.map((w) => w.access).join('')}: ${RULE}`);

        const withName = build(at % wraps.length);
        expect(jsonSchema(withName).$defs).to.have.property('Named');
        expect(docOf(withName).components.schemas).to.have.property('Named');
      }),
      { numRuns: 100 },
    );
  });
});
