// The direct readers (bytes to value in one pass) are a fast path: for every input they either
// give up or give exactly what the parser plus the shared read pass give.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, type Type } from '../../core/index.ts';
import { resolveReadOptions } from '../../core/options.ts';
import { readTree } from '../../core/read/read.ts';
import { DirectCursor, compileDirectReader, type ReadWire } from '../../codecs/binary/direct-reader.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { parseCbor } from '../../codecs/cbor/decode.ts';
import { cborReadWire } from '../../codecs/cbor/read-wire.ts';
import { cborWire } from '../../codecs/cbor/wire.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { parseMsgpack } from '../../codecs/msgpack/decode.ts';
import { msgpackReadWire } from '../../codecs/msgpack/read-wire.ts';
import { msgpackWire } from '../../codecs/msgpack/wire.ts';
import { arbTyped } from '../support/arbitraries.ts';

const FORMATS = [
  { name: 'msgpack', codec: msgpack, wire: msgpackReadWire, encodeKey: (k: string) => msgpackWire.encodeKey(k), parse: parseMsgpack },
  { name: 'cbor', codec: cbor, wire: cborReadWire, encodeKey: (k: string) => cborWire.encodeKey(k), parse: parseCbor },
];

const GAVE_UP = Symbol('gave up');

function direct(type: Type, bytes: Uint8Array, wire: ReadWire, encodeKey: (k: string) => Uint8Array, errorOnMissingKeys: boolean): unknown {
  const read = compileDirectReader(type, { ...resolveReadOptions({ errorOnMissingKeys }), source: 'binary' }, wire, encodeKey);
  try {
    const cursor = new DirectCursor(bytes);
    const value = read(cursor);
    return cursor.pos === cursor.end ? value : GAVE_UP;
  } catch {
    return GAVE_UP;
  }
}

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() });
const Book = t.object({ id: t.i32(), title: t.string(), author: t.string(), isbn: t.string(), year: t.i32() });
const BookSearchResponse = t.object({ books: t.array(Book), total_count: t.i32(), has_more: t.bool() });

for (const f of FORMATS) {
  describe(`codecs/${f.name}: the direct reader`, () => {
    it('gives up or agrees with the parser and the shared read pass, for every descriptor and value', () => {
      fc.assert(
        fc.property(arbTyped, fc.boolean(), ({ type, value }, strict) => {
          const bytes = f.codec.encode(type, value as never);
          const fast = direct(type, bytes, f.wire, f.encodeKey, strict);
          if (fast !== GAVE_UP) expect(fast).to.deep.equal(readTree(type, f.parse(bytes, 64), { errorOnMissingKeys: strict }, 'binary'));
        }),
        { numRuns: 300 },
      );
    });

    it("reads the seed's records without giving up", () => {
      const user = { id: 2n ** 64n - 1n, name: 'Ann', weight: 0.5 };
      expect(direct(User, f.codec.encode(User, user), f.wire, f.encodeKey, true)).to.deep.equal(user);
      const response = { books: [{ id: 1, title: 'Dune', author: 'Frank Herbert', isbn: '978-0', year: 1965 }], total_count: 1, has_more: false };
      expect(direct(BookSearchResponse, f.codec.encode(BookSearchResponse, response), f.wire, f.encodeKey, true)).to.deep.equal(response);
    });

    it('gives up on a missing required key, an unknown key, another key order and trailing bytes', () => {
      const Pair = t.object({ a: t.i32(), b: t.i32() });
      const encode = (value: Record<string, number>) => f.codec.encode(t.map(t.i32()), value);
      expect(direct(Pair, encode({ a: 1 }), f.wire, f.encodeKey, true)).to.equal(GAVE_UP);
      expect(direct(Pair, encode({ a: 1, b: 2, c: 3 }), f.wire, f.encodeKey, false)).to.equal(GAVE_UP);
      expect(direct(Pair, encode({ b: 2, a: 1 }), f.wire, f.encodeKey, false)).to.equal(GAVE_UP);
      const bytes = encode({ a: 1, b: 2 });
      expect(direct(Pair, Uint8Array.of(...bytes, 0), f.wire, f.encodeKey, false)).to.equal(GAVE_UP);
      expect(direct(Pair, bytes, f.wire, f.encodeKey, false)).to.deep.equal({ a: 1, b: 2 });
    });
  });
}
