// t.variant and t.lazy in the shared read pass: how each reads, fails and counts toward maxDepth,
// on the generated path and the closure path alike.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, generatedSource, standardSchema, type Infer, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { readTree } from '../../../core/read/read.ts';
import { canGenerateCode } from '../../../core/codegen/codegen.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { closureOutcome, generatedOutcome } from '../../support/read-outcome.ts';

const Circle = t.object({ type: t.literal('circle'), r: t.f64() }, { name: 'Circle' });
const Square = t.object(
  { type: t.literal('square'), side: t.f64(), label: t.optional(t.string()) },
  { name: 'Square' },
);
const Shape = t.variant('type', [Circle, Square]);

/** The error `read` throws, as code, path and message. */
const failure = (read: () => unknown) => {
  const e = readErrorOf(read);
  return [e.code, e.path, e.message];
};

describe('core/read: t.variant', () => {
  it('reads the member its discriminant names, and the member reads the whole value', () => {
    expect(json.decode(Shape, '{"type":"circle","r":2}')).to.deep.equal({ type: 'circle', r: 2 });
    expect(json.decode(Shape, '{"side":3,"type":"square"}')).to.deep.equal({ type: 'square', side: 3 });
    expect(
      json.decode(t.array(Shape), '[{"type":"square","side":1,"label":"a"},{"type":"circle","r":0.5}]'),
    ).to.deep.equal([
      { type: 'square', side: 1, label: 'a' },
      { type: 'circle', r: 0.5 },
    ]);
  });

  it('refuses a value that is not an object, naming the discriminant', () => {
    expect(failure(() => json.decode(Shape, '[1]'))).to.deep.equal([
      'type_mismatch',
      '',
      'expected an object (variant on "type"), got an array at the root',
    ]);
    expect(failure(() => json.decode(t.object({ s: Shape }), '{"s":null}'))).to.deep.equal([
      'type_mismatch',
      '/s',
      'expected an object (variant on "type"), got null at /s',
    ]);
  });

  it('an absent discriminant is a missing_key at the key, whatever errorOnMissingKeys says', () => {
    for (const errorOnMissingKeys of [false, true]) {
      const e = readErrorOf(() =>
        json.decode(t.array(Shape), '[{"type":"circle","r":1},{"r":1}]', { errorOnMissingKeys }),
      );
      expect([e.code, e.path, e.key, e.message]).to.deep.equal([
        'missing_key',
        '/1/type',
        'type',
        "missing required key 'type' at /1",
      ]);
    }
  });

  it('a discriminant no member has is a type_mismatch at the key naming the allowed values', () => {
    expect(failure(() => json.decode(Shape, '{"type":"triangle"}'))).to.deep.equal([
      'type_mismatch',
      '/type',
      'expected one of "circle", "square", got "triangle" at /type',
    ]);
    expect(failure(() => json.decode(Shape, '{"type":5}'))).to.deep.equal([
      'type_mismatch',
      '/type',
      'expected one of "circle", "square", got 5 at /type',
    ]);
    expect(failure(() => json.decode(Shape, '{"type":null}'))).to.deep.equal([
      'type_mismatch',
      '/type',
      'expected one of "circle", "square", got null at /type',
    ]);
    expect(failure(() => json.decode(Shape, '{"type":{"a":1}}'))).to.deep.equal([
      'type_mismatch',
      '/type',
      'expected one of "circle", "square", got an object at /type',
    ]);
  });

  it('cuts a long discriminant value at 40 characters in the message, never inside a surrogate pair', () => {
    const long = 'x'.repeat(100);
    expect(readErrorOf(() => json.decode(Shape, JSON.stringify({ type: long }))).message).to.equal(
      `expected one of "circle", "square", got "${'x'.repeat(40)}"… at /type`,
    );
    const pairs = `${'x'.repeat(39)}😀😀`;
    expect(readErrorOf(() => json.decode(Shape, JSON.stringify({ type: pairs }))).message).to.equal(
      `expected one of "circle", "square", got "${'x'.repeat(39)}"… at /type`,
    );
  });

  it('takes number and boolean discriminants, compared exactly', () => {
    const V = t.variant('v', [
      t.object({ v: t.literal(1), a: t.string() }),
      t.object({ v: t.literal(true), b: t.string() }),
    ]);
    expect(json.decode(V, '{"v":1,"a":"x"}')).to.deep.equal({ v: 1, a: 'x' });
    expect(json.decode(V, '{"v":true,"b":"y"}')).to.deep.equal({ v: true, b: 'y' });
    expect(failure(() => json.decode(V, '{"v":"1"}'))).to.deep.equal([
      'type_mismatch',
      '/v',
      'expected one of 1, true, got "1" at /v',
    ]);
  });

  it('reads the discriminant as an own property only, as object members are', () => {
    const V = t.variant('constructor', [t.object({ constructor: t.literal('a') })]);
    expect(json.decode(V, '{"constructor":"a"}')).to.deep.equal({ constructor: 'a' });
    const e = readErrorOf(() => json.decode(V, '{}'));
    expect([e.code, e.path]).to.deep.equal(['missing_key', '/constructor']);
  });

  it('the member refuses what it would refuse on its own: unknown keys, missing keys, wrong members', () => {
    expect(failure(() => json.decode(Shape, '{"type":"circle","r":1,"side":2}'))).to.deep.equal([
      'unknown_key',
      '/side',
      "unknown key 'side' at the root",
    ]);
    expect(json.decode(Shape, '{"type":"circle","r":1,"side":2}', { errorOnUnknownKeys: false })).to.deep.equal({
      type: 'circle',
      r: 1,
    });
    expect(failure(() => json.decode(Shape, '{"type":"circle"}', { errorOnMissingKeys: true }))).to.deep.equal([
      'missing_key',
      '/r',
      "missing required key 'r' at the root",
    ]);
    expect(json.decode(Shape, '{"type":"circle"}')).to.deep.equal({ type: 'circle', r: 0 });
    expect(failure(() => json.decode(Shape, '{"type":"square","side":"3"}'))).to.deep.equal([
      'type_mismatch',
      '/side',
      'expected a number (f64), got a string at /side',
    ]);
  });

  it('is no container of its own: its member object is the container that counts toward maxDepth', () => {
    expect(json.decode(Shape, '{"type":"circle","r":1}', { maxDepth: 1 })).to.deep.equal({ type: 'circle', r: 1 });
    expect(failure(() => json.decode(t.array(Shape), '[{"type":"circle","r":1}]', { maxDepth: 1 }))).to.deep.equal([
      'limit_exceeded',
      '/0',
      'nesting deeper than maxDepth (1) at /0',
    ]);
  });

  it("an absent variant member reads as the first member's default; it is required under errorOnMissingKeys", () => {
    const Drawing = t.object({ shape: Shape });
    expect(json.decode(Drawing, '{}')).to.deep.equal({ shape: { type: 'circle', r: 0 } });
    expect(failure(() => json.decode(Drawing, '{}', { errorOnMissingKeys: true }))).to.deep.equal([
      'missing_key',
      '/shape',
      "missing required key 'shape' at the root",
    ]);
    const WithDefault = t.object({ shape: Shape.default({ type: 'square', side: 1 }) });
    expect(json.decode(WithDefault, '{}')).to.deep.equal({ shape: { type: 'square', side: 1 } });
  });

  it('reads plain JavaScript values (the binary tree) the same way', () => {
    expect(readTree(Shape, { type: 'square', side: 2 }, undefined, 'binary')).to.deep.equal({
      type: 'square',
      side: 2,
    });
    expect(failure(() => readTree(Shape, { type: 'oval' }, undefined, 'binary'))).to.deep.equal([
      'type_mismatch',
      '/type',
      'expected one of "circle", "square", got "oval" at /type',
    ]);
    expect(standardSchema(Shape)['~standard'].validate(new Uint8Array(2))).to.deep.equal({
      issues: [{ message: 'expected an object (variant on "type"), got bytes at the root', path: [] }],
    });
  });

  it("is generated inline: a switch on the discriminant calling each member's function", function () {
    if (!canGenerateCode()) this.skip();
    const Shapes = t.array(t.variant('type', [Circle, Square]));
    json.decode(Shapes, '[]');
    const source = generatedSource(Shapes, 'read');
    expect(source).to.match(
      /switch \(v\["type"\]\) \{\n\s+case "circle": return f\d+\(v\);\n\s+case "square": return f\d+\(v\);/,
    );
  });

  it('the generated path and the closure path give the same value or the same error', () => {
    const Tagged = t.variant('kind', [
      t.object({ kind: t.literal('a'), n: t.u8() }),
      t.object({ kind: t.literal(2), s: t.optional(t.string()) }),
      t.object({ kind: t.literal(false) }),
    ]);
    const types: Type[] = [Tagged, t.array(Tagged), t.object({ v: Tagged, w: t.nullable(Tagged) })];
    const arbKind = fc.constantFrom<unknown>('a', 2, false, 'b', '2', 0, null, undefined);
    const arbMember = fc.record(
      {
        kind: arbKind,
        n: fc.oneof(fc.integer({ min: -1, max: 300 }), fc.string()),
        s: fc.oneof(fc.string(), fc.constant(null)),
        x: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    const arbTree = fc.oneof(
      arbMember,
      fc.array(arbMember, { maxLength: 3 }),
      fc.record({ v: arbMember, w: fc.oneof(arbMember, fc.constant(null)) }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const arbOptions = fc.record({
      errorOnMissingKeys: fc.boolean(),
      errorOnUnknownKeys: fc.boolean(),
      maxDepth: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        arbTree,
        arbOptions,
        fc.constantFrom('json', 'binary' as const),
        (type, tree, opts, source) => {
          expect(generatedOutcome(type, tree, opts, source)).to.deep.equal(closureOutcome(type, tree, opts, source));
        },
      ),
      { numRuns: 400 },
    );
  });
});

interface TreeNode {
  name: string;
  children: TreeNode[];
}
const Tree: Type<TreeNode> = t.object({ name: t.string(), children: t.array(t.lazy(() => Tree)) }, { name: 'Tree' });

/** A tree of `levels` levels, each node with one child but the last. */
function chain(levels: number): TreeNode {
  let node: TreeNode = { name: `n${levels}`, children: [] };
  for (let i = levels - 1; i >= 1; i--) node = { name: `n${i}`, children: [node] };
  return node;
}

describe('core/read: t.lazy', () => {
  it('reads a recursive descriptor at every depth', () => {
    const value = chain(10);
    expect(json.decode(Tree, JSON.stringify(value))).to.deep.equal(value);
    expect(readTree(Tree, value, undefined, 'binary')).to.deep.equal(value);
  });

  it('gives the path of an error deep inside', () => {
    const bad = chain(4);
    bad.children[0]!.children[0]!.children[0]!.name = 5 as never;
    expect(failure(() => json.decode(Tree, JSON.stringify(bad)))).to.deep.equal([
      'type_mismatch',
      '/children/0/children/0/children/0/name',
      'expected a string, got the integer 5 at /children/0/children/0/children/0/name',
    ]);
  });

  it('is no container: depth counts the objects and arrays it leads to, as for any descriptor', () => {
    // Each level of the tree is an object and its children array: 3 levels nest 6 containers (the last array empty).
    const text = JSON.stringify(chain(3));
    expect(json.decode(Tree, text, { maxDepth: 6 })).to.deep.equal(chain(3));
    expect(failure(() => json.decode(Tree, text, { maxDepth: 5 }))).to.deep.equal([
      'limit_exceeded',
      '/children/0/children/0/children',
      'nesting deeper than maxDepth (5) at /children/0/children/0/children',
    ]);
    const deep = JSON.stringify(chain(40));
    expect(readErrorOf(() => json.decode(Tree, deep)).code).to.equal('limit_exceeded');
  });

  it('compiles a bounded number of readers: one per depth level, not one per node', () => {
    interface Node {
      left: Node | null;
      right: Node | null;
    }
    const Node: Type<Node> = t.object({ left: t.nullable(t.lazy(() => Node)), right: t.nullable(t.lazy(() => Node)) });
    // Count how often anything compiles the descriptor: each compilation reads its kind a few times.
    let reads = 0;
    Object.defineProperty(Node, 'kind', { get: () => (reads++, 'object') });
    const full = (levels: number): Node | null =>
      levels === 0 ? null : { left: full(levels - 1), right: full(levels - 1) };
    const value = full(14); // 16,383 nodes, 14 levels of objects
    expect(json.decode(Node, JSON.stringify(value), { maxDepth: 20 })).to.deep.equal(value);
    expect(reads).to.be.below(200);
  });

  it("reads the target's nullable and optional forms: an optional target is left out when absent and not required", () => {
    const Maybe = t.object({ a: t.lazy(() => t.optional(t.string())), b: t.lazy(() => t.nullable(t.string())) });
    expect(json.decode(Maybe, '{}')).to.deep.equal({ b: null });
    expect(json.decode(Maybe, '{}', { errorOnMissingKeys: true })).to.deep.equal({ b: null });
    expect(Object.keys(json.decode(Maybe, '{"a":null,"b":null}'))).to.deep.equal(['b']);
    expect(json.decode(Maybe, '{"a":"x","b":"y"}')).to.deep.equal({ a: 'x', b: 'y' });
  });

  it("takes the lazy node's own default, else the target's", () => {
    const T = t.object({
      own: t.lazy(() => t.string()).default('mine'),
      target: t.lazy(() => t.string().default('theirs')),
      plain: t.lazy(() => t.u8()),
    });
    expect(json.decode(T, '{}')).to.deep.equal({ own: 'mine', target: 'theirs', plain: 0 });
    const Trees = t.object({ tree: t.lazy(() => Tree) });
    expect(json.decode(Trees, '{}')).to.deep.equal({ tree: { name: '', children: [] } });
  });

  it('calls the function once, on first use, not when the descriptor is made', () => {
    let calls = 0;
    const Late = t.object({ x: t.lazy(() => (calls++, Later)) });
    const Later = t.u8();
    expect(calls).to.equal(0);
    expect(json.decode(Late, '{"x":1}')).to.deep.equal({ x: 1 });
    expect(json.decode(Late, '{"x":2}', { errorOnMissingKeys: true })).to.deep.equal({ x: 2 });
    expect(calls).to.equal(1);
  });

  it('the generated path and the closure path agree on recursive values', () => {
    const arbNode: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.record(
        {
          name: fc.oneof(fc.string({ maxLength: 3 }), fc.integer()),
          children: fc.oneof(
            { maxDepth: 5 },
            fc.constant([]),
            fc.constant('none'),
            fc.array(tie('node'), { maxLength: 3 }),
          ),
        },
        { requiredKeys: ['children'] },
      ),
    })).node;
    fc.assert(
      fc.property(arbNode, fc.integer({ min: 1, max: 8 }), (tree, maxDepth) => {
        const opts = { maxDepth };
        expect(generatedOutcome(Tree, tree, opts, 'json')).to.deep.equal(closureOutcome(Tree, tree, opts, 'json'));
      }),
      { numRuns: 300 },
    );
  });

  it('reads as Infer says', () => {
    const value: Infer<typeof Tree> = json.decode(Tree, '{"name":"a","children":[]}');
    expect(value.children).to.deep.equal([]);
  });
});
