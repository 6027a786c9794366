// A member whose default would break its own constraints is required: reading never makes a value
// that writing would refuse, whatever `errorOnMissingKeys` says, and JSON Schema lists it as required.
import { expect } from 'chai';
import { jsonSchema, t, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { readErrorOf } from '../../support/read-error.ts';

const missing = (type: Type, text: string) => {
  const e = readErrorOf(() => json.decode(type, text));
  return [e.code, e.path];
};

describe('core/read: defaults and constraints', () => {
  it('an absent member whose kind default breaks its constraints is missing_key', () => {
    expect(missing(t.object({ name: t.string({ minLength: 1 }) }), '{}')).to.deep.equal(['missing_key', '/name']);
    expect(missing(t.object({ email: t.string({ format: 'email' }) }), '{}')).to.deep.equal(['missing_key', '/email']);
    expect(missing(t.object({ n: t.i32({ minimum: 1 }) }), '{}')).to.deep.equal(['missing_key', '/n']);
    expect(missing(t.object({ n: t.u64({ exclusiveMinimum: 0n }) }), '{}')).to.deep.equal(['missing_key', '/n']);
    expect(missing(t.object({ tags: t.array(t.string(), { minItems: 1 }) }), '{}')).to.deep.equal([
      'missing_key',
      '/tags',
    ]);
    expect(missing(t.object({ m: t.map(t.bool(), { minProperties: 1 }) }), '{}')).to.deep.equal(['missing_key', '/m']);
  });

  it('so is an object member whose own members would default to a broken value', () => {
    const Outer = t.object({ inner: t.object({ name: t.string({ minLength: 1 }) }) });
    expect(missing(Outer, '{}')).to.deep.equal(['missing_key', '/inner']);
    expect(missing(Outer, '{"inner":{}}')).to.deep.equal(['missing_key', '/inner/name']);
    const Shapes = t.object({
      shape: t.variant('kind', [t.object({ kind: t.literal('a'), size: t.u8({ minimum: 1 }) })]),
    });
    expect(missing(Shapes, '{}')).to.deep.equal(['missing_key', '/shape']);
  });

  it('a default that keeps the constraints fills the absent key as always', () => {
    const Page = t.object({
      limit: t.i32({ minimum: 1, maximum: 100 }).default(10),
      name: t.string({ maxLength: 3 }),
      offset: t.i32({ minimum: 0 }),
      note: t.optional(t.string({ minLength: 1 })),
      tags: t.array(t.string(), { maxItems: 2 }),
    });
    expect(json.decode(Page, '{}')).to.deep.equal({ limit: 10, name: '', offset: 0, tags: [] });
    expect(msgpack.decode(Page, msgpack.encode(Page, { limit: 5, name: 'ab', offset: 1, tags: [] }))).to.deep.equal({
      limit: 5,
      name: 'ab',
      offset: 1,
      tags: [],
    });
  });

  it('a .default() that breaks the constraints makes the key required too', () => {
    expect(missing(t.object({ n: t.i32({ minimum: 1 }).default(0) }), '{}')).to.deep.equal(['missing_key', '/n']);
    expect(json.decode(t.object({ n: t.i32({ minimum: 1 }).default(3) }), '{}')).to.deep.equal({ n: 3 });
  });

  it('JSON Schema lists those keys as required with every option', () => {
    const Person = t.object({ name: t.string({ minLength: 1 }), nick: t.string() });
    for (const errorOnMissingKeys of [false, true]) {
      const schema = jsonSchema(Person, { errorOnMissingKeys });
      expect(schema.required).to.deep.equal(errorOnMissingKeys ? ['name', 'nick'] : ['name']);
    }
  });
});
