// The codec conformance suite: the same rules, results and paths for every codec. Each case
// states its input as a plain tree; `raw` writes that tree in the codec's format the way an
// independent producer would, so inputs no descriptor would write (missing keys, wrong types)
// can be fed to `decode`.
import { expect } from 'chai';
import { t, type Codec, type ErrorCode, type Opts, type Type } from '../../index.ts';
import { readErrorOf } from '../support/read-error.ts';
import { writeErrorOf } from '../support/write-error.ts';

/** A codec under test, and how to write an arbitrary tree (bigints, `Uint8Array`s included) in its format. */
export interface CodecSubject {
  readonly codec: Codec;
  readonly raw: (tree: unknown) => Uint8Array | string;
}

const Book = t.object(
  { id: t.i32(), title: t.string(), author: t.string(), isbn: t.string(), year: t.i32() },
  { name: 'Book' },
);
const BookSearchResponse = t.object({ books: t.array(Book), total_count: t.i32(), has_more: t.bool() });
const BookSearchRequest = t.object({ query: t.string(), limit: t.i32().default(10), offset: t.i32().default(0) });
const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });
const Shelf = t.object({ byGenre: t.map(Book) });
const Profile = t.object({ nick: t.optional(t.string()), motto: t.nullable(t.string()), age: t.u8() });

const Circle = t.object({ kind: t.literal('circle'), r: t.f64() }, { name: 'Circle' });
const Square = t.object({ kind: t.literal('square'), side: t.f64() }, { name: 'Square' });
const Shape = t.variant('kind', [Circle, Square]);
interface Chain {
  v: number;
  next: Chain | null;
}
const Chain: Type<Chain> = t.object({ v: t.i32(), next: t.nullable(t.lazy(() => Chain)) }, { name: 'Chain' });
const Signup = t.object({
  name: t.string({ maxLength: 8, pattern: '^[a-z]+$' }),
  tags: t.array(t.string(), { minItems: 1 }),
  age: t.u8({ minimum: 13 }),
});
const Event = t.object({ at: t.timestamp(), meta: t.unknown() });

const dune = { id: 1, title: 'Dune', author: 'Frank Herbert', isbn: '978-0441013593', year: 1965 };
const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

const without = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
/** `rest` plus an own `__proto__` key holding `value`, the way a parser sees such a key on the wire. */
function protoKey(value: unknown, rest: Record<string, unknown> = {}): Record<string, unknown> {
  const o = { ...rest };
  Object.defineProperty(o, '__proto__', { value, enumerable: true, writable: true, configurable: true });
  return o;
}

/** Reading `tree` fails with this code, at this path (and naming this key). */
interface ErrorCase {
  type: Type;
  tree: unknown;
  opts?: Opts;
  code: ErrorCode;
  path: string;
  key?: string;
}
/** Reading `tree` gives `value`. */
interface ValueCase {
  type: Type;
  tree: unknown;
  opts?: Opts;
  value: unknown;
}

const ON: Opts = { errorOnMissingKeys: true };

