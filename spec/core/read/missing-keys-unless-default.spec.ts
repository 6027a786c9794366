// `errorOnMissingKeys: 'unless-default'`: a key whose member has a `.default()` may be left out and
// reads as its default, every other key is required as under `true`; for every codec, and for the
// `required` lists of JSON Schema.
import { expect } from 'chai';
import fc from 'fast-check';
import { jsonSchema, standardSchema, t, type Codec, type Opts, type Type } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { arbTyped, arbValueOf } from '../../support/arbitraries.ts';

const unlessDefault: Opts = { errorOnMissingKeys: 'unless-default' };

const Search = t.object({
  query: t.string(),
  limit: t.i32().default(10),
  sort: t.enum(['asc', 'desc']).default('desc'),
  filter: t.nullable(t.string()),
});
const Page = t.object({ cursor: t.string(), size: t.u16().default(20) });
const Listing = t.object({
  page: Page,
  items: t.array(t.object({ name: t.string(), tags: t.array(t.string()).default(['new']) })),
});

/** What a producer that leaves keys out sends: `value` written by a descriptor of exactly its keys. */
function input(codec: Codec, value: Record<string, unknown>): string | Uint8Array {
  return codec.encode(t.unknown(), value as never);
}

/** The value read, or the error's code and path. */
function outcome(read: () => unknown): unknown {
  try {
    return { value: read() };
  } catch {
    const e = readErrorOf(read);
    return { code: e.code, path: e.path };
  }
}

