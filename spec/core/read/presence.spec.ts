// Presence is presence: an optional member whose descriptor holds null (t.optional(t.nullable(T)),
// and t.nullable(t.optional(T)), which is the same descriptor) reads a null that is present as
// null and an absent key as absent, in every codec and on every path; writers write the null back
// and skip undefined. A PATCH can thus clear a field (null) or leave it alone (absent).
import { expect } from 'chai';
import { jsonSchema, t, type Infer, type InferInput, type Type } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { closureOutcome, generatedOutcome } from '../../support/read-outcome.ts';

const forms: readonly (readonly [string, (inner: Type) => Type])[] = [
  ['t.optional(t.nullable(T))', (inner) => t.optional(t.nullable(inner))],
  ['t.nullable(t.optional(T))', (inner) => t.nullable(t.optional(inner))],
];
const CODECS = [json, msgpack, cbor] as const;
/** `value` as each codec's bytes or text, written as a plain value. */
const wire = (value: unknown) => ({
  json: JSON.stringify(value),
  msgpack: msgpack.encode(t.unknown(), value),
  cbor: cbor.encode(t.unknown(), value),
});

for (const [name, form] of forms) {
  describe(`core/read: presence of ${name}`, () => {
    // Members of several kinds: direct readers, tree readers and 64-bit members each take their own path.
    const Patch = t.object({
      id: t.u32(),
      assignee: form(t.string()),
      due: form(t.u64()),
      labels: form(t.array(t.string())),
      parent: form(t.object({ id: t.u32() })),
    });

    it('reads null present as null, absent as absent, a value as itself, in every codec', () => {
      const cases: readonly (readonly [unknown, Record<string, unknown>])[] = [
        [
          { id: 1, assignee: null, due: null, labels: null, parent: null },
          { id: 1, assignee: null, due: null, labels: null, parent: null },
        ],
        [{ id: 1 }, { id: 1 }],
        [
          { id: 1, assignee: 'ada', due: 7, labels: ['x'], parent: { id: 2 } },
          { id: 1, assignee: 'ada', due: 7n, labels: ['x'], parent: { id: 2 } },
        ],
        [
          { id: 1, due: null },
          { id: 1, due: null },
        ],
      ];
      for (const [input, expected] of cases) {
        const bytes = wire(input);
        for (const codec of CODECS) {
          const read = codec.decode(Patch, bytes[codec.name as keyof typeof bytes]) as Record<string, unknown>;
          expect(read, `${codec.name} ${JSON.stringify(input)}`).to.deep.equal(expected);
          expect(Object.keys(read), codec.name).to.deep.equal(Object.keys(expected));
        }
      }
    });

    it('reads the same on the generated and the closure paths of the read pass', () => {
      for (const tree of [{ id: 1, assignee: null }, { id: 1 }, { id: 1, assignee: 'x', labels: null }]) {
        for (const source of ['json', 'binary'] as const) {
          const generated = generatedOutcome(Patch, tree, undefined, source);
          expect(generated, source).to.deep.equal({ value: tree });
          expect(closureOutcome(Patch, tree, undefined, source), source).to.deep.equal(generated);
        }
      }
      // Elements and map values too: null stays null.
      const List = t.array(form(t.string()));
      expect(json.decode(List, '[null,"a"]')).to.deep.equal([null, 'a']);
      expect(json.decode(t.map(form(t.string())), '{"k":null}')).to.deep.equal({ k: null });
    });

    it('writes null back and skips an undefined or absent member, in every codec', () => {
      expect(json.encode(Patch, { id: 1, assignee: null } as never)).to.equal('{"id":1,"assignee":null}');
      expect(json.encode(Patch, { id: 1, assignee: undefined } as never)).to.equal('{"id":1}');
      expect(json.encode(Patch, { id: 1 } as never)).to.equal('{"id":1}');
      for (const codec of [msgpack, cbor]) {
        expect(codec.decode(t.unknown(), codec.encode(Patch, { id: 1, assignee: null } as never))).to.deep.equal({
          id: 1,
          assignee: null,
        });
        expect(codec.decode(t.unknown(), codec.encode(Patch, { id: 1, assignee: undefined } as never))).to.deep.equal({
          id: 1,
        });
      }
      for (const codec of CODECS) {
        const value = { id: 1, assignee: null, due: 5n };
        expect(codec.decode(Patch, codec.encode(Patch, value as never))).to.deep.equal(value);
      }
    });

    it('is required by no option and allows null in JSON Schema, as reading does', () => {
      const schema = jsonSchema(t.object({ a: form(t.string()) }), { errorOnMissingKeys: true }) as {
        required?: string[];
        properties: { a: unknown };
      };
      expect(schema.required ?? []).to.deep.equal([]);
      expect(json.decode(t.object({ a: form(t.string()) }), '{}', { errorOnMissingKeys: true })).to.deep.equal({});
      expect(JSON.stringify(schema.properties.a)).to.include('"null"');
    });
  });
}

describe('core/read: the static types of an optional value that holds null', () => {
  it('let the key be absent, undefined or null, both ways round', () => {
    const A = t.object({ a: t.optional(t.nullable(t.string())), b: t.nullable(t.optional(t.string())) });
    const absent: InferInput<typeof A> = {};
    const cleared: Infer<typeof A> = { a: null, b: null };
    const left: Infer<typeof A> = { a: undefined, b: undefined };
    expect(json.encode(A, absent) + json.encode(A, cleared) + json.encode(A, left)).to.equal('{}{"a":null,"b":null}{}');
  });
});

describe('core/read: presence of other optional values that hold null', () => {
  it('t.optional(t.unknown()) and t.optional(t.literal(null)) read a null present as null', () => {
    for (const type of [t.optional(t.unknown()), t.optional(t.literal(null))]) {
      const O = t.object({ a: type });
      for (const codec of CODECS) {
        const bytes = wire({ a: null });
        expect(codec.decode(O, bytes[codec.name as keyof typeof bytes]), codec.name).to.deep.equal({ a: null });
        expect(codec.decode(O, wire({})[codec.name as keyof typeof bytes]), codec.name).to.deep.equal({});
      }
    }
  });

  it('t.optional(T) of a T without null still reads a null as absent', () => {
    const O = t.object({ a: t.optional(t.string()) });
    for (const codec of CODECS) expect(codec.decode(O, wire({ a: null })[codec.name as 'json'])).to.deep.equal({});
  });
});