const READ_ERRORS: Record<string, ErrorCase> = {
  'a discriminant no member has': {
    type: t.array(Shape),
    tree: [{ kind: 'circle', r: 1 }, { kind: 'triangle' }],
    code: 'type_mismatch',
    path: '/1/kind',
  },
  'a missing discriminant, whatever errorOnMissingKeys says': {
    type: Shape,
    tree: { r: 1 },
    code: 'missing_key',
    path: '/kind',
    key: 'kind',
  },
  'a recursive value nested past maxDepth': {
    type: Chain,
    tree: { v: 1, next: { v: 2, next: { v: 3, next: null } } },
    opts: { maxDepth: 2 },
    code: 'limit_exceeded',
    path: '/next/next',
  },
  'a string over its maxLength': {
    type: Signup,
    tree: { name: 'abcdefghi', tags: ['x'], age: 20 },
    code: 'out_of_range',
    path: '/name',
  },
  'a string not matching its pattern': {
    type: Signup,
    tree: { name: 'Ann', tags: ['x'], age: 20 },
    code: 'invalid_format',
    path: '/name',
  },
  'an array under its minItems, a number under its minimum': {
    type: t.tuple([Signup]),
    tree: [{ name: 'ann', tags: [], age: 20 }],
    code: 'out_of_range',
    path: '/0/tags',
  },
  'a missing key at the root': {
    type: Book,
    tree: without(dune, 'title'),
    opts: ON,
    code: 'missing_key',
    path: '/title',
    key: 'title',
  },
  'a missing key in an array of objects': {
    type: BookSearchResponse,
    opts: ON,
    code: 'missing_key',
    path: '/books/1/isbn',
    key: 'isbn',
    tree: { books: [dune, without({ ...dune, id: 2 }, 'isbn')], total_count: 2, has_more: false },
  },
  'a missing key in a map value': {
    type: Shelf,
    opts: ON,
    code: 'missing_key',
    path: '/byGenre/sci-fi/year',
    key: 'year',
    tree: { byGenre: { classic: dune, 'sci-fi': without(dune, 'year') } },
  },
  'a key with a default is still required when errorOnMissingKeys is on': {
    type: BookSearchRequest,
    tree: { query: 'dune', offset: 0 },
    opts: ON,
    code: 'missing_key',
    path: '/limit',
    key: 'limit',
  },
  "a key without a default under errorOnMissingKeys 'unless-default'": {
    type: BookSearchRequest,
    tree: { limit: 1 },
    opts: { errorOnMissingKeys: 'unless-default' },
    code: 'missing_key',
    path: '/query',
    key: 'query',
  },
  'a key requiresKey requires': {
    type: t.object({ a: t.i32(), _b: t.i32() }, { requiresKey: (k) => !k.startsWith('_') }),
    tree: { _b: 1 },
    opts: ON,
    code: 'missing_key',
    path: '/a',
    key: 'a',
  },
  'a nullable key requiresKey requires': {
    type: t.object({ a: t.nullable(t.i32()) }, { requiresKey: () => true }),
    tree: {},
    opts: ON,
    code: 'missing_key',
    path: '/a',
    key: 'a',
  },
  'an unknown key at the root': {
    type: Book,
    tree: { ...dune, extra: 1 },
    code: 'unknown_key',
    path: '/extra',
    key: 'extra',
  },
  'an unknown key in an array of objects': {
    type: BookSearchResponse,
    code: 'unknown_key',
    path: '/books/1/rating',
    key: 'rating',
    tree: { books: [dune, { ...dune, rating: 5 }], total_count: 2, has_more: false },
  },
  'an unknown key in a map value': {
    type: Shelf,
    tree: { byGenre: { x: { ...dune, extra: [1] } } },
    code: 'unknown_key',
    path: '/byGenre/x/extra',
    key: 'extra',
  },
  'a __proto__ key in a record': {
    type: Book,
    tree: protoKey({ polluted: true }, dune),
    code: 'unknown_key',
    path: '/__proto__',
    key: '__proto__',
  },
  'a string where an integer belongs': {
    type: BookSearchResponse,
    tree: { books: [{ ...dune, year: '1965' }], total_count: 1, has_more: false },
    code: 'type_mismatch',
    path: '/books/0/year',
  },
  'an integer where a string belongs': {
    type: BookSearchResponse,
    tree: { books: [dune, { ...dune, title: 7 }], total_count: 2, has_more: false },
    code: 'type_mismatch',
    path: '/books/1/title',
  },
  'null where a string belongs': {
    type: Book,
    tree: { ...dune, author: null },
    code: 'type_mismatch',
    path: '/author',
  },
  'an array where a record belongs': { type: Book, tree: [1, 2], code: 'type_mismatch', path: '' },
  'a record where an array belongs': {
    type: BookSearchResponse,
    tree: { books: { 0: dune }, total_count: 1, has_more: false },
    code: 'type_mismatch',
    path: '/books',
  },
  'a number where a boolean belongs': {
    type: BookSearchResponse,
    tree: { books: [], total_count: 0, has_more: 0 },
    code: 'type_mismatch',
    path: '/has_more',
  },
  'a fraction in an integer field': {
    type: t.object({ n: t.i32() }),
    tree: { n: 1.5 },
    code: 'type_mismatch',
    path: '/n',
  },
  'a number where bytes belong': {
    type: t.object({ data: t.bytes() }),
    tree: { data: 5 },
    code: 'type_mismatch',
    path: '/data',
  },
  'text that is not bytes': {
    type: t.object({ data: t.bytes() }),
    tree: { data: 'not bytes!' },
    code: 'type_mismatch',
    path: '/data',
  },
  'a value outside an enum': {
    type: t.map(t.enum(['a', 'b'])),
    tree: { x: 'a', y: 'c' },
    code: 'type_mismatch',
    path: '/y',
  },
  'a value other than the literal': {
    type: t.tuple([t.literal('v1'), t.i32()]),
    tree: ['v2', 1],
    code: 'type_mismatch',
    path: '/0',
  },
  'a tuple of the wrong length': {
    type: t.object({ p: t.tuple([t.i32(), t.i32()]) }),
    tree: { p: [1, 2, 3] },
    code: 'type_mismatch',
    path: '/p',
  },
  'a bad map value under a key that needs escaping': {
    type: t.object({ m: t.map(t.i32()) }),
    tree: { m: { 'a/b~c': 'x' } },
    code: 'type_mismatch',
    path: '/m/a~1b~0c',
  },
  'u8 past its maximum': { type: t.array(t.u8()), tree: [1, 300], code: 'out_of_range', path: '/1' },
  'i8 past its minimum': { type: t.object({ n: t.i8() }), tree: { n: -129 }, code: 'out_of_range', path: '/n' },
  'u32 at 2^32': { type: t.object({ n: t.u32() }), tree: { n: 2 ** 32 }, code: 'out_of_range', path: '/n' },
  'i32 past its minimum': {
    type: t.object({ n: t.i32() }),
    tree: { n: -(2 ** 31) - 1 },
    code: 'out_of_range',
    path: '/n',
  },
  'u64 below zero': { type: User, tree: { id: -1, name: 'a', weight: 1 }, code: 'out_of_range', path: '/id' },
  'i64 at 2^63': { type: t.object({ n: t.i64() }), tree: { n: 2n ** 63n }, code: 'out_of_range', path: '/n' },
  'an i32 field holding u64 max': {
    type: t.object({ n: t.i32() }),
    tree: { n: U64_MAX },
    code: 'out_of_range',
    path: '/n',
  },
  'f32 beyond float32 range': {
    type: User,
    tree: { id: 1, name: 'a', weight: 1e39 },
    code: 'out_of_range',
    path: '/weight',
  },
  'f32 at 2^128 − 2^103, where float32 rounds to infinity': {
    type: t.array(t.f32()),
    tree: [1, -(2 ** 128 - 2 ** 103)],
    code: 'out_of_range',
    path: '/1',
  },
  'nesting deeper than maxDepth': {
    type: t.array(t.array(t.array(t.i32()))),
    tree: [[[1]], [[2]]],
    opts: { maxDepth: 2 },
    code: 'limit_exceeded',
    path: '/0/0',
  },
};

