// Every read error code, with its exact JSON Pointer path and a message a person can act on.
import { expect } from 'chai';
import { t, ReadError, WriteError, DEFAULT_MAX_DEPTH } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { readErrorOf } from '../../support/read-error.ts';

const Book = t.object({ id: t.i32(), title: t.string(), year: t.u16() }, { name: 'Book' });
const Shelf = t.object({ books: t.array(Book), labels: t.map(t.u8()) });
const books = (...items: string[]) => `{"books":[${items.join(',')}],"labels":{}}`;
const good = '{"id":1,"title":"Dune","year":1965}';

describe('core/errors: read errors', () => {
  it('syntax_error at the root for malformed text, with the parser message', () => {
    const e = readErrorOf(() => json.decode(Shelf, '{"books": [}'));
    expect(e.code).to.equal('syntax_error');
    expect(e.path).to.equal('');
    expect(e.message).to.match(/^invalid JSON: .+ at the root$/);
  });

  it('type_mismatch with the path of the offending value', () => {
    const e = readErrorOf(() => json.decode(Shelf, books(good, good, good, '{"id":4,"title":5,"year":1}')));
    expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/books/3/title']);
    expect(e.message).to.equal('expected a string, got the integer 5 at /books/3/title');
  });

  it('out_of_range for an integer outside its kind', () => {
    const e = readErrorOf(() => json.decode(Shelf, books(good, '{"id":2,"title":"x","year":65536}')));
    expect([e.code, e.path]).to.deep.equal(['out_of_range', '/books/1/year']);
    expect(e.message).to.equal('65536 is outside u16 (0..65535) at /books/1/year');
  });

  it('out_of_range in a map value, with the map key in the path', () => {
    const e = readErrorOf(() => json.decode(Shelf, '{"books":[],"labels":{"ok":1,"bad":256}}'));
    expect([e.code, e.path]).to.deep.equal(['out_of_range', '/labels/bad']);
  });

  it('type_mismatch for a fraction where an integer is expected', () => {
    const e = readErrorOf(() => json.decode(Book, '{"id":1.5,"title":"x","year":1}'));
    expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/id']);
  });

  it('missing_key names the key; the path points at it', () => {
    const e = readErrorOf(() => json.decode(Shelf, books(good, '{"id":2,"year":1}'), { errorOnMissingKeys: true }));
    expect([e.code, e.key, e.path]).to.deep.equal(['missing_key', 'title', '/books/1/title']);
  });

  it('unknown_key names the key; the path points at it', () => {
    const e = readErrorOf(() => json.decode(Shelf, books(good, '{"id":2,"title":"x","year":1,"isbn":"0"}')));
    expect([e.code, e.key, e.path]).to.deep.equal(['unknown_key', 'isbn', '/books/1/isbn']);
    expect(e.message).to.equal("unknown key 'isbn' at /books/1");
  });

  it('shows a key of the input cut after 100 characters, in every codec, in its message, path, key and errors', () => {
    const long = `${'é'.repeat(99)}😀${'x'.repeat(10_000)}`;
    // A surrogate pair at the cut is left out whole.
    const shown = `${'é'.repeat(99)}…`;
    const inputs = [
      () => json.decode(Shelf, `{"books":[],"labels":{},${JSON.stringify(long)}:1}`),
      () => msgpack.decode(Shelf, msgpack.encode(t.unknown(), { books: [], labels: {}, [long]: 1 })),
      () => cbor.decode(Shelf, cbor.encode(t.unknown(), { books: [], labels: {}, [long]: 1 })),
    ];
    for (const read of inputs) {
      const e = readErrorOf(read);
      expect([e.code, e.path, e.key, e.message]).to.deep.equal([
        'unknown_key',
        `/${shown}`,
        shown,
        `unknown key '${shown}' at the root`,
      ]);
      expect(e.errors.every((x) => x.path.length < 200 && x.message.length < 300)).to.equal(true);
    }
    const inMap = readErrorOf(() => json.decode(Shelf, `{"books":[],"labels":{${JSON.stringify(long)}:256}}`));
    expect([inMap.code, inMap.path]).to.deep.equal(['out_of_range', `/labels/${shown}`]);
  });

  it('drops unknown keys when errorOnUnknownKeys is false', () => {
    const value = json.decode(Book, '{"id":2,"isbn":"0","title":"x","year":1}', { errorOnUnknownKeys: false });
    expect(value).to.deep.equal({ id: 2, title: 'x', year: 1 });
    expect(Object.keys(value)).to.deep.equal(['id', 'title', 'year']);
  });

  it('limit_exceeded for input over maxBytes', () => {
    const e = readErrorOf(() => json.decode(Book, good, { maxBytes: 10 }));
    expect([e.code, e.path]).to.deep.equal(['limit_exceeded', '']);
    expect(e.message).to.contain('maxBytes (10)');
  });

  it(`limit_exceeded for nesting deeper than maxDepth (default ${DEFAULT_MAX_DEPTH})`, () => {
    let deep: ReturnType<typeof t.array> = t.array(t.i8());
    for (let i = 1; i < DEFAULT_MAX_DEPTH; i++) deep = t.array(deep);
    const text = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(json.decode(deep, text(DEFAULT_MAX_DEPTH))).to.be.an('array');
    const wrapped = t.array(deep);
    const e = readErrorOf(() => json.decode(wrapped, text(DEFAULT_MAX_DEPTH + 1)));
    expect([e.code, e.path]).to.deep.equal(['limit_exceeded', '/0'.repeat(DEFAULT_MAX_DEPTH)]);
    expect(json.decode(wrapped, text(DEFAULT_MAX_DEPTH + 1), { maxDepth: DEFAULT_MAX_DEPTH + 1 })).to.be.an('array');
  });

  it('escapes "/" and "~" in keys as RFC 6901 requires', () => {
    const T = t.object({ 'a/b': t.map(t.i8()) });
    const e = readErrorOf(() => json.decode(T, '{"a/b":{"~x":"no"}}'));
    expect(e.path).to.equal('/a~1b/~0x');
  });

  it('is a ReadError and an Error, with name ReadError', () => {
    const e = readErrorOf(() => json.decode(Book, 'nope'));
    expect(e).to.be.instanceOf(ReadError).and.instanceOf(Error);
    expect(e.name).to.equal('ReadError');
  });

  it('is recognised by instanceof across two copies of the package', async () => {
    const secondCopy = '../../../core/errors/read-error.ts?second-copy'; // a query string loads the module anew
    const copy = (await import(secondCopy)) as typeof import('../../../core/errors/read-error.ts');
    expect(copy.ReadError).not.to.equal(ReadError);
    const e = new copy.ReadError('type_mismatch', '/x', 'from the other copy');
    expect(e).to.be.instanceOf(ReadError);
    expect(new Error('plain')).not.to.be.instanceOf(ReadError);
  });

  it('WriteError too is recognised by instanceof across two copies of the package', async () => {
    const secondCopy = '../../../core/errors/write-error.ts?second-copy';
    const copy = (await import(secondCopy)) as typeof import('../../../core/errors/write-error.ts');
    expect(copy.WriteError).not.to.equal(WriteError);
    expect(new copy.WriteError('out_of_range', '/x', 'from the other copy')).to.be.instanceOf(WriteError);
    expect(new copy.WriteError('out_of_range', '/x', 'from the other copy')).not.to.be.instanceOf(ReadError);
    expect(new ReadError('type_mismatch', '/x', 'a read error')).not.to.be.instanceOf(WriteError);
  });
});
