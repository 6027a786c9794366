// t.variant and t.lazy on write. A variant's own discriminant picks the member that writes the
// whole value; an unknown one is a type_mismatch at the key naming the allowed values. Recursion
// through t.lazy is bounded by maxDepth, counted in containers as reading counts them, which also
// stops cyclic values.
import { expect } from 'chai';
import fc from 'fast-check';
import { unpack } from 'msgpackr';
import { decode as cborDecode } from 'cbor-x';
import { t, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { msgpack } from '../../../codecs/msgpack/index.ts';
import { cbor } from '../../../codecs/cbor/index.ts';
import { expectGeneratedWrites, expectWriteError, expectWritten } from '../../support/write-paths.ts';

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));

const Circle = t.object({ type: t.literal('circle'), r: t.f64() }, { name: 'Circle' });
const Square = t.object({ type: t.literal('square'), side: t.f64({ minimum: 0 }) }, { name: 'Square' });
const Shape = t.variant('type', [Circle, Square]);

describe('core/write: t.variant()', () => {
  it('writes the member the discriminant names, and only its declared members', () => {
    const written = expectWritten(Shape, { type: 'square', side: 2, r: 5, extra: true });
    expect(written.json).to.equal('{"type":"square","side":2}');
    expect(unpack(fromHex(written.msgpack))).to.deep.equal({ type: 'square', side: 2 });
    expect(cborDecode(fromHex(written.cbor))).to.deep.equal({ type: 'square', side: 2 });
    expect(
      expectWritten(t.array(Shape), [
        { type: 'circle', r: 1 },
        { type: 'square', side: 0 },
      ]).json,
    ).to.equal('[{"type":"circle","r":1},{"type":"square","side":0}]');
  });

  it('takes discriminants that are numbers and booleans', () => {
    const V = t.variant('v', [
      t.object({ v: t.literal(1), a: t.string() }),
      t.object({ v: t.literal(true), b: t.bool() }),
    ]);
    expect(expectWritten(V, { v: 1, a: 'x' }).json).to.equal('{"v":1,"a":"x"}');
    expect(expectWritten(V, { v: true, b: false }).json).to.equal('{"v":true,"b":false}');
    expect(expectWriteError(V, { v: '1', a: 'x' }, 'type_mismatch', '/v')).to.equal(
      'cannot write "1" as one of 1, true at /v',
    );
    expect(expectWriteError(V, { v: 2, a: 'x' }, 'type_mismatch', '/v')).to.equal(
      'cannot write 2 as one of 1, true at /v',
    );
  });

  it('refuses a discriminant no member has, at the key, naming the allowed values', () => {
    expect(expectWriteError(Shape, { type: 'triangle' }, 'type_mismatch', '/type')).to.equal(
      'cannot write "triangle" as one of "circle", "square" at /type',
    );
    const long = 'x'.repeat(100);
    expect(expectWriteError(t.array(Shape), [{ type: long }], 'type_mismatch', '/0/type')).to.equal(
      `cannot write ${JSON.stringify('x'.repeat(40))}… as one of "circle", "square" at /0/type`,
    );
    expectWriteError(Shape, { type: null, r: 1 }, 'type_mismatch', '/type');
    expectWriteError(Shape, { type: { r: 1 } }, 'type_mismatch', '/type');
  });

  it('refuses an absent discriminant as a missing key; one Object.prototype has counts only as an own property', () => {
    expect(expectWriteError(Shape, { r: 1 }, 'missing_key', '/type')).to.equal(
      "cannot write: missing required member 'type' at the root",
    );
    const byConstructor = t.variant('constructor', [t.object({ constructor: t.literal('a') })]);
    expectWriteError(byConstructor, {}, 'missing_key', '/constructor');
    expect(expectWritten(byConstructor, { constructor: 'a' }).json).to.equal('{"constructor":"a"}');
  });

  it('refuses what is not an object', () => {
    for (const bad of [null, 5, 'circle', [], new Uint8Array(1)]) {
      expect(expectWriteError(Shape, bad, 'type_mismatch', '')).to.match(
        /^cannot write .* as an object \(variant on "type"\) at the root$/,
      );
    }
  });

  it("reports the member's own errors at their paths", () => {
    expect(expectWriteError(Shape, { type: 'square', side: -1 }, 'out_of_range', '/side')).to.equal(
      '-1 is below the minimum (0) at /side',
    );
    expectWriteError(
      t.object({ shapes: t.array(Shape) }),
      { shapes: [{ type: 'circle', r: 1 }, { type: 'circle' }] },
      'missing_key',
      '/shapes/1/r',
    );
    expectWriteError(Shape, { type: 'circle', r: 'big' }, 'type_mismatch', '/r');
  });

  it('is written by the generated writers with a switch on the discriminant', () => {
    expectGeneratedWrites(t.object({ shapes: t.array(Shape), main: Shape }), {
      shapes: [
        { type: 'circle', r: 1 },
        { type: 'square', side: 2 },
      ],
      main: { type: 'circle', r: 0.5 },
    });
  });

  it('picks among many members (property)', () => {
    const members = Array.from({ length: 50 }, (_, i) => t.object({ kind: t.literal(`k${i}`), n: t.i32() }));
    const Many = t.variant('kind', members);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 59 }), fc.integer(), (i, n) => {
        if (i < 50) expect(expectWritten(Many, { kind: `k${i}`, n }).json).to.equal(`{"kind":"k${i}","n":${n}}`);
        else expectWriteError(Many, { kind: `k${i}`, n }, 'type_mismatch', '/kind');
      }),
      { numRuns: 100 },
    );
  });
});

interface Tree {
  name: string;
  children: Tree[];
}
const Tree: Type<Tree> = t.object({ name: t.string(), children: t.array(t.lazy(() => Tree)) }, { name: 'Tree' });