const READ_VALUES: Record<string, ValueCase> = {
  'a variant reads the member its discriminant names': {
    type: t.array(Shape),
    tree: [
      { kind: 'square', side: 2 },
      { r: 1, kind: 'circle' },
    ],
    value: [
      { kind: 'square', side: 2 },
      { kind: 'circle', r: 1 },
    ],
  },
  'a recursive value through t.lazy': {
    type: Chain,
    tree: { v: 1, next: { v: 2, next: null } },
    value: { v: 1, next: { v: 2, next: null } },
  },
  'a timestamp before 1970 with milliseconds, and any value as t.unknown()': {
    type: Event,
    tree: { at: new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 123)), meta: { a: [1, 'x', null, true] } },
    value: { at: new Date(Date.UTC(1969, 11, 31, 23, 59, 59, 123)), meta: { a: [1, 'x', null, true] } },
  },
  'missing keys take their defaults when errorOnMissingKeys is off': {
    type: Book,
    tree: { id: 1 },
    value: { id: 1, title: '', author: '', isbn: '', year: 0 },
  },
  'missing keys deep in arrays take their defaults': {
    type: BookSearchResponse,
    tree: { books: [{ title: 'x' }] },
    value: { books: [{ id: 0, title: 'x', author: '', isbn: '', year: 0 }], total_count: 0, has_more: false },
  },
  'a missing key takes its .default()': {
    type: BookSearchRequest,
    tree: { query: 'dune' },
    value: { query: 'dune', limit: 10, offset: 0 },
  },
  "keys with a default may be absent under errorOnMissingKeys 'unless-default'": {
    type: t.array(BookSearchRequest),
    tree: [{ query: 'dune' }, { query: 'emma', offset: 5 }],
    opts: { errorOnMissingKeys: 'unless-default' },
    value: [
      { query: 'dune', limit: 10, offset: 0 },
      { query: 'emma', limit: 10, offset: 5 },
    ],
  },
  'absent nullable and optional keys are fine with errorOnMissingKeys on': {
    type: Profile,
    tree: { age: 3 },
    opts: ON,
    value: { motto: null, age: 3 },
  },
  'requiresKey can make a non-nullable key optional': {
    type: t.object({ a: t.i32(), _b: t.i32() }, { requiresKey: (k) => !k.startsWith('_') }),
    tree: { a: 1 },
    opts: ON,
    value: { a: 1, _b: 0 },
  },
  'requiresKey is not consulted when errorOnMissingKeys is off': {
    type: t.object({ a: t.i32() }, { requiresKey: () => true }),
    tree: {},
    value: { a: 0 },
  },
  'null is presence for a required optional key': {
    type: t.object({ nick: t.optional(t.string()), age: t.u8() }, { requiresKey: () => true }),
    tree: { nick: null, age: 1 },
    opts: ON,
    value: { age: 1 },
  },
  'unknown keys are dropped when errorOnUnknownKeys is off': {
    type: BookSearchResponse,
    opts: { errorOnUnknownKeys: false },
    tree: { books: [{ ...dune, rating: 5 }], total_count: 1, has_more: false, page: { n: [1, 2] } },
    value: { books: [dune], total_count: 1, has_more: false },
  },
  'a __proto__ key in a map stays an own key': {
    type: t.map(t.i32()),
    tree: protoKey(7, { a: 1 }),
    value: protoKey(7, { a: 1 }),
  },
  'keys named like Object.prototype members read as data': {
    type: t.object({ constructor: t.string(), toString: t.i32() }),
    tree: { constructor: 'c', toString: 2 },
    value: { constructor: 'c', toString: 2 },
  },
  'u64 max, i64 min and i64 max exactly': {
    type: t.object({ u: t.u64(), lo: t.i64(), hi: t.i64() }),
    tree: { u: U64_MAX, lo: I64_MIN, hi: I64_MAX },
    value: { u: U64_MAX, lo: I64_MIN, hi: I64_MAX },
  },
  'numbers just past the largest float32 that round to it': {
    type: t.array(t.f32()),
    tree: [3.4028235e38, -3.4028235e38, 2 ** 128 - 2 ** 103 - 2 ** 75],
    value: [3.4028234663852886e38, -3.4028234663852886e38, 3.4028234663852886e38],
  },
  '2^53 + 1, which a double cannot hold': {
    type: t.array(t.u64()),
    tree: [2n ** 53n + 1n, 0n],
    value: [2n ** 53n + 1n, 0n],
  },
  'small integers in 64-bit fields arrive as bigints': {
    type: t.array(t.i64()),
    tree: [0, -1, 5],
    value: [0n, -1n, 5n],
  },
  'an f32 field rounds to float32': {
    type: User,
    tree: { id: 1, name: 'a', weight: 0.1 },
    value: { id: 1n, name: 'a', weight: Math.fround(0.1) },
  },
  'integral numbers in float fields': { type: t.tuple([t.f32(), t.f64()]), tree: [3, -7], value: [3, -7] },
};

