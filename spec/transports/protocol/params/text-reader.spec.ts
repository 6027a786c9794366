import { expect } from 'chai';
import fc from 'fast-check';
import { ReadError, t, type Opts, type Type } from '../../../../index.ts';
import { textReader, type NamedParam } from '../../../../transports/protocol/params/index.ts';

const p = (name: string, type: Type): NamedParam => ({ name, type });

/** Reads one path parameter `v` of `type` from its decoded segment `text`. */
function segment(type: Type, text: string): unknown {
  return textReader([p('v', type)], [])({ v: text }, '').v;
}

/** The error reading throws, with its code, path and every error listed. */
function failure(read: () => unknown): ReadError {
  try {
    read();
  } catch (e) {
    expect(e).to.be.instanceOf(ReadError);
    return e as ReadError;
  }
  expect.fail('expected a ReadError');
}

function refusedSegment(type: Type, text: string, code: string): ReadError {
  const e = failure(() => segment(type, text));
  expect([e.code, e.path]).to.deep.equal([code, '/v']);
  return e;
}

describe('transports/protocol/params: reading from text', () => {
  describe('integers, in canonical decimal', () => {
    it('reads i32 and its negative numbers', () => {
      expect(segment(t.i32(), '0')).to.equal(0);
      expect(segment(t.i32(), '-2147483648')).to.equal(-2147483648);
      expect(segment(t.i32(), '2147483647')).to.equal(2147483647);
    });
    it('reads u64 and i64 beyond 2^53 exactly, as bigints', () => {
      expect(segment(t.u64(), '18446744073709551615')).to.equal(18446744073709551615n);
      expect(segment(t.u64(), '9007199254740993')).to.equal(9007199254740993n);
      expect(segment(t.i64(), '-9223372036854775808')).to.equal(-9223372036854775808n);
      expect(segment(t.i64(), '7')).to.equal(7n);
    });
    it('refuses what is not canonical decimal: signs, leading zeros, -0, fractions, exponents, spaces, hex', () => {
      for (const text of ['+1', '01', '-0', '1.0', '1e3', ' 1', '1 ', '0x10', '', '-', '1_000', '١']) {
        refusedSegment(t.i32(), text, 'type_mismatch');
        refusedSegment(t.u64(), text, 'type_mismatch');
      }
    });
    it('answers a value beyond the kind, or its bounds, with out_of_range', () => {
      refusedSegment(t.u8(), '256', 'out_of_range');
      refusedSegment(t.u64(), '-1', 'out_of_range');
      refusedSegment(t.u64(), '18446744073709551616', 'out_of_range');
      refusedSegment(t.i64(), '9223372036854775808', 'out_of_range');
      refusedSegment(t.i32(), '99999999999999999999', 'out_of_range');
      refusedSegment(t.u32({ minimum: 10 }), '9', 'out_of_range');
      refusedSegment(t.u64({ maximum: 5n }), '6', 'out_of_range');
    });
    it('refuses a long run of digits without building it, naming its length', () => {
      const e = refusedSegment(t.u64(), '9'.repeat(5000), 'out_of_range');
      expect(e.message).to.include('(5000 characters)');
    });
  });

  describe('floats, as JSON numbers', () => {
    it('reads the JSON number grammar, -0 included', () => {
      expect(segment(t.f64(), '1.5')).to.equal(1.5);
      expect(segment(t.f64(), '-2.5e-3')).to.equal(-0.0025);
      expect(segment(t.f64(), '1E+21')).to.equal(1e21);
      expect(Object.is(segment(t.f64(), '-0'), -0)).to.equal(true);
      expect(segment(t.f32(), '0.1')).to.equal(Math.fround(0.1));
    });
    it('refuses what JSON does not write: NaN, Infinity, hex, a leading dot or +', () => {
      for (const text of ['NaN', 'Infinity', '-Infinity', '0x1', '.5', '5.', '+1', '01', '', '1,5'])
        refusedSegment(t.f64(), text, 'type_mismatch');
    });
    it('answers a number beyond the kind with out_of_range', () => {
      refusedSegment(t.f64(), '1e400', 'out_of_range');
      refusedSegment(t.f32(), '1e39', 'out_of_range');
      refusedSegment(t.f64({ maximum: 1 }), '1.5', 'out_of_range');
    });
  });

  describe('bools, enums, literals, strings', () => {
    it('reads true and false only', () => {
      expect(segment(t.bool(), 'true')).to.equal(true);
      expect(segment(t.bool(), 'false')).to.equal(false);
      for (const text of ['True', '1', '0', 'yes', '', 'false ']) refusedSegment(t.bool(), text, 'type_mismatch');
    });
    it('reads an enum or a literal by its value’s text, and names the values allowed', () => {
      expect(segment(t.enum(['red', 'green']), 'green')).to.equal('green');
      expect(segment(t.enum([1, 2, 3]), '2')).to.equal(2);
      expect(segment(t.enum(['a', 7]), '7')).to.equal(7);
      expect(segment(t.literal(true), 'true')).to.equal(true);
      expect(segment(t.literal(-1.5), '-1.5')).to.equal(-1.5);
      expect(segment(t.literal('x y'), 'x y')).to.equal('x y');
      const e = refusedSegment(t.enum(['red', 'green']), 'blue', 'type_mismatch');
      expect(e.message).to.include('one of "red", "green"').and.include('"blue"');
      refusedSegment(t.enum([1, 2]), '01', 'type_mismatch');
      refusedSegment(t.literal(1), '1.0', 'type_mismatch');
    });
    it('reads strings as they are, with their constraints', () => {
      expect(segment(t.string(), 'café ☕')).to.equal('café ☕');
      expect(segment(t.string({ pattern: '^[a-z]+$' }), 'abc')).to.equal('abc');
      refusedSegment(t.string({ pattern: '^[a-z]+$' }), 'ab1', 'invalid_format');
      refusedSegment(t.string({ maxLength: 2 }), 'abc', 'out_of_range');
      refusedSegment(t.string({ format: 'uuid' }), 'nope', 'invalid_format');
    });
  });

  describe('timestamps and bytes, as their JSON text', () => {
    it('reads RFC 3339 date-times', () => {
      expect((segment(t.timestamp(), '2024-02-29T12:30:00.125Z') as Date).toISOString()).to.equal(
        '2024-02-29T12:30:00.125Z',
      );
      expect((segment(t.timestamp(), '2024-01-01T01:00:00+01:00') as Date).toISOString()).to.equal(
        '2024-01-01T00:00:00.000Z',
      );
      for (const text of ['2024-02-30T00:00:00Z', '1700000000000', 'yesterday', ''])
        refusedSegment(t.timestamp(), text, 'type_mismatch');
    });
    it('reads strict padded base64 in the query', () => {
      const read = textReader([], [p('b', t.bytes())]);
      expect(read({}, 'b=AQID%2F%2B8%3D').b).to.deep.equal(new Uint8Array([1, 2, 3, 255, 239]));
      expect(read({}, 'b=').b).to.deep.equal(new Uint8Array(0));
      for (const text of ['AQI', 'AQID%3D', '*Q%3D%3D']) {
        const e = failure(() => read({}, `b=${text}`));
        expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/b']);
      }
    });
  });

  describe('the query string', () => {
    const Search = t.object({
      query: t.string(),
      limit: t.optional(t.u16({ maximum: 100 })),
      tags: t.array(t.string()),
    });
    const search = (opts?: Opts) =>
      textReader([p('id', t.u64())], [p('q', Search), p('sort', t.enum(['new', 'old']))], opts);

    it('reads an object spread over its members, an array as a repeated key, path and query together', () => {
      expect(search()({ id: '7' }, 'query=cats&limit=5&tags=a&tags=b&sort=old')).to.deep.equal({
        id: 7n,
        q: { query: 'cats', limit: 5, tags: ['a', 'b'] },
        sort: 'old',
      });
    });

    it('reads + as a space and percent-encoded UTF-8, in keys and values', () => {
      const read = textReader([], [p('a b', t.string()), p('s', t.string())]);
      expect(read({}, 'a+b=x+y%2B%20z&s=caf%C3%A9%F0%9F%98%80')).to.deep.equal({ 'a b': 'x y+ z', s: 'café😀' });
      expect(read({}, 'a%20b=%26%3D&s=')).to.deep.equal({ 'a b': '&=', s: '' });
    });

    it('skips empty pairs and reads a key without = as the empty value', () => {
      const read = textReader([], [p('a', t.string()), p('b', t.array(t.string()))]);
      expect(read({}, '&a&&b=&b=x&')).to.deep.equal({ a: '', b: ['', 'x'] });
    });

    it('answers a malformed or non-UTF-8 percent-encoding with syntax_error at the parameter', () => {
      const read = textReader([], [p('s', t.string()), p('tags', t.array(t.string()))]);
      for (const [query, path] of [
        ['s=%', '/s'],
        ['s=%4', '/s'],
        ['s=%zz', '/s'],
        ['s=%FF', '/s'],
        ['s=%C3', '/s'],
        ['s=%ED%A0%80', '/s'],
        ['tags=a&tags=%E2%82', '/tags/1'],
      ] as const) {
        const e = failure(() => read({}, query));
        expect([e.code, e.path], query).to.deep.equal(['syntax_error', path]);
      }
    });

    it('stops at the first key or value that does not decode: one syntax_error, however many follow', () => {
      const read = textReader([], [p('tags', t.array(t.string())), p('s', t.optional(t.string()))]);
      const malformed = Array.from({ length: 1_500 }, () => 'tags=%ZZ').join('&');
      for (const [query, path] of [
        [`tags=ok&${malformed}`, '/tags/1'],
        [`s=1&s=2&${malformed}&x=1`, '/tags/0'],
        [`%ZZ=1&${malformed}`, ''],
      ] as const) {
        const e = failure(() => read({}, query));
        expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([['syntax_error', path]]);
      }
    });

    it('decodes exactly the percent-encodings decodeURIComponent decodes, and refuses the others', () => {
      const read = textReader([], [p('s', t.string())]);
      const piece = fc.constantFrom(
        '%',
        'a',
        '+',
        '%2',
        '%20',
        '%7e',
        '%7F',
        '%80',
        '%BF',
        '%C0',
        '%C1',
        '%C2',
        '%C3',
        '%A9',
        '%DF',
        '%E0',
        '%A0',
        '%9F',
        '%ED',
        '%EF',
        '%F0',
        '%8F',
        '%90',
        '%F4',
        '%F5',
        '%FF',
        '%gg',
        '%e2%82%ac',
        '%f0%9f%98%80',
        '%ed%a0%80',
        '%f4%90%80%80',
        '%c0%af',
      );
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
          const raw = pieces.join('');
          let expected: string | undefined;
          try {
            expected = decodeURIComponent(raw.replace(/\+/g, ' '));
          } catch {
            expected = undefined;
          }
          let got: unknown;
          try {
            got = read({}, `s=${raw}`).s;
          } catch (e) {
            expect((e as ReadError).code, raw).to.equal('syntax_error');
            got = undefined;
          }
          expect(got, raw).to.equal(expected);
        }),
        { numRuns: 2_000 },
      );
    });

    it('answers a key that does not decode, or a raw character that must be encoded, with syntax_error at the root, whatever errorOnUnknownKeys says', () => {
      for (const opts of [{}, { errorOnUnknownKeys: false }]) {
        const read = textReader([], [p('s', t.optional(t.string()))], opts);
        for (const query of ['%zz=1', 's=a b', 'é=1', 's=\u0000']) {
          const e = failure(() => read({}, query));
          expect(e.code, query).to.equal('syntax_error');
        }
      }
    });

    it('answers a scalar given twice with type_mismatch, at the parameter or member', () => {
      let e = failure(() => search()({ id: '1' }, 'sort=new&sort=old&query=x'));
      expect([e.code, e.path, e.message]).to.deep.equal([
        'type_mismatch',
        '/sort',
        'expected one value, got 2 at /sort',
      ]);
      e = failure(() => search()({ id: '1' }, 'query=x&limit=1&limit=2&limit=3'));
      expect([e.code, e.path, e.message]).to.deep.equal([
        'type_mismatch',
        '/q/limit',
        'expected one value, got 3 at /q/limit',
      ]);
    });

    it('names the parameter, the member, the element in the error path, and lists every error', () => {
      const read = textReader([p('id', t.u64()), p('at', t.timestamp())], [p('q', Search), p('n', t.array(t.i8()))]);
      const e = failure(() => read({ id: 'x', at: '2024-01-01T00:00:00Z' }, 'query=a&limit=101&tags=ok&n=1&n=200&n=x'));
      expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([
        ['type_mismatch', '/id'],
        ['out_of_range', '/q/limit'],
        ['out_of_range', '/n/1'],
        ['type_mismatch', '/n/2'],
      ]);
      expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/id']);
    });

    describe('unknown keys', () => {
      it('are unknown_key at the root with errorOnUnknownKeys (the default), after the other errors', () => {
        const e = failure(() => search()({ id: '1' }, 'query=x&limit=x&page=2&id=3'));
        expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([
          ['type_mismatch', '/q/limit'],
          ['unknown_key', '/page'],
          ['unknown_key', '/id'],
        ]);
        expect(e.errors[1]!.message).to.equal("unknown key 'page' at the root");
      });
      it('are dropped with errorOnUnknownKeys: false', () => {
        expect(search({ errorOnUnknownKeys: false })({ id: '1' }, 'page=2&query=x&id=3&q=1')).to.deep.equal({
          id: 1n,
          q: { query: 'x', tags: [] },
          sort: 'new',
        });
      });
      it('include the name of an object spread over the query: only its members are keys', () => {
        const e = failure(() => search()({ id: '1' }, 'q=x'));
        expect([e.code, e.path]).to.deep.equal(['unknown_key', '/q']);
      });
      it('are unknown keys on a route with path parameters only, past the fast path', () => {
        const read = textReader([p('id', t.u64())], []);
        const e = failure(() => read({ id: '1' }, 'x=1'));
        expect([e.code, e.path]).to.deep.equal(['unknown_key', '/x']);
        expect(textReader([p('id', t.u64())], [], { errorOnUnknownKeys: false })({ id: '1' }, 'x=1')).to.deep.equal({
          id: 1n,
        });
      });
    });

    describe('missing keys follow the object rules', () => {
      const Words = t.object({ query: t.string(), words: t.array(t.string()), near: t.optional(t.string()) });
      const params = [
        p('limit', t.u16()),
        p('page', t.u16().default(1)),
        p('after', t.optional(t.string())),
        p('tags', t.array(t.string())),
        p('q', Words),
      ];
      it('take their defaults without errorOnMissingKeys (the default); optional ones stay absent; arrays are empty', () => {
        const out = textReader([], params)({}, '');
        expect(out).to.deep.equal({ limit: 0, page: 1, tags: [], q: { query: '', words: [] } });
        expect('after' in out).to.equal(false);
      });
      it('are missing_key with errorOnMissingKeys, members of a spread object at their path, arrays as any member; never an optional', () => {
        const e = failure(() => textReader([], params, { errorOnMissingKeys: true })({}, ''));
        expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([
          ['missing_key', '/limit'],
          ['missing_key', '/page'],
          ['missing_key', '/tags'],
          ['missing_key', '/q/query'],
          ['missing_key', '/q/words'],
        ]);
        expect(
          textReader([], params, { errorOnMissingKeys: true })({}, 'limit=1&page=2&tags=a&query=x&words=b'),
        ).to.deep.equal({ limit: 1, page: 2, tags: ['a'], q: { query: 'x', words: ['b'] } });
      });
      it('read an absent optional array as absent, and a defaulted one as its default', () => {
        const read = textReader(
          [],
          [p('tags', t.optional(t.array(t.string()))), p('ids', t.array(t.u8()).default([]))],
          { errorOnMissingKeys: 'unless-default' },
        );
        const out = read({}, '');
        expect(out).to.deep.equal({ ids: [] });
        expect('tags' in out).to.equal(false);
        expect(read({}, 'tags=a&ids=1&tags=b')).to.deep.equal({ tags: ['a', 'b'], ids: [1] });
      });
      it('follow the spread object’s requiresKey', () => {
        const Loose = t.object({ a: t.string(), b: t.string() }, { requiresKey: (key) => key === 'b' });
        const e = failure(() => textReader([], [p('o', Loose)], { errorOnMissingKeys: true })({}, 'a=1'));
        expect(e.errors.map((x) => [x.code, x.path])).to.deep.equal([['missing_key', '/o/b']]);
      });
      it('refuse the absent key of an array that cannot be empty, as a body’s absent member', () => {
        const e = failure(() => textReader([], [p('ids', t.array(t.u8(), { minItems: 1 }))])({}, ''));
        expect([e.code, e.path]).to.deep.equal(['missing_key', '/ids']);
      });
    });

    it('reads a member named like a property of Object.prototype from the query only', () => {
      const read = textReader([], [p('o', t.object({ constructor: t.optional(t.string()), toString: t.string() }))]);
      expect(read({}, '')).to.deep.equal({ o: { toString: '' } });
      expect(read({}, 'constructor=x&toString=y')).to.deep.equal({ o: { constructor: 'x', toString: 'y' } });
    });

    it('refuses a query longer than maxBytes with limit_exceeded', () => {
      const e = failure(() => textReader([], [p('s', t.string())], { maxBytes: 10 })({}, 's=01234567890'));
      expect([e.code, e.path]).to.deep.equal(['limit_exceeded', '']);
    });

    it('lists at most MAX_READ_ERRORS errors for a query of thousands of unknown keys', () => {
      const e = failure(() => textReader([], [])({}, Array.from({ length: 5000 }, (_, i) => `k${i}=1`).join('&')));
      expect(e.errors).to.have.length(100);
    });
  });

  describe('path parameters', () => {
    it('give the same value and the same errors with or without a query', () => {
      const read = textReader([p('a', t.u64()), p('b', t.enum(['x', 'y']))], [], { errorOnUnknownKeys: false });
      expect(read({ a: '5', b: 'y' }, '')).to.deep.equal(read({ a: '5', b: 'y' }, 'z=1'));
      const bare = failure(() => read({ a: '-5', b: 'q' }, ''));
      const withQuery = failure(() => read({ a: '-5', b: 'q' }, 'z=1'));
      expect(bare.errors).to.deep.equal(withQuery.errors);
      expect(bare.errors.map((x) => [x.code, x.path])).to.deep.equal([
        ['out_of_range', '/a'],
        ['type_mismatch', '/b'],
      ]);
    });
    it('read a segment named like a property of Object.prototype from the segments’ own values only', () => {
      const read = textReader([p('constructor', t.string())], [], { errorOnMissingKeys: true });
      const e = failure(() => read({}, ''));
      expect([e.code, e.path]).to.deep.equal(['missing_key', '/constructor']);
      expect(read({ constructor: 'x' } as Record<string, string>, '')).to.deep.equal({ constructor: 'x' });
    });
  });

  describe('descriptors without a text form', () => {
    it('are refused when the reader is built, with the reason naming the parameter and kind', () => {
      expect(() => textReader([p('id', t.optional(t.u64()))], [])).to.throw(TypeError, "path parameter 'id'");
      expect(() => textReader([], [p('m', t.map(t.string()))])).to.throw(TypeError, /query parameter 'm'.*t\.map/);
      expect(() => textReader([], [p('o', t.object({ deep: t.object({}) }))])).to.throw(TypeError, /member 'deep'/);
      expect(() => textReader([], [p('a', t.object({ x: t.string() })), p('b', t.object({ x: t.i8() }))])).to.throw(
        TypeError,
        "query key 'x'",
      );
    });
  });
});
