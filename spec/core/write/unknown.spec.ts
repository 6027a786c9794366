// t.unknown() on write: any value the wire carries, in each codec's native form; anything else is
// refused with its code and path, and nesting is bounded by maxDepth (which stops cycles).
import { expect } from 'chai';
import fc from 'fast-check';
import { decode as msgpackDecode } from '@msgpack/msgpack';
import { decode as cborDecode } from 'cbor-x';
import { t } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { expectWriteError, expectWritten, writeEveryWay } from '../../support/write-paths.ts';

const U = t.unknown();
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
const msgpackOf = (hex: string) => msgpackDecode(fromHex(hex), { useBigInt64: true });

describe('core/write: t.unknown()', () => {
  describe('JSON', () => {
    it('writes JSON values as they are', () => {
      const value = { a: null, b: [true, false], c: 1.5, d: -0, e: 'x"\u00e9😀', f: { g: [[], {}] }, h: 1e21 };
      expect(expectWritten(U, value).json).to.equal(
        '{"a":null,"b":[true,false],"c":1.5,"d":-0,"e":"x\\"é😀","f":{"g":[[],{}]},"h":1e+21}',
      );
    });

    it('writes bigints as integer text, bytes as base64, Dates as RFC 3339 text', () => {
      expect(expectWritten(U, [2n ** 64n - 1n, -5n]).json).to.equal('[18446744073709551615,-5]');
      expect(writeEveryWay(U, [2n ** 70n]).json).to.deep.equal({ out: `[${2n ** 70n}]` });
      expect(expectWritten(U, new Uint8Array([0, 255, 1])).json).to.equal('"AP8B"');
      expect(expectWritten(U, { at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) }).json).to.equal(
        '{"at":"2024-01-02T03:04:05.006Z"}',
      );
    });

    it('writes own enumerable keys, __proto__ included, and skips undefined values', () => {
      const o = JSON.parse('{"__proto__":1,"a":2}') as Record<string, unknown>;
      o.b = undefined;
      Object.defineProperty(o, 'hidden', { value: 3, enumerable: false });
      expect(expectWritten(U, Object.assign(Object.create({ inherited: 4 }), o)).json).to.equal('{"a":2}');
      expect(expectWritten(U, o).json).to.equal('{"__proto__":1,"a":2}');
      class Point {
        constructor(
          readonly x: number,
          readonly y: number,
        ) {}
      }
      expect(expectWritten(U, new Point(1, 2)).json).to.equal('{"x":1,"y":2}');
    });

    it('prettifies nested values', () => {
      expect(expectWritten(U, { a: [1, { b: null }], c: {} }, { prettify: true }).json).to.equal(
        '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {}\n}',
      );
    });

    it('writes JSON text that JSON.parse reads back to the value, -0 included (property)', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const text = expectWritten(U, value).json;
          expect(JSON.parse(text)).to.deep.equal(value);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('MessagePack and CBOR', () => {
    it('writes native forms: integers, float64, 64-bit integers, bytes, timestamps', () => {
      const value = {
        i: 5,
        n: -70000,
        f: 1.5,
        z: -0,
        big: 2n ** 63n,
        neg: -(2n ** 63n),
        bytes: new Uint8Array([1, 2]),
        at: new Date(1000),
        list: [null, true, 'x'],
      };
      const written = expectWritten(U, value);
      expect(msgpackOf(written.msgpack)).to.deep.equal({
        ...value,
        i: 5,
        n: -70000,
        big: 2n ** 63n,
        neg: -(2n ** 63n),
      });
      expect(written.msgpack).to.contain('a16905'); // "i": fixint 5
      expect(written.msgpack).to.contain('a17acb8000000000000000'); // "z": float 64 -0
      expect(written.msgpack).to.contain('d6ff00000001'); // timestamp 32
      expect(written.msgpack).to.contain('c4020102'); // bin 8
      expect(cborDecode(fromHex(written.cbor))).to.deep.equal({ ...value, big: 2n ** 63n, neg: -(2n ** 63n) });
      expect(written.cbor).to.contain('c101'); // tag 1
      expect(written.cbor).to.contain('1b8000000000000000'); // 2^63
    });

    it('refuses bigints outside -2^63 .. 2^64-1 (out_of_range); JSON writes them', () => {
      const all = writeEveryWay(U, { n: 2n ** 64n });
      expect(all.json).to.deep.equal({ out: `{"n":${2n ** 64n}}` });
      for (const o of [all.msgpack, all.cbor]) {
        expect(o).to.deep.equal({
          error: {
            code: 'out_of_range',
            path: '/n',
            message:
              '18446744073709551616 is outside the 64-bit integers (-9223372036854775808..18446744073709551615) at /n',
            key: undefined,
          },
        });
      }
      expect(expectWritten(U, [2n ** 64n - 1n, -(2n ** 63n)]).msgpack).to.equal(
        '92cfffffffffffffffffd38000000000000000',
      );
    });

    it('writes a Date outside years 0000-9999, which JSON refuses', () => {
      const all = writeEveryWay(U, [new Date(8.64e15)]);
      expect(all.json).to.have.nested.property('error.code', 'out_of_range');
      expect(all.json).to.have.nested.property('error.path', '/0');
      expect((msgpackDecode(fromHex((all.msgpack as { out: string }).out)) as Date[])[0]!.getTime()).to.equal(8.64e15);
    });
  });

  it('refuses what no wire carries, at its path', () => {
    expect(expectWriteError(U, { f: () => 1 }, 'type_mismatch', '/f')).to.equal(
      'cannot write a function as a value of t.unknown() at /f',
    );
    expect(expectWriteError(U, [Symbol('s')], 'type_mismatch', '/0')).to.equal(
      'cannot write a symbol as a value of t.unknown() at /0',
    );
    expect(expectWriteError(U, [1, undefined], 'type_mismatch', '/1')).to.equal(
      'cannot write undefined as a value of t.unknown() at /1',
    );
    expect(expectWriteError(U, { a: [Number.NaN] }, 'out_of_range', '/a/0')).to.equal(
      'NaN cannot be written: only finite numbers can at /a/0',
    );
    expectWriteError(U, { a: -Infinity }, 'out_of_range', '/a');
    expectWriteError(U, { s: 'a\udc00' }, 'type_mismatch', '/s');
    // The path of an error shows a lone surrogate as U+FFFD.
    expectWriteError(U, { 'k\ud800': 1 }, 'type_mismatch', '/k\ufffd');
    expectWriteError(U, { d: new Date(Number.NaN) }, 'type_mismatch', '/d');
    expectWriteError(U, undefined, 'type_mismatch', '');
  });

  it('is skipped as an absent member and written as null when null', () => {
    const type = t.object({ a: t.i32(), extra: t.unknown() });
    const absent = expectWritten(type, { a: 1 });
    expect(absent.json).to.equal('{"a":1}');
    expect(absent.msgpack).to.equal('81a16101');
    expect(absent.cbor).to.equal('a1616101');
    expect(expectWritten(type, { a: 1, extra: undefined }).json).to.equal('{"a":1}');
    expect(expectWritten(type, { a: 1, extra: null }).json).to.equal('{"a":1,"extra":null}');
    expect(expectWritten(type, { a: 1, extra: { x: [1] } }).json).to.equal('{"a":1,"extra":{"x":[1]}}');
  });

  it('bounds nesting by maxDepth, counting containers as reading does, and stops cycles', () => {
    const nested = (n: number): unknown => (n === 0 ? 0 : [nested(n - 1)]);
    expectWritten(U, nested(64));
    expect(expectWriteError(U, nested(65), 'limit_exceeded', '/0'.repeat(64))).to.equal(
      `nested deeper than maxDepth (64) at ${'/0'.repeat(64)}`,
    );
    // Inside an object the value starts at depth 2.
    const inObject = t.object({ u: U });
    expectWritten(inObject, { u: nested(63) });
    expectWriteError(inObject, { u: nested(64) }, 'limit_exceeded', '/u' + '/0'.repeat(63));
    expectWriteError(U, nested(4), 'limit_exceeded', '/0/0/0', { maxDepth: 3 });
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expectWriteError(U, cycle, 'limit_exceeded', '/self'.repeat(64));
    const list: unknown[] = [];
    list.push(list);
    expectWriteError(t.array(U), [list], 'limit_exceeded', '/0'.repeat(64));
  });

  it('reads each entry once (a getter may change its mind)', () => {
    const encoders = [
      (v: unknown) => json.encode(U, v),
      (v: unknown) => msgpack.encode(U, v),
      (v: unknown) => cbor.encode(U, v),
    ];
    for (const encode of encoders) {
      let reads = 0;
      const out = encode({
        get a() {
          reads++;
          return reads === 1 ? 1 : 'changed';
        },
      });
      expect(reads).to.equal(1);
      expect(typeof out === 'string' ? out : msgpackOrCbor(out)).to.deep.equal(
        typeof out === 'string' ? '{"a":1}' : { a: 1 },
      );
    }
  });
});

/** MessagePack's fixmap of one entry starts 0x81, CBOR's 0xa1. */
function msgpackOrCbor(bytes: Uint8Array): unknown {
  return bytes[0] === 0x81 ? msgpackDecode(bytes) : cborDecode(bytes);
}
