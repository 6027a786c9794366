import { expect } from 'chai';
import { t, type Type } from '../../../../index.ts';
import {
  paramsProblem,
  queryProblem,
  requiredArrayProblem,
  segmentProblem,
} from '../../../../transports/protocol/params/index.ts';

const SCALARS: readonly [string, Type][] = [
  ['t.string()', t.string({ pattern: '^a' })],
  ['t.bool()', t.bool()],
  ['t.i8()', t.i8()],
  ['t.u32()', t.u32()],
  ['t.i64()', t.i64()],
  ['t.u64()', t.u64({ json: 'string' })],
  ['t.f32()', t.f32()],
  ['t.f64()', t.f64()],
  ['t.timestamp()', t.timestamp()],
  ['t.enum()', t.enum(['a', 2])],
  ['t.literal()', t.literal(null)],
];

const NO_TEXT: readonly [Type, RegExp][] = [
  [t.nullable(t.string()), /t\.nullable.*"null"/],
  [t.unknown(), /t\.unknown\(\)/],
  [t.void(), /t\.void\(\)/],
  [t.map(t.string()), /t\.map/],
  [t.tuple([t.string()]), /t\.tuple/],
  [t.variant('k', [t.object({ k: t.literal('a') })]), /t\.variant/],
  [t.lazy(() => t.string()), /t\.lazy\(\)/],
  [t.enum(['1', 1]), /the values "1" and 1 of t\.enum\(\) have the same text/],
];

