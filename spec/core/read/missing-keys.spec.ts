// Section 2.5 of the specification, rule by rule: missing keys, errorOnMissingKeys, requiresKey.
import { expect } from 'chai';
import { t, type ReadError, type Type, type Opts } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { readErrorOf } from '../../support/read-error.ts';

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });
const BookSearchRequest = t.object({
  query: t.string(),
  limit: t.i32().default(10),
  offset: t.i32().default(0),
});
const strict: Opts = { errorOnMissingKeys: true };

const readError = (type: Type, text: string, opts?: Opts): ReadError =>
  readErrorOf(() => json.decode(type, text, opts));

describe('core/read: missing keys (specification section 2.5)', () => {
  describe('with errorOnMissingKeys off (the default)', () => {
    it('accepts an object with every key missing and gives each member its default', () => {
      expect(json.decode(User, '{}')).to.deep.equal({ id: 0n, name: '', weight: 0 });
    });

    it('gives .default() values to absent keys', () => {
      expect(json.decode(BookSearchRequest, '{"query":"dune"}')).to.deep.equal({ query: 'dune', limit: 10, offset: 0 });
    });

    it('never consults requiresKey', () => {
      let calls = 0;
      const T = t.object({ a: t.i32() }, { requiresKey: () => (calls++, true) });
      expect(json.decode(T, '{}')).to.deep.equal({ a: 0 });
      expect(calls).to.equal(0);
    });

    it('fills nested objects, arrays and maps with fresh defaults that are never shared', () => {
      const T = t.object({ inner: t.object({ n: t.i8(), list: t.array(t.string()) }), tags: t.map(t.bool()) });
      const a = json.decode(T, '{}');
      const b = json.decode(T, '{}');
      expect(a).to.deep.equal({ inner: { n: 0, list: [] }, tags: {} });
      a.inner.list.push('x');
      expect(b.inner.list).to.deep.equal([]);
    });

    it('copies an object given to .default() for every read', () => {
      const T = t.object({ point: t.tuple([t.i32(), t.i32()]).default([1, 2]) });
      const first = json.decode(T, '{}');
      first.point[0] = 99;
      expect(json.decode(T, '{}').point).to.deep.equal([1, 2]);
    });

    it('leaves an absent optional key out of the result, and sets an absent nullable key to null', () => {
      const T = t.object({ o: t.optional(t.string()), n: t.nullable(t.string()) });
      const value = json.decode(T, '{}');
      expect(value).to.deep.equal({ n: null });
      expect(Object.keys(value)).to.deep.equal(['n']);
    });
  });

  describe('with errorOnMissingKeys on', () => {
    it('requires non-nullable members (rule 1) and reports missing_key naming the key', () => {
      const e = readError(User, '{"id":1,"weight":2}', strict);
      expect(e.code).to.equal('missing_key');
      expect(e.key).to.equal('name');
      expect(e.path).to.equal('/name');
      expect(e.message).to.equal("missing required key 'name' at the root");
    });

    it('still requires a non-nullable member that has a .default()', () => {
      const e = readError(BookSearchRequest, '{"query":"dune"}', strict);
      expect([e.code, e.path]).to.deep.equal(['missing_key', '/limit']);
    });

    it('does not require nullable members (rule 2): optional and nullable', () => {
      const T = t.object({ id: t.i32(), nick: t.optional(t.string()), email: t.nullable(t.string()) });
      expect(json.decode(T, '{"id":1}', strict)).to.deep.equal({ id: 1, email: null });
    });

    it('succeeds when only optional keys are absent (rule 4)', () => {
      expect(json.decode(User, '{"id":1,"name":"a","weight":0.5}', strict)).to.deep.equal({
        id: 1n,
        name: 'a',
        weight: 0.5,
      });
    });

    it('counts null as present for an optional key: presence is presence', () => {
      const T = t.object({ opt: t.optional(t.i32()) }, { requiresKey: () => true });
      expect(json.decode(T, '{"opt":null}', strict)).to.deep.equal({});
      expect(readError(T, '{}', strict).code).to.equal('missing_key');
    });

    it('refuses null for a non-nullable key as type_mismatch, not missing_key', () => {
      const e = readError(User, '{"id":1,"name":null,"weight":1}', strict);
      expect([e.code, e.path]).to.deep.equal(['type_mismatch', '/name']);
    });

    it('applies at every depth: nested objects', () => {
      const T = t.object({ owner: User });
      expect(readError(T, '{"owner":{"id":1,"name":"a"}}', strict).path).to.equal('/owner/weight');
    });

    it('applies at every depth: arrays of objects', () => {
      const T = t.object({ users: t.array(User) });
      const e = readError(T, '{"users":[{"id":1,"name":"a","weight":1},{"id":2,"weight":1}]}', strict);
      expect([e.code, e.path, e.message]).to.deep.equal([
        'missing_key',
        '/users/1/name',
        "missing required key 'name' at /users/1",
      ]);
    });

    it('applies at every depth: map values', () => {
      const T = t.map(User);
      const e = readError(T, '{"ann":{"id":1,"name":"a","weight":1},"bob":{"name":"b","weight":1}}', strict);
      expect([e.code, e.path]).to.deep.equal(['missing_key', '/bob/id']);
    });
  });

  describe('requiresKey', () => {
    it('is asked about each key with whether its member is nullable', () => {
      const seen: [string, boolean][] = [];
      const T = t.object(
        { a: t.i32(), b: t.optional(t.i32()), c: t.nullable(t.i32()) },
        { requiresKey: (key, isNullable) => (seen.push([key, isNullable]), !isNullable) },
      );
      json.decode(T, '{"a":1}', strict);
      // Decided once per key when the reader is compiled (possibly more than once: fast and safe paths).
      expect([...new Map(seen)]).to.deep.equal([
        ['a', false],
        ['b', true],
        ['c', true],
      ]);
    });

    it('makes a non-nullable member optional by returning false (rule 1); it keeps its default', () => {
      const T = t.object({ id: t.i32(), note: t.string() }, { requiresKey: (key) => key !== 'note' });
      expect(json.decode(T, '{"id":7}', strict)).to.deep.equal({ id: 7, note: '' });
      expect(readError(T, '{"note":"x"}', strict).path).to.equal('/id');
    });

    it('excludes keys by name pattern: a leading underscore (rule 2)', () => {
      const T = t.object(
        { id: t.i32(), _etag: t.string(), _rev: t.i32() },
        { requiresKey: (key, n) => !key.startsWith('_') && !n },
      );
      expect(json.decode(T, '{"id":1}', strict)).to.deep.equal({ id: 1, _etag: '', _rev: 0 });
    });

    it('excludes keys by a given prefix (rule 2)', () => {
      const T = t.object(
        { name: t.string(), debugLevel: t.i8(), debugTag: t.string() },
        { requiresKey: (key) => !key.startsWith('debug') },
      );
      expect(json.decode(T, '{"name":"n"}', strict)).to.deep.equal({ name: 'n', debugLevel: 0, debugTag: '' });
      expect(readError(T, '{"debugLevel":1}', strict).key).to.equal('name');
    });

    it('makes every key optional but one (rule 3)', () => {
      const T = t.object({ id: t.u64(), a: t.string(), b: t.f64() }, { requiresKey: (key) => key === 'id' });
      expect(json.decode(T, '{"id":3}', strict)).to.deep.equal({ id: 3n, a: '', b: 0 });
      expect(readError(T, '{"a":"x","b":1}', strict).key).to.equal('id');
    });

    it('makes every key required, nullable ones included (rule 3, fixed rule)', () => {
      const T = t.object({ a: t.optional(t.i32()), b: t.nullable(t.i32()) }, { requiresKey: () => true });
      expect(readError(T, '{"b":null}', strict).key).to.equal('a');
      expect(readError(T, '{"a":1}', strict).key).to.equal('b');
      expect(json.decode(T, '{"a":1,"b":null}', strict)).to.deep.equal({ a: 1, b: null });
    });

    it('makes every key optional (rule 3, fixed rule)', () => {
      const T = t.object({ a: t.i32(), b: t.string() }, { requiresKey: () => false });
      expect(json.decode(T, '{}', strict)).to.deep.equal({ a: 0, b: '' });
    });

    it('applies to the object it is declared on only, not to nested ones', () => {
      const Inner = t.object({ x: t.i32() });
      const Outer = t.object({ inner: Inner, y: t.i32() }, { requiresKey: () => false });
      expect(readError(Outer, '{"inner":{}}', strict).path).to.equal('/inner/x');
    });
  });
});
