import { expect } from 'chai';
import { decodeFirstSync as cborLibDecode } from 'cbor';
import { nodeCborEncode as cborLibEncode } from '../../support/node-cbor.ts';
import { encode as genericEncode } from 'cbor-x';
import { t, type Type } from '../../../index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { writeErrorOf } from '../../support/write-error.ts';

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });
const Book = t.object(
  { id: t.i32(), title: t.string(), author: t.string(), isbn: t.string(), year: t.i32() },
  { name: 'Book' },
);
const BookSearchResponse = t.object({ books: t.array(Book), total_count: t.i32(), has_more: t.bool() });
const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
/** Bytes from hex, spaces optional: `'83 01'` or `'8301'`. */
const bytes = (text: string) => Uint8Array.from(text.replace(/ /g, '').match(/../g) ?? [], (h) => parseInt(h, 16));

const dune = { id: 1, title: 'Dune', author: 'Frank Herbert', isbn: '978-0441013593', year: 1965 };
const users = [
  { id: 1n, name: 'Ann', weight: 72.5 },
  { id: 9007199254740993n, name: 'Zoë Łukasiewicz', weight: 0.1 },
  { id: U64_MAX, name: '', weight: -1e-3 },
];
const responses = [
  { books: [dune, { ...dune, id: 2, title: 'Dune Messiah', year: 1969 }], total_count: 2, has_more: false },
  {
    books: Array.from({ length: 20 }, (_, i) => ({ ...dune, id: i * 1000, year: 1900 + i })),
    total_count: 40000,
    has_more: true,
  },
];

