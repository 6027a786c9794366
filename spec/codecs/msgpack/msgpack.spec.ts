import { expect } from 'chai';
import { encode as genericEncode } from '@msgpack/msgpack';
import { FLOAT32_OPTIONS, Packr } from 'msgpackr';
import { t, type Type } from '../../../index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
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
const bytes = (text: string) => Uint8Array.from(text.split(' ').filter(Boolean), (h) => parseInt(h, 16));
/** msgpackr as an independent implementation: plain maps, 64-bit integers as bigints. */
const msgpackr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });

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

describe('codecs/msgpack', () => {
  it('is labelled with the MessagePack media types', () => {
    expect(msgpack.name).to.equal('msgpack');
    expect(msgpack.contentTypes).to.deep.equal([
      'application/msgpack',
      'application/x-msgpack',
      'application/vnd.msgpack',
    ]);
  });

  describe('wire types chosen by the descriptor', () => {
    it('writes u64 max as uint 64: cf ff ff ff ff ff ff ff ff', () => {
      expect(hex(msgpack.encode(t.u64(), U64_MAX))).to.equal('cf ff ff ff ff ff ff ff ff');
    });

    it('writes i64 min as int 64: d3 80 00 00 00 00 00 00 00', () => {
      expect(hex(msgpack.encode(t.i64(), I64_MIN))).to.equal('d3 80 00 00 00 00 00 00 00');
    });

    it('writes a whole User: fixmap, fixstr keys, exact id, float 32 weight', () => {
      // 83: fixmap of 3; a2 "id"; cf + 8 bytes; a4 "name"; a3 "Ann"; a6 "weight"; ca + float32 0.5
      expect(hex(msgpack.encode(User, { id: U64_MAX, name: 'Ann', weight: 0.5 }))).to.equal(
        '83 a2 69 64 cf ff ff ff ff ff ff ff ff a4 6e 61 6d 65 a3 41 6e 6e a6 77 65 69 67 68 74 ca 3f 00 00 00',
      );
    });

    it('writes f32 fields as float 32 (ca) and f64 fields as float 64 (cb), even for integral values', () => {
      expect(hex(msgpack.encode(t.f32(), 0.1))).to.equal('ca 3d cc cc cd');
      expect(hex(msgpack.encode(t.f64(), 0.1))).to.equal('cb 3f b9 99 99 99 99 99 9a');
      expect(hex(msgpack.encode(t.f32(), 2))).to.equal('ca 40 00 00 00');
      expect(hex(msgpack.encode(t.f64(), -0))).to.equal('cb 80 00 00 00 00 00 00 00');
    });

    it('writes each integer in the smallest encoding that holds it exactly', () => {
      const cases: [bigint, string][] = [
        [0n, '00'],
        [127n, '7f'],
        [128n, 'cc 80'],
        [255n, 'cc ff'],
        [256n, 'cd 01 00'],
        [65536n, 'ce 00 01 00 00'],
        [2n ** 32n, 'cf 00 00 00 01 00 00 00 00'],
        [-1n, 'ff'],
        [-32n, 'e0'],
        [-33n, 'd0 df'],
        [-129n, 'd1 ff 7f'],
        [-32769n, 'd2 ff ff 7f ff'],
        [-(2n ** 31n) - 1n, 'd3 ff ff ff ff 7f ff ff ff'],
        [2n ** 63n - 1n, 'cf 7f ff ff ff ff ff ff ff'],
      ];
      for (const [n, expected] of cases) {
        expect(hex(msgpack.encode(t.i64(), n)), String(n)).to.equal(expected);
        expect(msgpack.decode(t.i64(), msgpack.encode(t.i64(), n))).to.equal(n);
      }
      expect(hex(msgpack.encode(t.i64(), -(2 ** 40) as never))).to.equal('d3 ff ff ff 00 00 00 00 00');
      expect(hex(msgpack.encode(t.u64(), (2 ** 40) as never))).to.equal('cf 00 00 01 00 00 00 00 00');
      expect(hex(msgpack.encode(t.u32(), 4294967295))).to.equal('ce ff ff ff ff');
    });

    it('writes strings with the smallest header: fixstr, str 8, str 16', () => {
      expect(hex(msgpack.encode(t.string(), 'x'.repeat(31))).slice(0, 2)).to.equal('bf');
      expect(hex(msgpack.encode(t.string(), 'x'.repeat(32))).slice(0, 5)).to.equal('d9 20');
      expect(hex(msgpack.encode(t.string(), 'x'.repeat(256))).slice(0, 8)).to.equal('da 01 00');
      // 100 two-byte characters: 200 bytes, though the worst case (300) would need str 16.
      const accents = 'é'.repeat(100);
      expect(hex(msgpack.encode(t.string(), accents)).slice(0, 5)).to.equal('d9 c8');
      expect(msgpack.decode(t.string(), msgpack.encode(t.string(), accents))).to.equal(accents);
    });

    it('writes bytes as bin, null as nil, booleans as c2/c3, and leaves absent optionals out of the map', () => {
      expect(hex(msgpack.encode(t.bytes(), new Uint8Array([1, 2])))).to.equal('c4 02 01 02');
      const T = t.object({ a: t.optional(t.i32()), b: t.nullable(t.bool()), c: t.bool() });
      expect(hex(msgpack.encode(T, { b: null, c: true }))).to.equal('82 a1 62 c0 a1 63 c3');
    });

    it('refuses a string holding a lone surrogate, short or long, rather than altering it', () => {
      expect(writeErrorOf(() => msgpack.encode(t.array(t.string()), ['ok', 'a\ud800b'])).path).to.equal('/1');
      expect(writeErrorOf(() => msgpack.encode(t.string(), 'x'.repeat(100) + '\udc00')).code).to.equal('type_mismatch');
    });

    it('encodes documents larger than the initial buffer', () => {
      const big = {
        books: Array.from({ length: 2000 }, (_, i) => ({ ...dune, id: i })),
        total_count: 2000,
        has_more: false,
      };
      expect(msgpack.decode(BookSearchResponse, msgpack.encode(BookSearchResponse, big))).to.deep.equal(big);
    });

    it('is no larger than @msgpack/msgpack for the records of the specification', () => {
      for (const user of users)
        expect(msgpack.encode(User, user).length).to.be.at.most(genericEncode(user, { useBigInt64: true }).length);
      expect(msgpack.encode(Book, dune).length).to.be.at.most(genericEncode(dune).length);
      for (const r of responses)
        expect(msgpack.encode(BookSearchResponse, r).length).to.be.at.most(genericEncode(r).length);
      // The figures docs/msgpack.md quotes: ours against @msgpack/msgpack's, in bytes.
      const sizes = (type: Type, v: unknown) => [
        msgpack.encode(type, v as never).length,
        genericEncode(v, { useBigInt64: true }).length,
      ];
      expect([sizes(User, users[0]), sizes(Book, dune), sizes(BookSearchResponse, responses[1])]).to.deep.equal([
        [26, 38],
        [65, 65],
        [1373, 1373],
      ]);
    });
  });

  it('refuses a byte string longer than bin 32 holds (2^32 − 1 bytes) before making room for it', () => {
    // A Uint8Array of 4 GiB (Node 20 allows one, later versions longer), without the memory.
    const bytes = new Uint8Array(4);
    Object.defineProperty(bytes, 'length', { value: 2 ** 32 });
    for (const [type, value, path] of [
      [t.bytes(), bytes, ''],
      [t.object({ b: t.bytes() }), { b: bytes }, '/b'],
      [t.unknown(), [bytes], '/0'],
    ] as const) {
      const e = writeErrorOf(() => msgpack.encode(type as Type, value as never));
      expect([e.code, e.path, e.message]).to.deep.equal([
        'limit_exceeded',
        path,
        `cannot write 4294967296 bytes: the format's byte strings hold 4294967295 at most${path === '' ? ' at the root' : ` at ${path}`}`,
      ]);
    }
  });

  describe('interoperability with msgpackr', () => {
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

    it('msgpackr reads what we write', () => {
      const back = msgpackr.unpack(msgpack.encode(Mixed, mixed)) as typeof mixed;
      expect(back.u).to.equal(U64_MAX);
      expect(back.i).to.equal(I64_MIN);
      expect(Math.fround(back.f)).to.equal(Math.fround(0.1));
      expect(back.d).to.equal(1e300);
      expect(back.s).to.equal(mixed.s);
      expect(new Uint8Array(back.b)).to.deep.equal(mixed.b);
      expect(back.nested).to.deep.equal(mixed.nested);
    });

    it('we read what msgpackr writes, float32 included', () => {
      const packr = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
      expect(msgpack.decode(Mixed, packr.pack({ ...mixed, d: 0.25 }))).to.deep.equal({ ...mixed, d: 0.25 });
      for (const user of users) {
        expect(msgpack.decode(User, packr.pack(user))).to.deep.equal({ ...user, weight: Math.fround(user.weight) });
      }
      expect(
        msgpack.decode(t.tuple([t.u64(), t.i64(), t.i64()]), msgpackr.pack([U64_MAX, I64_MIN, 2n ** 63n - 1n])),
      ).to.deep.equal([U64_MAX, I64_MIN, 2n ** 63n - 1n]);
      for (const r of responses) expect(msgpack.decode(BookSearchResponse, msgpackr.pack(r))).to.deep.equal(r);
    });
  });

  describe('bad input', () => {
    it('empty input is a syntax_error', () => {
      const e = readErrorOf(() => msgpack.decode(User, new Uint8Array(0)));
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '']);
      expect(e.message).to.contain('no data');
    });

    it('truncated input is a syntax_error pointing at the value that was cut', () => {
      const full = msgpack.encode(User, { id: 5n, name: 'Ann', weight: 1 });
      const e = readErrorOf(() => msgpack.decode(User, full.subarray(0, full.length - 1)));
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '/weight']);
      expect(e.message).to.contain('truncated');
      // 83 a2 "id" 05 a4 "name" a3 "A|nn": the cut is inside the name.
      expect(readErrorOf(() => msgpack.decode(User, full.subarray(0, 12))).path).to.equal('/name');
      // A header announcing more members than bytes remain fails at the header.
      expect(readErrorOf(() => msgpack.decode(User, full.subarray(0, 4))).path).to.equal('');
    });

    it('the reserved byte 0xc1 is a syntax_error naming it', () => {
      const e = readErrorOf(() => msgpack.decode(t.array(t.i32()), bytes('92 01 c1')));
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '/1']);
      expect(e.message).to.contain('0xc1');
    });

    it('a header announcing a 4 GiB string fails at the header', () => {
      const e = readErrorOf(() => msgpack.decode(t.string(), bytes('db ff ff ff ff 61 62 63 64 65')));
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '']);
      expect(e.message).to.contain('4294967295');
      expect(readErrorOf(() => msgpack.decode(t.bytes(), bytes('c6 ff ff ff ff 00'))).message).to.contain('4294967295');
    });

    it('a header announcing a billion elements fails at the header, before reading any element', () => {
      const e = readErrorOf(() => msgpack.decode(t.array(t.i32()), bytes('dd 3b 9a ca 00 01 02 03 04 05')));
      // The path is the header's, not an element's: no element was read.
      expect([e.code, e.path]).to.deep.equal(['syntax_error', '']);
      expect(e.message).to.contain('1000000000');
      expect(readErrorOf(() => msgpack.decode(t.map(t.i32()), bytes('df 3b 9a ca 00 a1 61 01'))).message).to.contain(
        '1000000000',
      );
    });

    it('nesting deeper than maxDepth (64 by default) is limit_exceeded', () => {
      const deep = (n: number) => new Uint8Array([...new Array<number>(n).fill(0x91), 0x00]);
      const e = readErrorOf(() => msgpack.decode(t.array(t.i32()), deep(65)));
      expect([e.code, e.path]).to.deep.equal(['limit_exceeded', '/0'.repeat(64)]);
      expect(e.message).to.contain('maxDepth');
      expect(readErrorOf(() => msgpack.decode(t.array(t.i32()), deep(100_000))).code).to.equal('limit_exceeded');
      expect(readErrorOf(() => msgpack.decode(t.array(t.i32()), deep(4), { maxDepth: 3 })).code).to.equal(
        'limit_exceeded',
      );
      // Within the limit, the nesting is read and the descriptor decides.
      expect(readErrorOf(() => msgpack.decode(t.array(t.i32()), deep(64))).code).to.equal('type_mismatch');
    });

    it('bytes after the value are a syntax_error', () => {
      const e = readErrorOf(() => msgpack.decode(t.i32(), bytes('01 02')));
      expect(e.code).to.equal('syntax_error');
      expect(e.message).to.contain('1 unexpected byte');
    });

    it('invalid UTF-8 in a string or a key is a syntax_error', () => {
      for (const input of ['a2 ff fe', 'a2 c0 80', 'a3 ed a0 80', 'a1 c3']) {
        const e = readErrorOf(() => msgpack.decode(t.string(), bytes(input)));
        expect(e.code, input).to.equal('syntax_error');
        expect(e.message).to.contain('UTF-8');
      }
      const long = new Uint8Array([0xd9, 100, ...new Array<number>(99).fill(0x61), 0xff]);
      expect(readErrorOf(() => msgpack.decode(t.string(), long)).message).to.contain('UTF-8');
      expect(readErrorOf(() => msgpack.decode(t.map(t.i32()), bytes('81 a1 ff 01'))).code).to.equal('syntax_error');
    });

    it('keeps a leading byte order mark as data', () => {
      expect(msgpack.decode(t.string(), bytes('a3 ef bb bf'))).to.equal('\ufeff');
    });

    it('a map key that is not a string is a type_mismatch at the map', () => {
      const e = readErrorOf(() => msgpack.decode(t.object({ m: t.map(t.i32()) }), bytes('81 a1 6d 81 01 02')));
      expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/m']);
      expect(e.message).to.contain('the integer 1');
      for (const key of ['c0', '90', 'c4 00', 'c3']) {
        expect(readErrorOf(() => msgpack.decode(t.map(t.i32()), bytes(`81 ${key} 02`))).code, key).to.equal(
          'type_mismatch',
        );
      }
    });

    it('extension types, timestamps included, are a type_mismatch', () => {
      const e = readErrorOf(() => msgpack.decode(t.object({ at: t.i64() }), bytes('81 a2 61 74 d6 ff 00 00 00 01')));
      expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/at']);
      expect(e.message).to.contain('timestamp');
      expect(readErrorOf(() => msgpack.decode(t.bytes(), bytes('c7 01 05 00'))).code).to.equal('type_mismatch');
    });

    it('text instead of bytes is a syntax_error', () => {
      expect(readErrorOf(() => msgpack.decode(t.string(), '\xa1a')).code).to.equal('syntax_error');
    });

    it('input over maxBytes is limit_exceeded', () => {
      expect(
        readErrorOf(() => msgpack.decode(t.bytes(), new Uint8Array([0xc4, 8, 1, 2, 3, 4, 5, 6, 7, 8]), { maxBytes: 9 }))
          .code,
      ).to.equal('limit_exceeded');
    });

    it('a __proto__ key never sets a prototype', () => {
      const input = bytes('81 a9 5f 5f 70 72 6f 74 6f 5f 5f 81 a1 78 01');
      const m = msgpack.decode(t.map(t.map(t.i32())), input) as Record<string, unknown>;
      expect(Object.getPrototypeOf(m)).to.equal(Object.prototype);
      expect(Object.keys(m)).to.deep.equal(['__proto__']);
      expect(readErrorOf(() => msgpack.decode(t.object({}), input)).code).to.equal('unknown_key');
    });

    it('a key repeated in one map keeps its last value, as JSON.parse does', () => {
      expect(msgpack.decode(t.map(t.i32()), bytes('82 a1 61 01 a1 61 02'))).to.deep.equal({ a: 2 });
    });

    it('never returns bytes that alias the input', () => {
      const input = bytes('c4 02 01 02');
      const out = msgpack.decode(t.bytes(), input);
      input[2] = 9;
      expect(Array.from(out)).to.deep.equal([1, 2]);
    });
  });
});
