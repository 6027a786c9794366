// `maxItems` is one budget whatever path a decode takes: the generated direct readers, the tree
// parsers and the read pass spend it alike, and a pass that reads the tree again starts it over.
import { expect } from 'chai';
import { t, type Codec, type Type } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { readErrorOf } from '../support/read-error.ts';

const Entry = t.object({ id: t.u64(), n: t.u8() });

/** The ReadError code of a decode, or `value`. */
function outcome(codec: Codec, type: Type, input: Uint8Array | string, maxItems: number): string {
  try {
    codec.decode(type, input, { maxItems });
    return 'value';
  } catch {
    return readErrorOf(() => codec.decode(type, input, { maxItems })).code;
  }
}

describe('codecs: the maxItems budget on every path', () => {
  const entries = Array.from({ length: 100 }, (_, i) => ({ id: BigInt(i), n: i }));

  for (const codec of [json, msgpack, cbor]) {
    it(`${codec.name}: the direct reader refuses what the general path refuses (100 records, maxItems 10 and 1,000)`, () => {
      const compact = codec.encode(t.array(Entry), entries);
      expect(outcome(codec, t.array(Entry), compact, 10)).to.equal('limit_exceeded');
      expect(outcome(codec, t.array(Entry), compact, 1000)).to.equal('value');
    });
  }

  it("json: the default limit holds for a descriptor with 64-bit members (the direct reader's)", () => {
    const text = `[${'[],'.repeat(300_000)}[]]`;
    expect(readErrorOf(() => json.decode(t.array(t.array(t.u64())), text)).code).to.equal('limit_exceeded');
    expect(readErrorOf(() => json.decode(t.array(t.array(t.u64())), text.replace('[[', '[ ['))).code).to.equal(
      'limit_exceeded',
    );
  });

  it('json: byte strings are counted once when the tree is read again (exact numbers, a bail of the generated reader)', () => {
    const T = t.object({ data: t.array(t.bytes()), id: t.u64(), m: t.map(t.i32()) });
    const data = Array.from({ length: 20 }, () => '"AQ=="').join(',');
    // 20 byte strings are 80 items: within 100, however many passes the read takes.
    for (const rest of ['"id":5,"m":{}', '"id":1152921504606846976,"m":{}', '"id":5,"m":{"__proto__":1}']) {
      const text = `{"data":[${data}],${rest}}`;
      expect(json.decode(T, text, { maxItems: 100 }).data).to.have.length(20);
      expect(readErrorOf(() => json.decode(T, text, { maxItems: 79 })).code).to.equal('limit_exceeded');
    }
  });

  for (const codec of [msgpack, cbor]) {
    it(`${codec.name}: long arrays spend the same on the direct path and the tree path, whatever the key order`, () => {
      const T = t.object({ a: t.array(t.array(t.u8())), b: t.u8() });
      const long = Array.from({ length: 1025 }, () => 1);
      const value = { a: Array.from({ length: 40 }, () => long), b: 1 };
      const inOrder = codec.encode(T, value);
      const reordered = codec.encode(t.object({ b: t.u8(), a: t.array(t.array(t.u8())) }), value);
      // 40 arrays longer than 1,024 count 3 each: 122 items with the outer array and the object.
      for (const bytes of [inOrder, reordered]) {
        expect(outcome(codec, T, bytes, 121)).to.equal('limit_exceeded');
        expect(outcome(codec, T, bytes, 122)).to.equal('value');
      }
    });
  }
});