/** Registers the conformance suite for one codec (call inside a `describe`). */
export function codecConformance({ codec, raw }: CodecSubject): void {
  const roundTrip = (type: Type, value: unknown, opts?: Opts) =>
    codec.decode(type, codec.encode(type, value, opts), opts);

  describe('reading fails with the same code and path', () => {
    for (const [name, c] of Object.entries(READ_ERRORS)) {
      it(name, () => {
        const e = readErrorOf(() => codec.decode(c.type, raw(c.tree), c.opts));
        expect({ code: e.code, path: e.path }).to.deep.equal({ code: c.code, path: c.path });
        if (c.key !== undefined) expect(e.key).to.equal(c.key);
        expect(e.message).to.be.a('string').and.not.equal('');
      });
    }

    it('lists every error at once, the first being the error itself', () => {
      const e = readErrorOf(() =>
        codec.decode(
          t.array(Signup),
          raw([
            { name: 'Ann', tags: [], age: 20 },
            { name: 'bob', tags: ['x'], age: 3 },
          ]),
        ),
      );
      expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([
        ['invalid_format', '/0/name'],
        ['out_of_range', '/0/tags'],
        ['out_of_range', '/1/age'],
      ]);
      expect(e.errors[0]).to.deep.include({ code: e.code, path: e.path, message: e.message });
    });

    it('names the missing key and where it is missing in the message', () => {
      const e = readErrorOf(() =>
        codec.decode(
          BookSearchResponse,
          raw({ books: [dune, without(dune, 'isbn')], total_count: 2, has_more: false }),
          ON,
        ),
      );
      expect(e.message).to.equal("missing required key 'isbn' at /books/1");
    });
  });

  describe('reading gives the same values', () => {
    for (const [name, c] of Object.entries(READ_VALUES)) {
      it(name, () => {
        expect(codec.decode(c.type, raw(c.tree), c.opts)).to.deep.equal(c.value);
      });
    }

    it('never sets a prototype from a __proto__ key', () => {
      const map = codec.decode(t.map(t.map(t.i32())), raw({ a: protoKey(5) })) as Record<
        string,
        Record<string, number>
      >;
      expect(Object.getPrototypeOf(map.a)).to.equal(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(map.a, '__proto__')?.value).to.equal(5);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      const record = codec.decode(t.object({ a: t.i32() }), raw(protoKey({ polluted: 1 }, { a: 1 })), {
        errorOnUnknownKeys: false,
      });
      expect(Object.getPrototypeOf(record)).to.equal(Object.prototype);
      expect(Object.keys(record)).to.deep.equal(['a']);
    });

    it('gives declared keys only, in declared order', () => {
      const value = codec.decode(Book, raw({ year: 1965, title: 'Dune', isbn: '1', author: 'F', id: 1, x: 2 }), {
        errorOnUnknownKeys: false,
      });
      expect(Object.keys(value)).to.deep.equal(['id', 'title', 'author', 'isbn', 'year']);
    });
  });

  describe('round trips', () => {
    const Everything = t.object({
      s: t.string(),
      b: t.bool(),
      i8: t.i8(),
      i16: t.i16(),
      i32: t.i32(),
      u8: t.u8(),
      u16: t.u16(),
      u32: t.u32(),
      i64: t.i64(),
      u64: t.u64(),
      f32: t.f32(),
      f64: t.f64(),
      bytes: t.bytes(),
      list: t.array(t.nullable(t.i32())),
      map: t.map(t.string()),
      pair: t.tuple([t.string(), t.u64()]),
      lit: t.literal(1.5),
      kind: t.enum(['a', 2]),
      opt: t.optional(t.string()),
      gone: t.optional(t.i32()),
      nul: t.nullable(t.bool()),
      nested: t.array(t.object({ x: t.f64() })),
    });
    const everything = {
      s: 'héllo 😀 \u0000 "\\',
      b: true,
      i8: -128,
      i16: 32767,
      i32: -2147483648,
      u8: 255,
      u16: 65535,
      u32: 4294967295,
      i64: I64_MIN,
      u64: U64_MAX,
      f32: Math.fround(3.4e38),
      f64: -Number.MAX_VALUE,
      bytes: new Uint8Array([0, 1, 254, 255]),
      list: [1, null, -1],
      map: protoKey('p', { '': 'empty', 'a/b': 'slash' }),
      pair: ['x', 2n ** 53n + 1n],
      lit: 1.5,
      kind: 2,
      opt: '',
      nul: null,
      nested: [{ x: 5e-324 }, { x: 0.5 }],
    };

    it('round-trips every descriptor kind', () => {
      expect(roundTrip(Everything, everything)).to.deep.equal(everything);
    });

    it('round-trips the extremes of every integer kind', () => {
      const Ints = t.tuple([
        t.i8(),
        t.i8(),
        t.i16(),
        t.i16(),
        t.i32(),
        t.i32(),
        t.u8(),
        t.u16(),
        t.u32(),
        t.i64(),
        t.i64(),
        t.u64(),
        t.u64(),
      ]);
      const v = [
        -128,
        127,
        -32768,
        32767,
        -2147483648,
        2147483647,
        255,
        65535,
        4294967295,
        I64_MIN,
        I64_MAX,
        0n,
        U64_MAX,
      ];
      expect(roundTrip(Ints, v)).to.deep.equal(v);
    });

    it('round-trips 64-bit values around 2^32 and 2^53', () => {
      const v = [
        2n ** 32n - 1n,
        2n ** 32n,
        -(2n ** 31n) - 1n,
        2n ** 53n - 1n,
        2n ** 53n,
        -(2n ** 53n) - 1n,
        2n ** 63n - 1n,
        -(2n ** 63n) + 1n,
      ];
      expect(roundTrip(t.array(t.i64()), v)).to.deep.equal(v);
    });

    it('accepts safe-integer numbers for 64-bit fields and reads them back as bigints', () => {
      expect(roundTrip(t.tuple([t.u64(), t.i64()]), [2 ** 53 - 1, -(2 ** 53 - 1)])).to.deep.equal([
        2n ** 53n - 1n,
        -(2n ** 53n - 1n),
      ]);
    });

    it('writes f32 values as the float32 nearest to them', () => {
      expect(roundTrip(User, { id: 7n, name: 'Ann', weight: 0.1 })).to.deep.equal({
        id: 7n,
        name: 'Ann',
        weight: Math.fround(0.1),
      });
    });

    it('round-trips the records of the specification', () => {
      const response = {
        books: [dune, { ...dune, id: 2, title: 'Children of Dune', year: 1976 }],
        total_count: 2,
        has_more: true,
      };
      expect(roundTrip(BookSearchResponse, response)).to.deep.equal(response);
    });

    it('never writes undeclared properties', () => {
      const written = codec.encode(User, { id: 1n, name: 'a', weight: 1, password: 'hunter2' } as never);
      const Wider = t.object({ id: t.u64(), name: t.string(), weight: t.f32(), password: t.optional(t.string()) });
      expect(codec.decode(Wider, written)).to.deep.equal({ id: 1n, name: 'a', weight: 1 });
    });

    it('leaves undefined optional members out and writes null ones', () => {
      const written = codec.encode(Profile, { nick: undefined, motto: null, age: 1 });
      const back = codec.decode(Profile, written, ON) as Record<string, unknown>;
      expect(back).to.deep.equal({ motto: null, age: 1 });
      expect('nick' in back).to.equal(false);
      const AllRequired = t.object(
        { nick: t.optional(t.string()), motto: t.nullable(t.string()), age: t.u8() },
        { requiresKey: () => true },
      );
      expect(readErrorOf(() => codec.decode(AllRequired, written, ON)).path).to.equal('/nick');
    });

    it('skips map entries whose value is undefined', () => {
      expect(roundTrip(t.map(t.i32()), { a: 1, b: undefined })).to.deep.equal({ a: 1 });
    });

    it('round-trips void', () => {
      expect(roundTrip(t.void(), undefined)).to.equal(undefined);
    });
  });

  describe('writing fails with the same code and path', () => {
    const cases: [string, Type, unknown, ErrorCode, string][] = [
      [
        'a string in an integer field',
        BookSearchResponse,
        { books: [{ ...dune, year: '1965' }], total_count: 1, has_more: false },
        'type_mismatch',
        '/books/0/year',
      ],
      [
        'a missing member',
        BookSearchResponse,
        { books: [dune, without(dune, 'title')], total_count: 2, has_more: false },
        'missing_key',
        '/books/1/title',
      ],
      ['u8 past its maximum', t.map(t.u8()), { a: 256 }, 'out_of_range', '/a'],
      ['u64 past its maximum', User, { id: U64_MAX + 1n, name: '', weight: 0 }, 'out_of_range', '/id'],
      ['a fraction in a 64-bit field', t.array(t.i64()), [1.5], 'type_mismatch', '/0'],
      ['an unsafe number in a 64-bit field', t.array(t.i64()), [2 ** 60], 'type_mismatch', '/0'],
      ['NaN in an f64 field', t.object({ x: t.f64() }), { x: NaN }, 'out_of_range', '/x'],
      ['Infinity in an f32 field', User, { id: 1n, name: '', weight: Infinity }, 'out_of_range', '/weight'],
      ['a value outside an enum', t.tuple([t.enum(['a'])]), ['b'], 'type_mismatch', '/0'],
      ['a tuple of the wrong length', t.tuple([t.i32()]), [1, 2], 'type_mismatch', ''],
      ['a string for bytes', t.object({ b: t.bytes() }), { b: 'AA==' }, 'type_mismatch', '/b'],
      ['null for a non-nullable member', Book, { ...dune, isbn: null }, 'type_mismatch', '/isbn'],
    ];
    for (const [name, type, value, code, path] of cases) {
      it(name, () => {
        const e = writeErrorOf(() => codec.encode(type, value as never));
        expect({ code: e.code, path: e.path }).to.deep.equal({ code, path });
      });
    }
  });
}