interface Node {
  value: number;
  next?: Node | undefined;
}
const Node: Type<Node> = t.object({ value: t.i32(), next: t.optional(t.lazy(() => Node)) }, { name: 'Node' });

/** A list of `n` nodes: `n` nested objects. */
function list(n: number): Node {
  let node: Node = { value: n };
  for (let i = n - 1; i > 0; i--) node = { value: i, next: node };
  return node;
}

/** A tree `levels` objects deep: each level is an object and an array, 2 containers. */
function chain(levels: number): Tree {
  let tree: Tree = { name: `n${levels}`, children: [] };
  for (let i = levels - 1; i > 0; i--) tree = { name: `n${i}`, children: [tree] };
  return tree;
}

describe('core/write: t.lazy()', () => {
  it('writes recursive values as their target', () => {
    const value = {
      name: 'root',
      children: [
        { name: 'a', children: [] },
        { name: 'b', children: [{ name: 'c', children: [] }] },
      ],
    };
    const written = expectWritten(Tree, value);
    expect(written.json).to.equal(JSON.stringify(value));
    expect(unpack(fromHex(written.msgpack))).to.deep.equal(value);
    expect(cborDecode(fromHex(written.cbor))).to.deep.equal(value);
    expect(
      expectWritten(
        t.lazy(() => t.string()),
        'x',
      ).json,
    ).to.equal('"x"');
  });

  it('bounds the recursion by maxDepth, counting containers as reading does', () => {
    // 64 nested objects: the deepest is at depth 64.
    expect(expectWritten(Node, list(64)).json).to.contain('"value":64}');
    const message = expectWriteError(Node, list(65), 'limit_exceeded', '/next'.repeat(64));
    expect(message).to.equal(`nested deeper than maxDepth (64) at ${'/next'.repeat(64)}`);
    // A tree level is an object and an array: 32 levels hold 64 containers.
    expectWritten(Tree, chain(32));
    expectWriteError(Tree, chain(33), 'limit_exceeded', '/children/0'.repeat(32));
  });

  it('takes maxDepth from the options of encode', () => {
    expectWritten(Node, list(3), { maxDepth: 3 });
    expect(expectWriteError(Node, list(4), 'limit_exceeded', '/next/next/next', { maxDepth: 3 })).to.contain(
      'maxDepth (3)',
    );
    expectWriteError(Tree, chain(2), 'limit_exceeded', '/children/0/children', { maxDepth: 3 });
    // The same descriptor with the default options afterwards: compiled apart.
    expectWritten(Node, list(4));
    expect(() => json.encode(Node, list(4), { maxDepth: 3 })).to.throw(/maxDepth \(3\)/);
    expect(() => msgpack.encode(Node, list(100), { maxDepth: 200 })).not.to.throw();
    expect(() => cbor.encode(Node, list(100))).to.throw(/maxDepth \(64\)/);
  });

  it('stops cyclic values with limit_exceeded', () => {
    const node: Node = { value: 1 };
    node.next = node;
    expectWriteError(Node, node, 'limit_exceeded', '/next'.repeat(64));
    const tree: Tree = { name: 'x', children: [] };
    tree.children.push(tree, tree);
    expectWriteError(Tree, tree, 'limit_exceeded', '/children/0'.repeat(32));
    expectWriteError(t.array(Tree), [tree], 'limit_exceeded', '/0' + '/children/0'.repeat(31) + '/children');
  });

  it('leaves the depth of descriptors without t.lazy unchecked: the descriptor bounds it', () => {
    let deep: Type = t.i32();
    let value: unknown = 1;
    for (let i = 0; i < 70; i++) {
      deep = t.array(deep);
      value = [value];
    }
    expect(expectWritten(deep, value).json).to.equal('['.repeat(70) + '1' + ']'.repeat(70));
    expectWritten(deep, value, { maxDepth: 5 });
  });

  it('writes recursive variants (an expression tree)', () => {
    type Expr = { op: 'num'; value: number } | { op: 'add'; left: Expr; right: Expr };
    const Expr: Type<Expr> = t.variant('op', [
      t.object({ op: t.literal('num'), value: t.f64() }),
      t.object({ op: t.literal('add'), left: t.lazy(() => Expr), right: t.lazy(() => Expr) }),
    ]);
    const value: Expr = {
      op: 'add',
      left: { op: 'num', value: 1 },
      right: { op: 'add', left: { op: 'num', value: 2 }, right: { op: 'num', value: 3 } },
    };
    expect(expectWritten(Expr, value).json).to.equal(JSON.stringify(value));
    expectWriteError(
      Expr,
      { op: 'add', left: { op: 'num', value: 1 }, right: { op: 'sub' } },
      'type_mismatch',
      '/right/op',
    );
    let deep: Expr = { op: 'num', value: 0 };
    for (let i = 0; i < 64; i++) deep = { op: 'add', left: deep, right: { op: 'num', value: i } };
    expectWriteError(Expr, deep, 'limit_exceeded', '/left'.repeat(64));
  });

  it('writes what the generated writers write, for random trees (property)', () => {
    const treeOf = (levels: number): fc.Arbitrary<Tree> =>
      fc.record({
        name: fc.string({ maxLength: 3 }),
        children: levels === 0 ? fc.constant([]) : fc.array(treeOf(levels - 1), { maxLength: 3 }),
      });
    const arbTree = fc.integer({ min: 0, max: 4 }).chain(treeOf);
    fc.assert(
      fc.property(arbTree, (tree) => {
        expect(JSON.parse(expectWritten(Tree, tree).json)).to.deep.equal(tree);
      }),
      { numRuns: 200 },
    );
  });
});
