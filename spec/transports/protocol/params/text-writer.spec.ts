import { expect } from 'chai';
import { WriteError, t, type Type } from '../../../../index.ts';
import { textReader, textWriter, type NamedParam } from '../../../../transports/protocol/params/index.ts';

const p = (name: string, type: Type): NamedParam => ({ name, type });

function writeFailure(write: () => unknown): WriteError {
  try {
    write();
  } catch (e) {
    expect(e).to.be.instanceOf(WriteError);
    return e as WriteError;
  }
  expect.fail('expected a WriteError');
}

describe('transports/protocol/params: writing to text', () => {
  describe('path segments', () => {
    const write = textWriter([p('id', t.u64()), p('name', t.string()), p('at', t.timestamp()), p('x', t.f32())], []);

    it('are each value’s text, percent-encoded', () => {
      expect(write.segments({ id: 18446744073709551615n, name: 'a b?é#%', at: new Date(0), x: 0.1 })).to.deep.equal({
        id: '18446744073709551615',
        name: 'a%20b%3F%C3%A9%23%25',
        at: '1970-01-01T00%3A00%3A00.000Z',
        x: '0.1',
      });
    });

    it('refuse a value the descriptor refuses, with WriteError at the parameter, before anything is sent', () => {
      const e = writeFailure(() => write.segments({ id: -1n, name: 'a', at: new Date(0), x: 1 }));
      expect([e.code, e.path]).to.deep.equal(['out_of_range', '/id']);
      const missing = writeFailure(() => write.segments({ id: 1n, at: new Date(0), x: 1 }));
      expect([missing.code, missing.path]).to.deep.equal(['missing_key', '/name']);
      const bad = writeFailure(() => write.segments({ id: 1n, name: 'a', at: new Date(NaN), x: 1 }));
      expect([bad.code, bad.path]).to.deep.equal(['type_mismatch', '/at']);
    });

    it('refuse what cannot arrive as one segment: empty, dot segments, / and \\, control characters', () => {
      const named = textWriter([p('s', t.string())], []);
      for (const value of ['', '.', '..', 'a/b', '/', 'a\\b', 'tab\there', '\u007f']) {
        const e = writeFailure(() => named.segments({ s: value }));
        expect([e.code, e.path], JSON.stringify(value)).to.deep.equal(['invalid_format', '/s']);
        expect(e.message).to.include('as a path segment');
      }
      expect(named.segments({ s: '...' })).to.deep.equal({ s: '...' });
      expect(named.segments({ s: '.a' })).to.deep.equal({ s: '.a' });
    });
  });

  describe('the query string', () => {
    const Search = t.object({
      query: t.string(),
      limit: t.optional(t.u16()),
      tags: t.array(t.string()),
      page: t.u8().default(1),
    });
    const write = textWriter([], [p('q', Search), p('on', t.optional(t.bool())), p('ids', t.array(t.u64()))]);

    it('writes a scalar once, an array as a repeated key, an object spread over its members, percent-encoded', () => {
      expect(
        write.query({ q: { query: 'a&b=c d+é', limit: 5, tags: ['x', ''], page: 2 }, on: true, ids: [1n, 2n] }),
      ).to.equal('query=a%26b%3Dc%20d%2B%C3%A9&limit=5&tags=x&tags=&page=2&on=true&ids=1&ids=2');
    });

    it('leaves out absent optional values (and null ones) and empty arrays; writes the default of an absent member', () => {
      expect(write.query({ q: { query: '', tags: [] }, ids: [] })).to.equal('query=&page=1');
      expect(write.query({ q: { query: 'x', tags: [], limit: null }, on: null, ids: [] })).to.equal('query=x&page=1');
      expect(textWriter([], [p('o', t.optional(t.string()))]).query({})).to.equal('');
      const optionalArray = textWriter([], [p('tags', t.optional(t.array(t.u8())))]);
      expect([
        optionalArray.query({}),
        optionalArray.query({ tags: null }),
        optionalArray.query({ tags: [] }),
        optionalArray.query({ tags: [1, 2] }),
      ]).to.deep.equal(['', '', '', 'tags=1&tags=2']);
    });

    it('writes keys that need encoding encoded', () => {
      expect(textWriter([], [p('a b&=', t.string())]).query({ 'a b&=': '1' })).to.equal('a%20b%26%3D=1');
    });

    it('refuses a value the descriptor refuses with WriteError, at the parameter, member or element', () => {
      for (const [args, code, path] of [
        [{ q: { query: 1, tags: [] }, ids: [] }, 'type_mismatch', '/q/query'],
        [{ q: { tags: [] }, ids: [] }, 'missing_key', '/q/query'],
        [{ q: { query: 'x', tags: [], limit: 70000 }, ids: [] }, 'out_of_range', '/q/limit'],
        [{ q: { query: 'x', tags: ['a', 3] }, ids: [] }, 'type_mismatch', '/q/tags/1'],
        [{ q: { query: 'x', tags: [] }, ids: [1n, -2n] }, 'out_of_range', '/ids/1'],
        [{ q: { query: 'x', tags: [] }, ids: 'no' }, 'type_mismatch', '/ids'],
        [{ q: 'x', ids: [] }, 'type_mismatch', '/q'],
        [{ q: { query: 'x', tags: [] }, on: 'yes', ids: [] }, 'type_mismatch', '/on'],
        [{ q: { query: '\ud800', tags: [] }, ids: [] }, 'type_mismatch', '/q/query'],
      ] as const) {
        const e = writeFailure(() => write.query(args));
        expect(
          [e.code, e.path],
          JSON.stringify(args, (_, v) => (typeof v === 'bigint' ? `${v}n` : v)),
        ).to.deep.equal([code, path]);
      }
    });

    it('refuses an array with a hole, or outside its item bounds', () => {
      const bounded = textWriter([], [p('a', t.array(t.u8(), { minItems: 1, maxItems: 2 }))]);
      // eslint-disable-next-line no-sparse-arrays
      // biome-ignore lint/suspicious/noSparseArray: a hole is the value under test
      expect(writeFailure(() => bounded.query({ a: [1, , 2] })).path).to.equal('/a');
      expect(writeFailure(() => bounded.query({ a: [] })).code).to.equal('out_of_range');
      expect(writeFailure(() => bounded.query({ a: [1, 2, 3] })).code).to.equal('out_of_range');
    });
  });

  it('writes what the reader reads back, an empty array included', () => {
    const path = [p('id', t.i64()), p('kind', t.enum(['a', 1]))];
    const query = [p('tags', t.array(t.string()).default([])), p('at', t.optional(t.timestamp())), p('b', t.bytes())];
    const write = textWriter(path, query);
    const read = textReader(path, query, { errorOnMissingKeys: 'unless-default' });
    const args = { id: -9223372036854775808n, kind: 1, tags: [], b: new Uint8Array([251, 255]) };
    const segments = Object.fromEntries(
      Object.entries(write.segments(args)).map(([k, v]) => [k, decodeURIComponent(v)]),
    );
    expect(read(segments, write.query(args))).to.deep.equal(args);
  });
});
