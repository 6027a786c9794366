// Writers read each value of the input once. A getter or a Proxy may answer differently the next
// time; a binary writer that counted entries on one read and wrote them on another would write a
// map header that does not match its entries. (closure-path.spec.ts reruns this without code
// generation, where objects with optional members take the closure writer too.)
import { expect } from 'chai';
import { Decoder } from 'cbor';
import { unpack } from 'msgpackr';
import { t } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

/** `values` behind a Proxy whose every member is there on its first read only; counts the reads. */
function vanishing(values: Record<string, unknown>): { proxy: Record<string, unknown>; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const proxy = new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key !== 'string') return Reflect.get(target, key, receiver);
      const n = (reads.get(key) ?? 0) + 1;
      reads.set(key, n);
      return n === 1 ? target[key] : undefined;
    },
  });
  return { proxy, reads };
}

const independent: Record<string, (bytes: Uint8Array) => unknown> = {
  msgpack: (bytes) => unpack(bytes),
  cbor: (bytes) => Decoder.decodeFirstSync(bytes),
};

describe('codecs: writers read each value once', () => {
  const cases = [
    ['a t.map', t.map(t.i32()), { a: 1, b: 2, c: 3 }],
    [
      'an object with optional members',
      t.object({ a: t.i32(), b: t.optional(t.i32()), c: t.optional(t.string()) }),
      { a: 1, b: 2, c: 'x' },
    ],
  ] as const;

  for (const [label, type, value] of cases) {
    for (const codec of [msgpack, cbor]) {
      it(`${codec.name}: ${label} whose members vanish after one read is written whole, its header matching`, () => {
        const { proxy, reads } = vanishing({ ...value });
        const bytes = codec.encode(type, proxy as never);
        expect(
          [...reads.values()].every((n) => n === 1),
          JSON.stringify([...reads]),
        ).to.equal(true);
        expect(independent[codec.name]!(bytes)).to.deep.equal(value);
        expect(codec.decode(type, bytes)).to.deep.equal(value);
      });
    }

    it(`json: ${label} whose members vanish after one read is written whole`, () => {
      const { proxy, reads } = vanishing({ ...value });
      const text = json.encode(type, proxy as never);
      expect(
        [...reads.values()].every((n) => n === 1),
        JSON.stringify([...reads]),
      ).to.equal(true);
      expect(JSON.parse(text)).to.deep.equal(value);
    });
  }
});