describe('transports/protocol/params: which descriptors have a text form', () => {
  describe('a path segment', () => {
    for (const [name, type] of SCALARS) it(`takes ${name}`, () => expect(segmentProblem(type)).to.equal(undefined));
    it('refuses an optional value: a segment is always there', () =>
      expect(segmentProblem(t.optional(t.string()))).to.match(/t\.optional/));
    it("refuses bytes: base64 may hold '/'", () => expect(segmentProblem(t.bytes())).to.match(/t\.bytes.*'\/'/));
    it('refuses arrays and objects', () => {
      expect(segmentProblem(t.array(t.string()))).to.match(/t\.array/);
      expect(segmentProblem(t.object({}))).to.match(/t\.object/);
    });
    for (const [type, reason] of NO_TEXT)
      it(`refuses ${type.kind}, saying why`, () => expect(segmentProblem(type)).to.match(reason));
  });

  describe('the query', () => {
    for (const [name, type] of [...SCALARS, ['t.bytes()', t.bytes()] as const]) {
      it(`takes ${name}, optional or not, and arrays of it`, () => {
        expect(queryProblem(type)).to.equal(undefined);
        expect(queryProblem(t.optional(type))).to.equal(undefined);
        expect(queryProblem(t.array(type, { maxItems: 3 }))).to.equal(undefined);
        expect(queryProblem(t.optional(t.array(type)))).to.equal(undefined);
      });
    }
    it('takes an object of those, spread over the query, and an empty one', () => {
      expect(
        queryProblem(t.object({ q: t.string(), n: t.optional(t.u8()), tags: t.array(t.string()).default([]) })),
      ).to.equal(undefined);
      expect(queryProblem(t.object({}))).to.equal(undefined);
    });
    it('refuses nesting: an object in an object, an array of arrays or of optionals, an optional object', () => {
      expect(queryProblem(t.object({ inner: t.object({}) }))).to.match(/member 'inner'.*the query is flat/);
      expect(queryProblem(t.array(t.array(t.string())))).to.match(/scalars only.*t\.array/);
      expect(queryProblem(t.array(t.optional(t.string())))).to.match(/scalars only.*t\.optional/);
      expect(queryProblem(t.optional(t.array(t.array(t.string()))))).to.match(/scalars only.*t\.array/);
      expect(queryProblem(t.optional(t.object({})))).to.match(
        /optional value holds a scalar or an array only.*t\.object/,
      );
      expect(queryProblem(t.object({ m: t.map(t.string()) }))).to.match(/member 'm'.*t\.map/);
    });
    it('refuses an array whose default is not []: the empty array travels as an absent key, which reads as the default', () => {
      expect(queryProblem(t.array(t.string()).default(['x']))).to.match(/\.default\(\) is not \[\]/);
      expect(queryProblem(t.optional(t.array(t.string())).default(['x']))).to.match(/\.default\(\) is not \[\]/);
      expect(queryProblem(t.array(t.string()).default([]))).to.equal(undefined);
    });
    for (const [type, reason] of NO_TEXT)
      it(`refuses ${type.kind}, saying why`, () => expect(queryProblem(type)).to.match(reason));
  });

  describe('arrays a query cannot send empty', () => {
    const tags = (type: Type) => [{ name: 'tags', type }];
    it('takes every array under errorOnMissingKeys: false (an absent one reads as [])', () => {
      expect(requiredArrayProblem(tags(t.array(t.string())), false)).to.equal(undefined);
    });
    it('refuses a required array that may be empty, naming it and what to declare instead', () => {
      expect(requiredArrayProblem(tags(t.array(t.string())), true)).to.match(
        /^the query parameter 'tags' is required.*empty array.*t\.optional\(t\.array\(\.\.\.\)\)$/,
      );
      expect(requiredArrayProblem(tags(t.array(t.string()).default([])), true)).to.match(/'tags' is required/);
      expect(requiredArrayProblem(tags(t.array(t.string())), 'unless-default')).to.match(/or \.default\(\[\]\)$/);
      expect(requiredArrayProblem([{ name: 'q', type: t.object({ tag: t.array(t.string()) }) }], true)).to.match(
        /^the member 'tag' of the query parameter 'q' is required/,
      );
    });
    it('takes an optional array, a defaulted one under unless-default, and one that is never empty', () => {
      for (const mode of [true, 'unless-default'] as const) {
        expect(requiredArrayProblem(tags(t.optional(t.array(t.string()))), mode)).to.equal(undefined);
        expect(requiredArrayProblem(tags(t.array(t.string(), { minItems: 1 })), mode)).to.equal(undefined);
      }
      expect(requiredArrayProblem(tags(t.array(t.string()).default([])), 'unless-default')).to.equal(undefined);
    });
  });

  describe('a method’s parameters together', () => {
    it('refuse two parameters of one name', () => {
      expect(paramsProblem([{ name: 'id', type: t.u64() }], [{ name: 'id', type: t.string() }])).to.equal(
        "two parameters are named 'id'",
      );
    });
    it('refuse one query key claimed twice, and name both claimants', () => {
      const a = { name: 'a', type: t.object({ x: t.string() }) };
      expect(paramsProblem([], [a, { name: 'b', type: t.object({ x: t.u8() }) }])).to.equal(
        "the query key 'x' belongs to both 'a' and 'b'",
      );
      expect(paramsProblem([], [a, { name: 'x', type: t.u8() }])).to.equal(
        "the query key 'x' belongs to both 'a' and 'x'",
      );
    });
    it('name the parameter whose descriptor has no text form', () => {
      expect(paramsProblem([{ name: 'id', type: t.bytes() }], [])).to.match(/^the path parameter 'id': bytes/);
      expect(paramsProblem([], [{ name: 'q', type: t.unknown() }])).to.match(
        /^the query parameter 'q': t\.unknown\(\)/,
      );
    });
    it("refuse a name no object may have: '__proto__', or one holding a lone surrogate", () => {
      expect(paramsProblem([{ name: '__proto__', type: t.u64() }], [])).to.equal(
        "a parameter may not be named '__proto__'",
      );
      expect(paramsProblem([], [{ name: 'a\ud800', type: t.u64() }])).to.match(
        /the name "a\\ud800" holds a lone surrogate/,
      );
    });
    it('take a path parameter and a spread member of one name (the member is under its object)', () => {
      expect(
        paramsProblem([{ name: 'id', type: t.u64() }], [{ name: 'q', type: t.object({ id: t.string() }) }]),
      ).to.equal(undefined);
    });
  });
});
