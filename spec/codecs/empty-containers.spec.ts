// Empty and one-member containers, and an optional member whose default is `undefined`, through
// every codec's public encode and decode: generated code writes a separator or declares a variable
// per member, and with none it must still write valid JSON and run. Not one report of generated
// code may appear (each would print "a bug in lacquer").
import { expect } from 'chai';
import { onGeneratedCodeError, t, type Codec, type GeneratedCodeError, type Type } from '../../index.ts';
import { resolveReadOptions } from '../../core/options.ts';
import { readersFor } from '../../core/read/read.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

const CODECS: readonly Codec[] = [json, msgpack, cbor];

/** Runs `body` with generated-code reports collected; returns them. */
function reportsOf(body: () => void): GeneratedCodeError[] {
  const reports: GeneratedCodeError[] = [];
  const previous = onGeneratedCodeError((r) => reports.push(r));
  try {
    body();
  } finally {
    onGeneratedCodeError(previous);
  }
  return reports;
}

/** Fresh descriptors each call, so that nothing compiled by an earlier case is reused. */
const SHAPES: readonly (() => { type: Type; value: unknown; text: string })[] = [
  () => ({ type: t.tuple([]), value: [], text: '[]' }),
  () => ({ type: t.object({}), value: {}, text: '{}' }),
  () => ({ type: t.object({ a: t.tuple([]), b: t.i32() }), value: { a: [], b: 1 }, text: '{"a":[],"b":1}' }),
  () => ({ type: t.tuple([t.tuple([])]), value: [[]], text: '[[]]' }),
  () => ({ type: t.tuple([t.tuple([]), t.object({})]), value: [[], {}], text: '[[],{}]' }),
  () => ({ type: t.object({ a: t.object({}) }), value: { a: {} }, text: '{"a":{}}' }),
  () => ({ type: t.array(t.tuple([])), value: [[], []], text: '[[],[]]' }),
  () => ({ type: t.map(t.tuple([])), value: { k: [] }, text: '{"k":[]}' }),
  () => ({ type: t.optional(t.tuple([])), value: [], text: '[]' }),
  () => ({
    type: t.object({ one: t.tuple([t.object({ x: t.tuple([]) })]) }),
    value: { one: [{ x: [] }] },
    text: '{"one":[{"x":[]}]}',
  }),
  () => ({
    type: t.variant('kind', [t.object({ kind: t.literal('a'), e: t.tuple([]) })]),
    value: { kind: 'a', e: [] },
    text: '{"kind":"a","e":[]}',
  }),
];

describe('codecs: empty and one-member containers', () => {
  it('json.encode writes an empty tuple as [] at every depth', () => {
    for (const shape of SHAPES) {
      const { type, value, text } = shape();
      expect(json.encode(type, value as never), text).to.equal(text);
    }
  });

  for (const codec of CODECS) {
    it(`${codec.name} writes and reads them back, with no report of generated code`, () => {
      const reports = reportsOf(() => {
        for (const shape of SHAPES) {
          const { type, value, text } = shape();
          expect(codec.decode(type, codec.encode(type, value as never)), text).to.deep.equal(value);
          // Twice: a fast path that threw the first time would now answer through the closures silently.
          expect(codec.decode(type, codec.encode(type, value as never)), text).to.deep.equal(value);
        }
      });
      expect(reports.map((r) => `${r.phase} ${r.sourceUrl}: ${String(r.error)}`)).to.deep.equal([]);
    });
  }
});

describe('codecs: an optional member with .default(undefined)', () => {
  const fields = () => ({ a: t.optional(t.i32()).default(undefined), b: t.i32() });

  for (const codec of CODECS) {
    it(`${codec.name}: an absent key stays absent, as without a default, and is not written`, () => {
      const T = t.object(fields());
      const decoded = codec.decode(T, codec.encode(t.object({ b: t.i32() }), { b: 1 }));
      expect(decoded).to.deep.equal({ b: 1 });
      expect(Object.hasOwn(decoded, 'a'), 'the key a').to.equal(false);
      // Writing skips it as it skips any absent optional member.
      expect(codec.decode(t.map(t.i32()), codec.encode(T, { b: 1 }))).to.deep.equal({ b: 1 });
    });
  }

  it('reads the same on the closure path as on the generated path, at every depth', () => {
    const T = t.object({ inner: t.object(fields()), list: t.array(t.object(fields())) });
    const tree = { inner: { b: 1 }, list: [{ b: 2 }] };
    for (const source of ['json', 'binary'] as const) {
      const { read, closures } = readersFor(T, resolveReadOptions(undefined), source);
      const expected = { inner: { b: 1 }, list: [{ b: 2 }] };
      const generated = read(tree) as typeof expected;
      const closure = closures(tree) as typeof expected;
      expect(generated, `${source} generated`).to.deep.equal(expected);
      expect(closure, `${source} closures`).to.deep.equal(expected);
      expect(Object.hasOwn(closure.inner, 'a'), `${source} closures: the key a`).to.equal(false);
      expect(Object.hasOwn(generated.inner, 'a'), `${source} generated: the key a`).to.equal(false);
    }
    // An absent object member's default is an object whose own absent members follow the same rule.
    expect(json.decode(T, '{}')).to.deep.equal({ inner: { b: 0 }, list: [] });
    expect(Object.hasOwn(json.decode(T, '{}').inner, 'a')).to.equal(false);
  });
});