for (const codec of [json, msgpack, cbor] as const) {
  describe(`core/read: errorOnMissingKeys 'unless-default' (${codec.name})`, () => {
    const decode = (type: Type, value: Record<string, unknown>, opts: Opts = unlessDefault) =>
      codec.decode(type, input(codec, value), opts);
    const failure = (type: Type, value: Record<string, unknown>, opts: Opts = unlessDefault) => {
      const e = readErrorOf(() => decode(type, value, opts));
      return [e.code, e.path, e.key];
    };

    it('lets a key with a .default() be left out; it reads as its default', () => {
      expect(decode(Search, { query: 'dune', filter: null })).to.deep.equal({
        query: 'dune',
        limit: 10,
        sort: 'desc',
        filter: null,
      });
      expect(decode(Search, { query: 'dune', limit: 3, sort: 'asc' })).to.deep.equal({
        query: 'dune',
        limit: 3,
        sort: 'asc',
        filter: null,
      });
    });

    it('still requires a key without a default: missing_key at its JSON Pointer', () => {
      expect(failure(Search, { limit: 1 })).to.deep.equal(['missing_key', '/query', 'query']);
    });

    it('leaves nullable and optional keys without a default as optional as under true', () => {
      const T = t.object({ id: t.i32(), nick: t.optional(t.string()), email: t.nullable(t.string()) });
      expect(decode(T, { id: 1 })).to.deep.equal({ id: 1, email: null });
    });

    it('applies at every depth: nested objects and arrays of objects', () => {
      expect(decode(Listing, { page: { cursor: 'c' }, items: [{ name: 'a' }, { name: 'b', tags: [] }] })).to.deep.equal(
        {
          page: { cursor: 'c', size: 20 },
          items: [
            { name: 'a', tags: ['new'] },
            { name: 'b', tags: [] },
          ],
        },
      );
      expect(failure(Listing, { page: { size: 1 }, items: [] })).to.deep.equal([
        'missing_key',
        '/page/cursor',
        'cursor',
      ]);
      expect(failure(Listing, { page: { cursor: 'c' }, items: [{ name: 'a' }, { tags: [] }] })).to.deep.equal([
        'missing_key',
        '/items/1/name',
        'name',
      ]);
    });

    it('gives each read a fresh copy of an object default', () => {
      const first = decode(Listing, { page: { cursor: 'c' }, items: [{ name: 'a' }] }) as {
        items: { tags: string[] }[];
      };
      first.items[0]!.tags.push('x');
      expect(decode(Listing, { page: { cursor: 'c' }, items: [{ name: 'a' }] })).to.deep.equal({
        page: { cursor: 'c', size: 20 },
        items: [{ name: 'a', tags: ['new'] }],
      });
    });

    it('makes t.optional(T).default(x) optional; an absent key reads as x', () => {
      const T = t.object({ id: t.i32(), note: t.optional(t.string()).default('none') }, { requiresKey: () => true });
      expect(decode(T, { id: 1 })).to.deep.equal({ id: 1, note: 'none' });
      expect(failure(T, { id: 1 }, { errorOnMissingKeys: true })).to.deep.equal(['missing_key', '/note', 'note']);
    });

    it('takes t.optional(T).default(undefined) as t.optional(T): no default, so requiresKey decides', () => {
      const T = t.object({ id: t.i32(), note: t.optional(t.string()).default(undefined) }, { requiresKey: () => true });
      expect(failure(T, { id: 1 })).to.deep.equal(['missing_key', '/note', 'note']);
      expect(decode(t.object({ note: t.optional(t.string()).default(undefined) }), {})).to.deep.equal({});
    });

    it("counts a default behind t.lazy as the member's default", () => {
      const T = t.object({ id: t.i32(), n: t.lazy(() => t.i32().default(5)) });
      expect(decode(T, { id: 1 })).to.deep.equal({ id: 1, n: 5 });
      expect(failure(T, { id: 1 }, { errorOnMissingKeys: true })).to.deep.equal(['missing_key', '/n', 'n']);
    });

    it('makes a key with a default optional whatever requiresKey says; the other keys follow requiresKey', () => {
      const T = t.object(
        { a: t.i32().default(1), b: t.nullable(t.i32()), c: t.i32() },
        { requiresKey: (key) => key !== 'c' },
      );
      expect(decode(T, { b: null })).to.deep.equal({ a: 1, b: null, c: 0 });
      expect(failure(T, { a: 2 })).to.deep.equal(['missing_key', '/b', 'b']);
    });

    it('still requires a key whose default breaks its own constraints, as under every setting', () => {
      const T = t.object({ name: t.string({ minLength: 2 }).default('x'), n: t.i32().default(0) });
      expect(failure(T, { n: 1 })).to.deep.equal(['missing_key', '/name', 'name']);
    });

    it('reads an absent member with a default as that default, and requires the others, for any descriptor (property)', () => {
      // A member of any descriptor with a default of its own values, beside a required one, in an array.
      const arbCase = arbTyped.chain(({ type, value }) =>
        arbValueOf(type).map((fallback) => ({ type, value, fallback })),
      );
      const Other = t.object({ n: t.i32() });
      fc.assert(
        fc.property(arbCase, ({ type, value, fallback }) => {
          const T = t.array(t.object({ x: type.default(fallback as never), n: t.i32() }));
          const absent = fallback === undefined && (type.kind === 'optional' || type.kind === 'unknown');
          expect(codec.decode(T, codec.encode(t.array(Other), [{ n: 1 }]), unlessDefault)).to.deep.equal([
            absent ? { n: 1 } : { x: fallback, n: 1 },
          ]);
          const present = codec.encode(T, [{ x: value as never, n: 2 }]);
          // Every key present (the writer writes an absent member's default): as under true.
          expect(outcome(() => codec.decode(T, present, unlessDefault))).to.deep.equal(
            outcome(() => codec.decode(T, present, { errorOnMissingKeys: true })),
          );
          const e = readErrorOf(() =>
            codec.decode(T, codec.encode(t.array(t.object({ x: type })), [{ x: value as never }]), unlessDefault),
          );
          // The value may fail too (a requiresKey rule inside it): `n` is among the errors.
          expect(e.errors.map((x) => [x.code, x.path])).to.deep.include(['missing_key', '/0/n']);
        }),
        { numRuns: 150 },
      );
    });

    it('is a setting of its own: true still requires a defaulted key and false requires none, for the same descriptor', () => {
      const value = { limit: 1 };
      for (let round = 0; round < 2; round++) {
        expect(failure(Search, { query: 'q' }, { errorOnMissingKeys: true })).to.deep.equal([
          'missing_key',
          '/limit',
          'limit',
        ]);
        expect(failure(Search, value)).to.deep.equal(['missing_key', '/query', 'query']);
        expect(decode(Search, { query: 'q' })).to.deep.equal({ query: 'q', limit: 10, sort: 'desc', filter: null });
        expect(decode(Search, value, { errorOnMissingKeys: false })).to.deep.equal({
          query: '',
          limit: 1,
          sort: 'desc',
          filter: null,
        });
      }
    });
  });
}

describe("core/read: errorOnMissingKeys 'unless-default' in JSON Schema and Standard Schema", () => {
  it('lists exactly the keys without a default as required, at every depth', () => {
    const schema = jsonSchema(Listing, unlessDefault) as {
      required: string[];
      properties: Record<string, { required?: string[]; items?: { required: string[] } }>;
    };
    expect(schema.required).to.deep.equal(['page', 'items']);
    expect(schema.properties.page!.required).to.deep.equal(['cursor']);
    expect(schema.properties.items!.items!.required).to.deep.equal(['name']);
    expect(jsonSchema(Search, unlessDefault).required).to.deep.equal(['query']);
    expect(jsonSchema(Search, { errorOnMissingKeys: true }).required).to.deep.equal(['query', 'limit', 'sort']);
  });

  it('validates plain values by the same rule', () => {
    const schema = standardSchema(Search, unlessDefault);
    expect(schema['~standard'].validate({ query: 'q' })).to.deep.equal({
      value: { query: 'q', limit: 10, sort: 'desc', filter: null },
    });
    const result = schema['~standard'].validate({ limit: 2 }) as unknown as { issues: { path: unknown[] }[] };
    expect(result.issues.map((i) => i.path)).to.deep.equal([['query']]);
  });
});