/** RFC 8949 Appendix A: the encoding, a descriptor that can hold it, and the value it reads as. */
const VECTORS: [string, Type, unknown][] = [
  ['00', t.u8(), 0],
  ['01', t.u8(), 1],
  ['0a', t.u8(), 10],
  ['17', t.u8(), 23],
  ['1818', t.u8(), 24],
  ['1819', t.u8(), 25],
  ['1864', t.u8(), 100],
  ['1903e8', t.u16(), 1000],
  ['1a000f4240', t.u32(), 1000000],
  ['1b000000e8d4a51000', t.u64(), 1000000000000n],
  ['1bffffffffffffffff', t.u64(), U64_MAX],
  ['c249010000000000000000', t.f64(), 18446744073709551616],
  ['3bffffffffffffffff', t.f64(), -18446744073709551616],
  ['c349010000000000000000', t.f64(), -18446744073709551617],
  ['20', t.i8(), -1],
  ['29', t.i8(), -10],
  ['3863', t.i8(), -100],
  ['3903e7', t.i16(), -1000],
  ['f90000', t.f64(), 0],
  ['f98000', t.f64(), -0],
  ['f93c00', t.f64(), 1],
  ['fb3ff199999999999a', t.f64(), 1.1],
  ['f93e00', t.f64(), 1.5],
  ['f97bff', t.f64(), 65504],
  ['fa47c35000', t.f32(), 100000],
  ['fa7f7fffff', t.f32(), 3.4028234663852886e38],
  ['fb7e37e43c8800759c', t.f64(), 1e300],
  ['f90001', t.f64(), 5.960464477539063e-8],
  ['f90400', t.f64(), 0.00006103515625],
  ['f9c400', t.f64(), -4],
  ['fbc010666666666666', t.f64(), -4.1],
  ['f4', t.bool(), false],
  ['f5', t.bool(), true],
  ['f6', t.nullable(t.i32()), null],
  ['f7', t.optional(t.i32()), undefined],
  ['c074323031332d30332d32315432303a30343a30305a', t.timestamp(), new Date('2013-03-21T20:04:00Z')],
  ['c11a514b67b0', t.timestamp(), new Date(1363896240000)],
  ['c1fb41d452d9ec200000', t.timestamp(), new Date(1363896240500)],
  ['d74401020304', t.bytes(), new Uint8Array([1, 2, 3, 4])],
  ['d818456449455446', t.bytes(), new Uint8Array([0x64, 0x49, 0x45, 0x54, 0x46])],
  ['d82076687474703a2f2f7777772e6578616d706c652e636f6d', t.string(), 'http://www.example.com'],
  ['40', t.bytes(), new Uint8Array(0)],
  ['4401020304', t.bytes(), new Uint8Array([1, 2, 3, 4])],
  ['60', t.string(), ''],
  ['6161', t.string(), 'a'],
  ['6449455446', t.string(), 'IETF'],
  ['62225c', t.string(), '"\\'],
  ['62c3bc', t.string(), '\u00fc'],
  ['63e6b0b4', t.string(), '\u6c34'],
  ['64f0908591', t.string(), '\ud800\udd51'],
  ['80', t.array(t.i32()), []],
  ['83010203', t.array(t.i32()), [1, 2, 3]],
  ['8301820203820405', t.tuple([t.i32(), t.array(t.i32()), t.array(t.i32())]), [1, [2, 3], [4, 5]]],
  [
    '98190102030405060708090a0b0c0d0e0f101112131415161718181819',
    t.array(t.u8()),
    Array.from({ length: 25 }, (_, i) => i + 1),
  ],
  ['a0', t.map(t.i32()), {}],
  ['a26161016162820203', t.object({ a: t.i32(), b: t.array(t.i32()) }), { a: 1, b: [2, 3] }],
  ['826161a161626163', t.tuple([t.string(), t.map(t.string())]), ['a', { b: 'c' }]],
  ['a56161614161626142616361436164614461656145', t.map(t.string()), { a: 'A', b: 'B', c: 'C', d: 'D', e: 'E' }],
  ['5f42010243030405ff', t.bytes(), new Uint8Array([1, 2, 3, 4, 5])],
  ['7f657374726561646d696e67ff', t.string(), 'streaming'],
  ['9fff', t.array(t.i32()), []],
  ['9f018202039f0405ffff', t.tuple([t.i32(), t.array(t.i32()), t.array(t.i32())]), [1, [2, 3], [4, 5]]],
  ['9f01820203820405ff', t.tuple([t.i32(), t.array(t.i32()), t.array(t.i32())]), [1, [2, 3], [4, 5]]],
  ['83018202039f0405ff', t.tuple([t.i32(), t.array(t.i32()), t.array(t.i32())]), [1, [2, 3], [4, 5]]],
  ['83019f0203ff820405', t.tuple([t.i32(), t.array(t.i32()), t.array(t.i32())]), [1, [2, 3], [4, 5]]],
  [
    '9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff',
    t.array(t.u8()),
    Array.from({ length: 25 }, (_, i) => i + 1),
  ],
  ['bf61610161629f0203ffff', t.object({ a: t.i32(), b: t.array(t.i32()) }), { a: 1, b: [2, 3] }],
  ['826161bf61626163ff', t.tuple([t.string(), t.map(t.string())]), ['a', { b: 'c' }]],
  ['bf6346756ef563416d7421ff', t.object({ Fun: t.bool(), Amt: t.i32() }), { Fun: true, Amt: -2 }],
];

describe('codecs/cbor', () => {
  it('is labelled application/cbor', () => {
    expect(cbor.name).to.equal('cbor');
    expect(cbor.contentTypes).to.deep.equal(['application/cbor']);
  });

  describe('RFC 8949 Appendix A', () => {
    for (const [encoding, type, value] of VECTORS) {
      it(`reads ${encoding}`, () => {
        expect(cbor.decode(type, bytes(encoding))).to.deep.equal(value);
      });
    }

    it('reads the vectors our descriptors cannot hold as the matching errors', () => {
      expect(readErrorOf(() => cbor.decode(t.u64(), bytes('c249010000000000000000'))).code).to.equal('out_of_range'); // 2^64
      expect(readErrorOf(() => cbor.decode(t.i64(), bytes('3bffffffffffffffff'))).code).to.equal('out_of_range'); // -2^64
      for (const infinite of [
        'f97c00',
        'f97e00',
        'f9fc00',
        'fa7f800000',
        'fa7fc00000',
        'faff800000',
        'fb7ff0000000000000',
        'fb7ff8000000000000',
        'fbfff0000000000000',
      ]) {
        expect(readErrorOf(() => cbor.decode(t.f64(), bytes(infinite))).code, infinite).to.equal('out_of_range');
      }
      for (const simple of ['f0', 'f8ff'])
        expect(readErrorOf(() => cbor.decode(t.nullable(t.i32()), bytes(simple))).code, simple).to.equal(
          'type_mismatch',
        );
      expect(readErrorOf(() => cbor.decode(t.map(t.i32()), bytes('a201020304'))).code).to.equal('type_mismatch'); // {1: 2, 3: 4}
    });

    it('writes the vectors it reads the way the RFC does', () => {
      const writes: [string, Type, unknown][] = [
        ['00', t.u8(), 0],
        ['17', t.u8(), 23],
        ['1818', t.u8(), 24],
        ['1903e8', t.u16(), 1000],
        ['1a000f4240', t.u32(), 1000000],
        ['1b000000e8d4a51000', t.u64(), 1000000000000n],
        ['1bffffffffffffffff', t.u64(), U64_MAX],
        ['20', t.i8(), -1],
        ['3903e7', t.i16(), -1000],
        ['3b7fffffffffffffff', t.i64(), I64_MIN],
        ['fb3ff199999999999a', t.f64(), 1.1],
        ['fa47c35000', t.f32(), 100000],
        ['fa7f7fffff', t.f32(), 3.4028234663852886e38],
        ['f4', t.bool(), false],
        ['f6', t.nullable(t.i32()), null],
        ['4401020304', t.bytes(), new Uint8Array([1, 2, 3, 4])],
        ['6449455446', t.string(), 'IETF'],
        ['64f0908591', t.string(), '\ud800\udd51'],
        ['8301820203820405', t.tuple([t.i32(), t.array(t.i32()), t.array(t.i32())]), [1, [2, 3], [4, 5]]],
        ['a26161016162820203', t.object({ a: t.i32(), b: t.array(t.i32()) }), { a: 1, b: [2, 3] }],
        ['a56161614161626142616361436164614461656145', t.map(t.string()), { a: 'A', b: 'B', c: 'C', d: 'D', e: 'E' }],
      ];
      for (const [encoding, type, value] of writes) {
        expect(hex(cbor.encode(type, value as never)).replace(/ /g, ''), encoding).to.equal(encoding);
      }
    });
  });

  describe('wire types chosen by the descriptor', () => {
    it('writes u64 max with an 8-byte argument: 1b ff ff ff ff ff ff ff ff', () => {
      expect(hex(cbor.encode(t.u64(), U64_MAX))).to.equal('1b ff ff ff ff ff ff ff ff');
    });

    it('writes i64 min as major type 1: 3b 7f ff ff ff ff ff ff ff', () => {
      expect(hex(cbor.encode(t.i64(), I64_MIN))).to.equal('3b 7f ff ff ff ff ff ff ff');
    });

    it('writes a whole User: map of 3, text keys, exact id, binary32 weight', () => {
      // a3: map of 3; 62 "id"; 1b + 8 bytes; 64 "name"; 63 "Ann"; 66 "weight"; fa + binary32 0.5
      expect(hex(cbor.encode(User, { id: U64_MAX, name: 'Ann', weight: 0.5 }))).to.equal(
        'a3 62 69 64 1b ff ff ff ff ff ff ff ff 64 6e 61 6d 65 63 41 6e 6e 66 77 65 69 67 68 74 fa 3f 00 00 00',
      );
    });

    it('writes f32 fields as binary32 (fa) and f64 fields as binary64 (fb), even for integral values', () => {
      expect(hex(cbor.encode(t.f32(), 0.1))).to.equal('fa 3d cc cc cd');
      expect(hex(cbor.encode(t.f64(), 0.1))).to.equal('fb 3f b9 99 99 99 99 99 9a');
      expect(hex(cbor.encode(t.f32(), 2))).to.equal('fa 40 00 00 00');
      expect(hex(cbor.encode(t.f64(), -0))).to.equal('fb 80 00 00 00 00 00 00 00');
    });

    it('writes each integer with the shortest argument that holds it exactly', () => {
      const cases: [bigint, string][] = [
        [23n, '17'],
        [24n, '18 18'],
        [255n, '18 ff'],
        [256n, '19 01 00'],
        [65536n, '1a 00 01 00 00'],
        [2n ** 32n, '1b 00 00 00 01 00 00 00 00'],
        [-24n, '37'],
        [-25n, '38 18'],
        [-(2n ** 32n), '3a ff ff ff ff'],
        [-(2n ** 32n) - 1n, '3b 00 00 00 01 00 00 00 00'],
      ];
      for (const [n, expected] of cases) {
        expect(hex(cbor.encode(t.i64(), n)), String(n)).to.equal(expected);
        expect(cbor.decode(t.i64(), cbor.encode(t.i64(), n))).to.equal(n);
      }
      expect(hex(cbor.encode(t.i64(), -(2 ** 40) as never))).to.equal('3b 00 00 00 ff ff ff ff ff');
      expect(hex(cbor.encode(t.u64(), (2 ** 40) as never))).to.equal('1b 00 00 01 00 00 00 00 00');
    });

    it('writes text with the shortest head, however many bytes its characters take', () => {
      expect(hex(cbor.encode(t.string(), 'x'.repeat(23))).slice(0, 2)).to.equal('77');
      expect(hex(cbor.encode(t.string(), 'x'.repeat(24))).slice(0, 5)).to.equal('78 18');
      const accents = 'é'.repeat(100); // 200 bytes; the worst case (300) would need a 2-byte argument
      expect(hex(cbor.encode(t.string(), accents)).slice(0, 5)).to.equal('78 c8');
      expect(cbor.decode(t.string(), cbor.encode(t.string(), accents))).to.equal(accents);
    });

    it('writes null as f6, leaves absent optionals out of the map, and refuses lone surrogates', () => {
      const T = t.object({ a: t.optional(t.i32()), b: t.nullable(t.bool()), c: t.bool() });
      expect(hex(cbor.encode(T, { b: null, c: true }))).to.equal('a2 61 62 f6 61 63 f5');
      expect(writeErrorOf(() => cbor.encode(t.map(t.string()), { k: '\ud83d' })).path).to.equal('/k');
    });

    it('is no larger than cbor-x for the records of the specification', () => {
      for (const user of users) expect(cbor.encode(User, user).length).to.be.at.most(genericEncode(user).length);
      expect(cbor.encode(Book, dune).length).to.be.at.most(genericEncode(dune).length);
      for (const r of responses)
        expect(cbor.encode(BookSearchResponse, r).length).to.be.at.most(genericEncode(r).length);
      // The figures docs/cbor.md quotes: ours against cbor-x's, in bytes.
      const sizes = (type: Type, v: unknown) => [cbor.encode(type, v as never).length, genericEncode(v).length];
      expect([sizes(User, users[0]), sizes(Book, dune), sizes(BookSearchResponse, responses[1])]).to.deep.equal([
        [26, 40],
        [65, 67],
        [1371, 1413],
      ]);
    });
  });

  describe('interoperability with the cbor package (node-cbor)', () => {
    const Mixed = t.object({
      u: t.u64(),
      i: t.i64(),
      f: t.f32(),
      d: t.f64(),
      s: t.string(),
      b: t.bytes(),
      nested: t.map(t.array(t.map(t.nullable(t.i32())))),
    });
    const mixed = {
      u: U64_MAX,
      i: I64_MIN,
      f: Math.fround(0.1),
      d: 1e300,
      s: 'ünïcödé 😀 中文',
      b: new Uint8Array([0, 255]),
      nested: { a: [{ x: 1, y: null }, {}], ключ: [] },
    };

    it('node-cbor reads what we write', () => {
      const back = cborLibDecode(cbor.encode(Mixed, mixed)) as typeof mixed;
      expect(back.u).to.equal(U64_MAX);
      expect(back.i).to.equal(I64_MIN);
      expect(back.f).to.equal(Math.fround(0.1));
      expect(back.d).to.equal(1e300);
      expect(back.s).to.equal(mixed.s);
      expect(new Uint8Array(back.b)).to.deep.equal(mixed.b);
      expect(back.nested).to.deep.equal(mixed.nested);
    });

    it('we read what node-cbor writes: bignums, tagged byte arrays, binary32', () => {
      // node-cbor writes u64 max as a tag 2 bignum and Uint8Array under tag 64; both read as they should.
      expect(cbor.decode(Mixed, cborLibEncode(mixed))).to.deep.equal(mixed);
      for (const user of users) {
        const f32 = { ...user, weight: Math.fround(user.weight) };
        const written = cborLibEncode(f32);
        expect(cbor.decode(User, written)).to.deep.equal(f32);
      }
      expect(hex(cborLibEncode(Math.fround(0.1)))).to.equal('fa 3d cc cc cd');
      for (const r of responses) expect(cbor.decode(BookSearchResponse, cborLibEncode(r))).to.deep.equal(r);
    });
  });

  describe('bad input', () => {
    const fails = (type: Type, input: string) => readErrorOf(() => cbor.decode(type, bytes(input)));

    it('empty input is a syntax_error', () => {
      expect(fails(t.i32(), '').code).to.equal('syntax_error');
      expect(fails(t.i32(), '').message).to.contain('no data');
    });

    it('truncated input is a syntax_error pointing at the item that was cut', () => {
      const full = cbor.encode(User, { id: 5n, name: 'Ann', weight: 1 });
      const e = readErrorOf(() => cbor.decode(User, full.subarray(0, full.length - 1)));
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '/weight']);
      expect(e.message).to.contain('truncated');
      expect(fails(t.u64(), '1b 00 00').code).to.equal('syntax_error');
      expect(fails(t.array(t.i32()), '9f 01 02').message).to.contain('break');
    });

    it('reserved additional information (28-30) is a syntax_error', () => {
      for (const input of ['1c', '3d', '5e', 'fc']) expect(fails(t.i32(), input).code, input).to.equal('syntax_error');
      expect(fails(t.i32(), '1c').message).to.contain('reserved');
    });

    it('a break outside an indefinite-length item, or a bad chunk inside one, is a syntax_error', () => {
      expect(fails(t.i32(), 'ff').message).to.contain('break');
      expect(fails(t.array(t.i32()), '82 01 ff').path).to.equal('/1');
      expect(fails(t.bytes(), '5f 61 61 ff').message).to.contain('chunk'); // a text chunk in a byte string
      expect(fails(t.string(), '7f 7f ff ff').message).to.contain('chunk'); // nested indefinite chunk
      expect(fails(t.i32(), '1f').code).to.equal('syntax_error'); // indefinite integer
    });

    it('a header announcing a 4 GiB string fails at the header', () => {
      const e = fails(t.string(), '7a ff ff ff ff 61 62 63 64 65');
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '']);
      expect(e.message).to.contain('4294967295');
      expect(fails(t.bytes(), '5b 00 00 00 01 00 00 00 00 00').message).to.contain('4294967296');
      expect(fails(t.bytes(), '5b ff ff ff ff ff ff ff ff').code).to.equal('syntax_error');
    });

    it('a header announcing a billion elements fails at the header, before reading any element', () => {
      const e = fails(t.array(t.i32()), '9a 3b 9a ca 00 01 02 03 04 05');
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '']);
      expect(e.message).to.contain('1000000000');
      expect(fails(t.map(t.i32()), 'ba 3b 9a ca 00 61 61 01').message).to.contain('1000000000');
    });

    it('nesting deeper than maxDepth (64 by default) is limit_exceeded, however deep the input', () => {
      const deep = (n: number, open = 0x81) => new Uint8Array([...new Array<number>(n).fill(open), 0x00]);
      const e = readErrorOf(() => cbor.decode(t.array(t.i32()), deep(65)));
      expect([e.code, e.path]).to.deep.equal(['limit_exceeded', '/0'.repeat(64)]);
      expect(readErrorOf(() => cbor.decode(t.array(t.i32()), deep(100_000))).code).to.equal('limit_exceeded');
      expect(readErrorOf(() => cbor.decode(t.array(t.i32()), deep(100_000, 0x9f))).code).to.equal('limit_exceeded');
      expect(readErrorOf(() => cbor.decode(t.array(t.i32()), deep(4), { maxDepth: 3 })).code).to.equal(
        'limit_exceeded',
      );
      // A long chain of tags is read in a loop: no recursion, no stack overflow.
      expect(cbor.decode(t.i32(), deep(100_000, 0xc6))).to.equal(0);
    });

    it('bytes after the item are a syntax_error', () => {
      expect(fails(t.i32(), '01 02').message).to.contain('1 unexpected byte');
    });

    it('invalid UTF-8 is a syntax_error, also when a character is split across chunks', () => {
      for (const input of ['62 ff fe', '62 c0 80', '63 ed a0 80', '7f 61 c3 61 bc ff']) {
        const e = fails(t.string(), input);
        expect(e.code, input).to.equal('syntax_error');
        expect(e.message).to.contain('UTF-8');
      }
      expect(fails(t.map(t.i32()), 'a1 61 ff 01').code).to.equal('syntax_error');
    });

    it('a map key that is not a text string is a type_mismatch at the map', () => {
      const e = fails(t.object({ m: t.map(t.i32()) }), 'a1 61 6d a1 01 02');
      expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/m']);
      for (const key of ['f6', '80', '40', 'f5', '20'])
        expect(fails(t.map(t.i32()), `a1 ${key} 02`).code, key).to.equal('type_mismatch');
    });

    it('simple values other than false, true, null and undefined are a type_mismatch', () => {
      expect(fails(t.object({ v: t.nullable(t.i32()) }), 'a1 61 76 f0').path).to.equal('/v');
      expect(fails(t.i32(), 'f8 10').code).to.equal('syntax_error'); // simple 16 in the two-byte form is malformed
    });

    it('a bignum tag around anything but a byte string is a syntax_error', () => {
      expect(fails(t.u64(), 'c2 01').message).to.contain('bignum');
    });

    it('reads undefined as an absent key', () => {
      const Profile = t.object({ nick: t.optional(t.string()), age: t.u8() });
      expect(cbor.decode(Profile, bytes('a2 64 6e 69 63 6b f7 63 61 67 65 01'))).to.deep.equal({ age: 1 });
    });

    it('text instead of bytes is a syntax_error; input over maxBytes is limit_exceeded', () => {
      expect(readErrorOf(() => cbor.decode(t.string(), 'a')).code).to.equal('syntax_error');
      expect(readErrorOf(() => cbor.decode(t.bytes(), bytes('44 01 02 03 04'), { maxBytes: 4 })).code).to.equal(
        'limit_exceeded',
      );
    });

    it('a key repeated in one map keeps its last value, as JSON.parse does', () => {
      expect(cbor.decode(t.object({ a: t.i32() }), bytes('a2 61 61 61 78 61 61 02'))).to.deep.equal({ a: 2 }); // "x", then 2
      expect(cbor.decode(t.map(t.i32()), bytes('a2 61 61 01 61 61 02'))).to.deep.equal({ a: 2 });
    });

    it('a __proto__ key never sets a prototype', () => {
      const input = bytes('a1 69 5f 5f 70 72 6f 74 6f 5f 5f a1 61 78 01');
      const m = cbor.decode(t.map(t.map(t.i32())), input) as Record<string, unknown>;
      expect(Object.getPrototypeOf(m)).to.equal(Object.prototype);
      expect(Object.keys(m)).to.deep.equal(['__proto__']);
      expect(fails(t.object({}), 'a1 69 5f 5f 70 72 6f 74 6f 5f 5f a1 61 78 01').code).to.equal('unknown_key');
    });
  });
});
