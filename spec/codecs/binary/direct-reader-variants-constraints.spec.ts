// The MessagePack and CBOR direct readers on the descriptor kinds beyond records of scalars:
// t.variant (read when the discriminant is the first member of each member object, as writers
// write it), t.timestamp, constraints (checked, and given up on when one fails, so the read pass
// gives the error), t.lazy (compiled on first use), and what they leave to the tree path
// (t.unknown, a variant whose discriminant comes later). For every input they give up or give
// exactly what the parser and the shared read pass give; on what lacquer writes they do not give
// up. The JSON direct reader's counterpart is spec/codecs/json/direct-reader-constraints.spec.ts.
import { expect } from 'chai';
import fc from 'fast-check';
import { generatedSource, t, type Type } from '../../../index.ts';
import { resolveReadOptions, type MissingKeys } from '../../../core/options.ts';
import { arbMissingKeys } from '../../support/arbitraries.ts';
import { readTree } from '../../../core/read/read.ts';
import { directlyReadable, type ReadWire } from '../../../codecs/binary/direct-reader.ts';
import { guideOf } from '../../../codecs/binary/guide.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { DIRECT_COMPILERS, DIRECT_FORMATS, GAVE_UP, runDirect } from '../../support/direct-formats.ts';
import { decodeOutcome } from '../../support/read-outcome.ts';

interface Options {
  errorOnMissingKeys: MissingKeys;
  errorOnUnknownKeys: boolean;
  maxDepth: number;
}

const STRICT: Options = { errorOnMissingKeys: true, errorOnUnknownKeys: true, maxDepth: 64 };
const arbOptions: fc.Arbitrary<Options> = fc.record({
  errorOnMissingKeys: arbMissingKeys,
  errorOnUnknownKeys: fc.boolean(),
  maxDepth: fc.oneof(fc.constant(64), fc.integer({ min: 1, max: 4 })),
});

/** The value, or the error (code, path, message, every entry) as `decode` throws it. */
const outcome = (read: () => unknown) => decodeOutcome(read, true);

// ---- Descriptors --------------------------------------------------------------------------------

const Point = t.object({ x: t.f64(), y: t.f64() }, { name: 'Point' });
const Circle = t.object(
  { kind: t.literal('circle'), id: t.u32(), center: Point, radius: t.f64(), label: t.string() },
  { name: 'Circle' },
);
const Rect = t.object(
  { kind: t.literal('rect'), id: t.u32(), origin: Point, width: t.f64(), height: t.f64(), filled: t.bool() },
  { name: 'Rect' },
);
const Polygon = t.object(
  { kind: t.literal('polygon'), id: t.u32(), points: t.array(Point), note: t.optional(t.string()) },
  { name: 'Polygon' },
);
const Shape = t.variant('kind', [Circle, Rect, Polygon]);
const Drawing = t.object({ shapes: t.array(Shape), main: t.nullable(Shape) });

const shapes = [
  { kind: 'circle', id: 1, center: { x: 1.5, y: -2 }, radius: 3, label: 'c' },
  { kind: 'rect', id: 2, origin: { x: 0, y: 0 }, width: 4.25, height: 1e300, filled: true },
  {
    kind: 'polygon',
    id: 3,
    points: [
      { x: 1, y: 2 },
      { x: 3, y: 4 },
    ],
    note: 'five',
  },
  { kind: 'polygon', id: 4, points: [] },
];

/** Discriminants of every literal kind but strings. */
const Numbered = t.variant('v', [
  t.object({ v: t.literal(1), a: t.i32() }),
  t.object({ v: t.literal(2.5), b: t.string() }),
  t.object({ v: t.literal(true), c: t.bool() }),
  t.object({ v: t.literal(false), d: t.timestamp() }),
  t.object({ v: t.literal(-7), e: t.u64() }),
]);
const numbered = [
  { v: 1, a: -3 },
  { v: 2.5, b: 'x' },
  { v: true, c: false },
  { v: false, d: new Date(-5) },
  { v: -7, e: 2n ** 64n - 1n },
];

/** A member whose discriminant is not its first member: writers write `id` first. */
const Late = t.variant('kind', [
  t.object({ kind: t.literal('a'), n: t.i32() }),
  t.object({ id: t.u32(), kind: t.literal('b') }),
]);

const Event = t.object(
  { id: t.u32(), at: t.timestamp(), until: t.optional(t.timestamp()), log: t.array(t.timestamp()) },
  { name: 'Event' },
);
const events = [
  { id: 1, at: new Date(0), log: [] },
  {
    id: 2,
    at: new Date('1969-07-20T20:17:40.001Z'),
    until: new Date('2106-02-07T06:28:16Z'),
    log: [new Date(-1), new Date(2 ** 34 * 1000 + 5)],
  },
  {
    id: 3,
    at: new Date(8.64e15),
    log: [new Date(-8.64e15), new Date('2514-05-30T01:53:04.999Z'), new Date((2 ** 32 - 1) * 1000)],
  },
];

const Constrained = t.object({
  name: t.string({ minLength: 2, maxLength: 5, pattern: '^[a-z]' }),
  email: t.optional(t.string({ format: 'email' })),
  n: t.i32({ minimum: -5, exclusiveMaximum: 5 }),
  big: t.u64({ maximum: 2n ** 40n, exclusiveMinimum: 1n }),
  ratio: t.f32({ minimum: 0.25, maximum: 1.5 }),
  x: t.f64({ exclusiveMinimum: 0 }),
  tags: t.array(t.string(), { minItems: 1, maxItems: 3 }),
});
/** The same shape without constraints: it writes what `Constrained` refuses. */
const Loose = t.object({
  name: t.string(),
  email: t.optional(t.string()),
  n: t.i32(),
  big: t.u64(),
  ratio: t.f32(),
  x: t.f64(),
  tags: t.array(t.string()),
});
const fine = { name: 'abc', email: 'a@b.co', n: 4, big: 2n ** 40n, ratio: 1.5, x: 5e-324, tags: ['t'] };

interface Tree {
  v: number;
  kids: Tree[];
}
const Tree: Type = t.object({ v: t.i32({ minimum: 0 }), kids: t.array(t.lazy(() => Tree)) }, { name: 'Tree' });
const tree = (depth: number, width = 2): Tree => ({
  v: depth,
  kids: depth === 0 ? [] : Array.from({ length: width }, () => tree(depth - 1, width)),
});
/** A chain of `t.lazy` through a variant back to itself. */
const Expr: Type = t.variant('op', [
  t.object({ op: t.literal('num'), value: t.f64() }),
  t.object({ op: t.literal('add'), left: t.lazy(() => Expr), right: t.lazy(() => Expr) }),
  t.object({ op: t.literal('neg'), arg: t.optional(t.lazy(() => Expr)) }),
]);
const expr = {
  op: 'add',
  left: { op: 'num', value: 1 },
  right: { op: 'neg', arg: { op: 'add', left: { op: 'num', value: 2 }, right: { op: 'neg' } } },
};

for (const f of DIRECT_FORMATS) {
  /** What the parser and the shared read pass give. */
  const slow = (type: Type, bytes: Uint8Array, opts: Options) =>
    outcome(() => readTree(type, f.parse(bytes, opts.maxDepth, type), opts, 'binary'));

  for (const { name, compile } of DIRECT_COMPILERS) {
    describe(`codecs/${f.name}: the ${name} direct reader on variants, timestamps, constraints and t.lazy`, () => {
      const direct = (type: Type, bytes: Uint8Array, opts: Options = STRICT): unknown => {
        const ctx = { ...resolveReadOptions(opts), source: 'binary' as const };
        return runDirect(compile(type, ctx, f.wire as ReadWire, f.encodeKey), bytes);
      };
      /** Gives up, or gives what the slow path gives (which then succeeds). */
      const agrees = (type: Type, bytes: Uint8Array, opts: Options = STRICT) => {
        const fast = direct(type, bytes, opts);
        if (fast !== GAVE_UP) expect({ value: fast }).to.deep.equal(slow(type, bytes, opts));
        return fast;
      };
      /** Reads lacquer's own bytes of a valid value without giving up, to the value itself. */
      const readsOwn = (type: Type, value: unknown, opts: Options = STRICT) => {
        const bytes = f.codec.encode(type, value as never);
        expect(direct(type, bytes, opts)).to.deep.equal(value);
        expect(slow(type, bytes, opts)).to.deep.equal({ value });
      };

      it('reads each member of a variant whose discriminant comes first, nested, nullable and in arrays', () => {
        expect(directlyReadable(Shape, 64)).to.equal(true);
        for (const shape of shapes) readsOwn(Shape, shape);
        readsOwn(Drawing, { shapes, main: null });
        readsOwn(Drawing, { shapes: [], main: shapes[1] });
      });

      it('reads number and boolean discriminants', () => {
        expect(directlyReadable(Numbered, 64)).to.equal(true);
        for (const value of numbered) readsOwn(Numbered, value);
        readsOwn(t.array(Numbered), numbered);
      });

      it('gives up on an unknown or missing discriminant, one out of place, an unknown key, and a member out of order', () => {
        const foreign = [
          { kind: 'triangle', id: 1 },
          { id: 1, center: { x: 0, y: 0 }, radius: 1, label: 'no kind' },
          { id: 1, kind: 'circle', center: { x: 0, y: 0 }, radius: 1, label: 'kind second' },
          { kind: 'circle', id: 1, center: { x: 0, y: 0 }, radius: 1, label: 'extra', extra: true },
          { kind: 'circle', id: 1, radius: 1, center: { x: 0, y: 0 }, label: 'swapped' },
          { kind: 'circle', id: 1, center: { x: 0, y: 0 }, radius: 1 },
          { kind: 7 },
          [],
          'circle',
        ];
        for (const value of foreign) {
          const bytes = f.foreign(value);
          expect(direct(Shape, bytes), JSON.stringify(value)).to.equal(GAVE_UP);
          for (const opts of [
            STRICT,
            { ...STRICT, errorOnUnknownKeys: false },
            { ...STRICT, errorOnMissingKeys: false },
          ]) {
            expect(
              outcome(() => f.codec.decode(Shape, bytes, opts)),
              JSON.stringify(value),
            ).to.deep.equal(slow(Shape, bytes, opts));
          }
        }
        // The read pass answers: the same value or error as ever.
        expect(f.codec.decode(Shape, f.foreign(foreign[2]))).to.deep.equal({
          kind: 'circle',
          id: 1,
          center: { x: 0, y: 0 },
          radius: 1,
          label: 'kind second',
        });
        const unknown = readErrorOf(() => f.codec.decode(Shape, f.foreign(foreign[0])));
        expect([unknown.code, unknown.path]).to.deep.equal(['type_mismatch', '/kind']);
        expect(unknown.message).to.contain('expected one of "circle", "rect", "polygon", got "triangle"');
        const missing = readErrorOf(() => f.codec.decode(Shape, f.foreign(foreign[1]), { errorOnMissingKeys: false }));
        expect([missing.code, missing.path]).to.deep.equal(['missing_key', '/kind']);
      });

      it('reads absent members of the chosen member as their defaults when keys may be missing', () => {
        const bytes = f.foreign({ kind: 'rect', id: 9 });
        const loose = { ...STRICT, errorOnMissingKeys: false };
        expect(agrees(Shape, bytes, loose)).to.deep.equal({
          kind: 'rect',
          id: 9,
          origin: { x: 0, y: 0 },
          width: 0,
          height: 0,
          filled: false,
        });
        expect(direct(Shape, bytes)).to.equal(GAVE_UP);
      });

      it('leaves a variant whose discriminant is not first in a member to the tree path', () => {
        expect(directlyReadable(Late, 64)).to.equal(false);
        expect(directlyReadable(t.array(Late), 64)).to.equal(false);
        for (const value of [
          { kind: 'a', n: 1 },
          { id: 2, kind: 'b' },
        ]) {
          const bytes = f.codec.encode(Late, value as never);
          expect(f.codec.decode(Late, bytes, STRICT)).to.deep.equal(value);
        }
        expect(generatedSource(Late, `${f.name}-direct`)).to.equal('');
      });

      it('counts a variant as its member object: one level of nesting, one item of the budget', () => {
        const Boxed = t.array(Shape);
        const bytes = f.codec.encode(Boxed, [shapes[0]!] as never);
        // The array is 1 deep, the member object 2, its Point 3.
        expect(direct(Boxed, bytes, { ...STRICT, maxDepth: 2 })).to.equal(GAVE_UP);
        expect(direct(Boxed, bytes, { ...STRICT, maxDepth: 3 })).to.deep.equal([shapes[0]]);
        expect(readErrorOf(() => f.codec.decode(Boxed, bytes, { maxDepth: 2 })).code).to.equal('limit_exceeded');
        expect(directlyReadable(Boxed, 2)).to.equal(false);
        expect(directlyReadable(t.array(t.variant('k', [t.object({ k: t.literal(1) })])), 2)).to.equal(true);
        // Three items: the array, the member object, its Point.
        expect(f.codec.decode(Boxed, bytes, { maxItems: 3 })).to.deep.equal([shapes[0]]);
        expect(readErrorOf(() => f.codec.decode(Boxed, bytes, { maxItems: 2 })).code).to.equal('limit_exceeded');
      });

      it('reads timestamps in the forms lacquer writes, before 1970 and after 2106 and 2514', () => {
        for (const event of events) readsOwn(Event, event);
        readsOwn(t.timestamp(), new Date(1714566896123));
        readsOwn(t.nullable(t.timestamp()), null);
      });

      it('gives up on timestamps it does not take, and agrees on every encoding another library writes', () => {
        // Other widths and forms: the tree path reads them.
        const other =
          f.name === 'msgpack'
            ? [
                'c7 04 ff 00 00 00 01',
                'c7 0c ff 00 00 00 00 40 00 00 00 00 00 00 00',
                'd7 ff ff ff ff ff 00 00 00 00',
                'd4 ff 00',
                'd6 01 00 00 00 01',
              ]
            : [
                'c1 fa 3f c0 00 00',
                'c1 f9 3c 00',
                'c1 c2 41 05',
                'c0 61 78',
                'c1 1b 00 00 07 db a8 21 80 01',
                'c1 fb 7f f0 00 00 00 00 00 00',
                'c1 60',
                'd9 d9 f7 c1 01',
              ];
        for (const item of other) {
          const bytes = Uint8Array.from(item.split(' '), (h) => parseInt(h, 16));
          expect(direct(t.timestamp(), bytes), item).to.equal(GAVE_UP);
          expect(
            outcome(() => f.codec.decode(t.timestamp(), bytes)),
            item,
          ).to.deep.equal(slow(t.timestamp(), bytes, STRICT));
        }
        fc.assert(
          fc.property(fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }), (date) => {
            agrees(Event, f.foreign({ id: 1, at: date, log: [date] }));
            agrees(t.timestamp(), f.codec.encode(t.timestamp(), date));
          }),
          { numRuns: 200 },
        );
        // CBOR writes seconds with a fraction as a float64, which holds every millisecond up to
        // 2^40 seconds (year 36812) from the epoch; MessagePack holds them all.
        const far = f.name === 'cbor' ? 2 ** 40 * 1000 : 8.64e15;
        fc.assert(
          fc.property(fc.date({ min: new Date(-far), max: new Date(far), noInvalidDate: true }), (date) =>
            readsOwn(t.timestamp(), date),
          ),
          { numRuns: 200 },
        );
      });

      it('checks every constraint, giving up when one fails so that the read pass gives the error', () => {
        readsOwn(Constrained, fine);
        const { email: _, ...noEmail } = fine;
        readsOwn(Constrained, { ...noEmail, n: -5, big: 2n, ratio: 0.25, tags: ['a', 'b', 'c'] });
        const broken: [Record<string, unknown>, string, string][] = [
          [{ name: 'a' }, '/name', 'out_of_range'],
          [{ name: 'abcdef' }, '/name', 'out_of_range'],
          [{ name: 'Abc' }, '/name', 'invalid_format'],
          [{ email: 'nope' }, '/email', 'invalid_format'],
          [{ n: 5 }, '/n', 'out_of_range'],
          [{ n: -6 }, '/n', 'out_of_range'],
          [{ big: 2n ** 40n + 1n }, '/big', 'out_of_range'],
          [{ big: 1n }, '/big', 'out_of_range'],
          [{ ratio: 1.5000001 }, '/ratio', 'out_of_range'],
          [{ ratio: 0.2 }, '/ratio', 'out_of_range'],
          [{ x: 0 }, '/x', 'out_of_range'],
          [{ tags: [] }, '/tags', 'out_of_range'],
          [{ tags: ['a', 'b', 'c', 'd'] }, '/tags', 'out_of_range'],
        ];
        for (const [change, path, code] of broken) {
          const bytes = f.codec.encode(Loose, { ...fine, ...change } as never);
          expect(direct(Constrained, bytes), path).to.equal(GAVE_UP);
          const e = readErrorOf(() => f.codec.decode(Constrained, bytes));
          expect(
            [e.code, e.path],
            JSON.stringify(change, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
          ).to.deep.equal([code, path]);
          expect(outcome(() => f.codec.decode(Constrained, bytes))).to.deep.equal(slow(Constrained, bytes, STRICT));
        }
        // f32 bounds apply to the value rounded to float32: 1.50000001 reads as 1.5.
        const rounded = f.codec.encode(t.object({ ...Loose.fields, ratio: t.f64() }), {
          ...fine,
          ratio: 1.50000001,
        } as never);
        expect(direct(Constrained, rounded)).to.deep.equal({ ...fine, ratio: 1.5 });
      });

      it('reads recursive descriptors through t.lazy, down to maxDepth', () => {
        expect(directlyReadable(Tree, 64)).to.equal(true);
        expect(directlyReadable(Expr, 64)).to.equal(true);
        readsOwn(Tree, tree(3));
        readsOwn(Tree, tree(20, 1));
        readsOwn(Expr, expr);
        // 21 objects and 21 arrays (the last one empty) nested: 42 levels.
        const deep = f.codec.encode(Tree, tree(20, 1) as never);
        expect(direct(Tree, deep, { ...STRICT, maxDepth: 41 })).to.equal(GAVE_UP);
        expect(direct(Tree, deep, { ...STRICT, maxDepth: 42 })).to.deep.equal(tree(20, 1));
        expect(readErrorOf(() => f.codec.decode(Tree, deep, { maxDepth: 41 })).code).to.equal('limit_exceeded');
        expect(f.codec.decode(Tree, deep, { maxDepth: 42 })).to.deep.equal(tree(20, 1));
        const LooseTree: Type = t.object({ v: t.i32(), kids: t.array(t.lazy(() => LooseTree)) });
        const negative = f.codec.encode(LooseTree, { v: 1, kids: [{ v: -1, kids: [] }] } as never);
        expect(direct(Tree, negative)).to.equal(GAVE_UP);
        const e = readErrorOf(() => f.codec.decode(Tree, negative));
        expect([e.code, e.path]).to.deep.equal(['out_of_range', '/kids/0/v']);
      });

      it('compiles a recursive descriptor without following the recursion, and a wide one in bounded time', () => {
        const Wide: Type = t.object({
          a: t.optional(t.lazy(() => Wide)),
          b: t.optional(t.lazy(() => Wide)),
          c: t.optional(t.lazy(() => Wide)),
          n: t.u8(),
        });
        expect(directlyReadable(Wide, 64)).to.equal(true);
        const ctx = { ...resolveReadOptions(STRICT), source: 'binary' as const };
        const read = compile(Wide, ctx, f.wire as ReadWire, f.encodeKey);
        const value = { a: { b: { c: { n: 3 }, n: 2 }, n: 1 }, c: { n: 4 }, n: 0 };
        expect(runDirect(read, f.codec.encode(Wide, value as never))).to.deep.equal(value);
      });

      it('treats a t.lazy member as its target: an optional one read as nil is left out', () => {
        const Maybe = t.object({ a: t.lazy(() => t.optional(t.i32())), b: t.i32() });
        const nil = f.codec.encode(t.object({ a: t.nullable(t.i32()), b: t.i32() }), { a: null, b: 2 });
        expect(direct(Maybe, nil)).to.deep.equal({ b: 2 });
        expect(Object.keys(direct(Maybe, nil) as object)).to.deep.equal(['b']);
        expect(slow(Maybe, nil, STRICT)).to.deep.equal({ value: { b: 2 } });
        readsOwn(Maybe, { a: 1, b: 2 });
      });

      it('leaves t.unknown to the tree path', () => {
        for (const type of [
          t.unknown(),
          t.object({ a: t.i32(), rest: t.unknown() }),
          t.array(t.optional(t.unknown())),
        ]) {
          expect(directlyReadable(type, 64), type.kind).to.equal(false);
        }
        expect(direct(t.unknown(), f.codec.encode(t.i32(), 1))).to.equal(GAVE_UP);
      });
    });
  }

  describe(`codecs/${f.name}: direct readers and guided trees agree with the whole tree on variants, timestamps, constraints and t.lazy (property)`, () => {
    const both = (type: Type, bytes: Uint8Array, opts: Options) => {
      const ctx = { ...resolveReadOptions(opts), source: 'binary' as const };
      const reference = slow(type, bytes, opts);
      for (const { compile } of DIRECT_COMPILERS) {
        const fast = runDirect(compile(type, ctx, f.wire as ReadWire, f.encodeKey), bytes);
        if (fast !== GAVE_UP) expect({ value: fast }).to.deep.equal(reference);
      }
      // And the codec, whichever path it takes, gives exactly what the tree path gives.
      expect(outcome(() => f.codec.decode(type, bytes, opts))).to.deep.equal(reference);
      // The tree the descriptor's guide builds reads as the whole tree does.
      const whole = outcome(() => readTree(type, f.parse(bytes, opts.maxDepth, undefined, Infinity), opts, 'binary'));
      expect(
        outcome(() => readTree(type, f.parse(bytes, opts.maxDepth, type, Infinity), opts, 'binary')),
      ).to.deep.equal(whole);
      return reference;
    };

    it('never gives up on what lacquer writes for a value the descriptor takes, and agrees on the rest', () => {
      fc.assert(
        fc.property(arbPair, fc.nat(), ({ strict, loose, values }, pick) => {
          const value = values[pick % values.length];
          const bytes = f.codec.encode(loose, value as never);
          const reference = both(strict, bytes, STRICT);
          if (directlyReadable(strict, 64) && 'value' in (reference as object)) {
            const ctx = { ...resolveReadOptions(STRICT), source: 'binary' as const };
            for (const { name, compile } of DIRECT_COMPILERS) {
              expect(runDirect(compile(strict, ctx, f.wire as ReadWire, f.encodeKey), bytes), name).not.to.equal(
                GAVE_UP,
              );
            }
          }
        }),
        { numRuns: 300 },
      );
    });

    it('agrees on values another library writes, with keys moved, added and left out', () => {
      /** `value` with each object's keys rotated by `seed`, and now and then one key dropped or one added. */
      const scramble = (value: unknown, seed: number): unknown => {
        if (Array.isArray(value)) return value.map((v, i) => scramble(v, seed + i));
        if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof Uint8Array)
          return value;
        const entries = Object.entries(value).map(([k, v], i) => [k, scramble(v, seed + i + 1)] as const);
        const turn = entries.length === 0 ? 0 : seed % entries.length;
        const moved = [...entries.slice(turn), ...entries.slice(0, turn)];
        if (seed % 7 === 3) moved.shift();
        if (seed % 5 === 4) moved.push(['extra', 1]);
        return Object.fromEntries(moved);
      };
      fc.assert(
        fc.property(arbPair, arbOptions, fc.nat(), fc.nat(), ({ strict, values }, opts, pick, seed) => {
          both(strict, f.foreign(scramble(values[pick % values.length], seed)), opts);
        }),
        { numRuns: 400 },
      );
    });

    it('agrees on mutated and truncated encodings, whatever the options', () => {
      fc.assert(
        fc.property(
          arbPair,
          arbOptions,
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
          fc.boolean(),
          ({ strict, loose, values }, opts, at, byte, cut) => {
            const bytes = f.codec.encode(loose, values[at % values.length] as never).slice();
            const i = at % bytes.length;
            bytes[i] = byte;
            both(strict, cut ? bytes.subarray(0, i) : bytes, opts);
          },
        ),
        { numRuns: 400 },
      );
    });
  });
}

describe('codecs/binary: guides of variants, recursive descriptors, t.unknown and t.timestamp', () => {
  it("a variant guide takes every member's keys, each as any member takes it", () => {
    const V = t.variant('k', [
      t.object({ k: t.literal('a'), x: t.array(t.i32()), y: t.bytes() }),
      t.object({ k: t.literal('b'), x: t.map(t.i32()), z: t.string() }),
    ]);
    const g = guideOf(V);
    expect([g.record, g.array, g.bytes]).to.deep.equal([true, false, false]);
    expect([...g.fields!.keys()]).to.deep.equal(['k', 'x', 'y', 'z']);
    const x = g.fields!.get('x')!;
    expect([x.array, x.record]).to.deep.equal([true, true]);
    expect(g.fields!.get('y')!.bytes).to.equal(true);
  });

  it('a recursive descriptor has a finite guide that refers to itself', () => {
    expect(guideOf(Tree).fields!.get('kids')!.element).to.equal(guideOf(Tree));
    const e = guideOf(Expr);
    expect(e.fields!.get('left')).to.equal(e);
    expect(e.fields!.get('arg')).to.equal(e);
  });

  it('t.unknown takes everything, t.timestamp nothing but scalars', () => {
    const u = guideOf(t.unknown());
    expect([u.array, u.record, u.bytes]).to.deep.equal([true, true, true]);
    const s = guideOf(t.timestamp());
    expect([s.array, s.record, s.bytes]).to.deep.equal([false, false, false]);
  });
});

// ---- Arbitraries ---------------------------------------------------------------------------------

/**
 * A descriptor with constraints (`strict`), the same shape without them (`loose`, which writes
 * values `strict` refuses), and values for `loose` near `strict`'s bounds.
 */
interface Pair {
  readonly strict: Type;
  readonly loose: Type;
  readonly values: readonly unknown[];
}

const dates = fc.oneof(
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }),
  fc.constantFrom(new Date(0), new Date(-1), new Date(2 ** 32 * 1000), new Date(2 ** 34 * 1000 - 1), new Date(8.64e15)),
);

const leafPair: fc.Arbitrary<Pair> = fc.oneof(
  fc
    .array(dates, { minLength: 1, maxLength: 3 })
    .map((values) => ({ strict: t.timestamp(), loose: t.timestamp(), values })),
  fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 3 }).map((values) => ({
    strict: t.string({ minLength: 1, maxLength: 3, pattern: '^[^b]' }),
    loose: t.string(),
    values,
  })),
  fc
    .array(fc.constantFrom('a@b.co', 'nope', '', 'x@y'), { minLength: 1, maxLength: 2 })
    .map((values) => ({ strict: t.string({ format: 'email' }), loose: t.string(), values })),
  fc
    .array(fc.integer({ min: -10, max: 10 }), { minLength: 1, maxLength: 3 })
    .map((values) => ({ strict: t.i32({ minimum: -5, exclusiveMaximum: 5 }), loose: t.i32(), values })),
  fc
    .array(fc.bigInt({ min: 0n, max: 2n ** 41n }), { minLength: 1, maxLength: 3 })
    .map((values) => ({ strict: t.u64({ maximum: 2n ** 40n }), loose: t.u64(), values })),
  fc
    .array(fc.float({ noNaN: true, noDefaultInfinity: true, min: -2, max: 2 }), { minLength: 1, maxLength: 3 })
    .map((values) => ({ strict: t.f32({ minimum: 0.5 }), loose: t.f32(), values })),
  fc
    .array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 3 })
    .map((values) => ({ strict: t.f64({ exclusiveMinimum: 0 }), loose: t.f64(), values })),
);

const arbPair: fc.Arbitrary<Pair> = fc.letrec<{ pair: Pair }>((tie) => ({
  pair: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: leafPair },
    {
      weight: 1,
      arbitrary: tie('pair').chain((e) =>
        fc
          .array(fc.array(fc.constantFrom(...e.values), { maxLength: 4 }), { minLength: 1, maxLength: 3 })
          .map((values) => ({
            strict: t.array(e.strict, { minItems: 1, maxItems: 2 }),
            loose: t.array(e.loose),
            values,
          })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(tie('pair'), tie('pair')).map(([a, b]) => ({
        strict: t.object({ a: a.strict, b: t.optional(b.strict) }),
        loose: t.object({ a: a.loose, b: t.optional(b.loose) }),
        values: a.values.flatMap((x, i) => [{ a: x, b: b.values[i % b.values.length] }, { a: x }]),
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          tie('pair'),
          tie('pair'),
          fc.constantFrom<[string | number | boolean, string | number | boolean]>(['x', 'y'], [1, 2], [true, 'no']),
        )
        .map(([a, b, [p, q]]) => {
          const members = (x: Type, y: Type) =>
            [t.object({ kind: t.literal(p), one: x }), t.object({ kind: t.literal(q), two: y, n: t.u8() })] as const;
          return {
            strict: t.variant('kind', members(a.strict, b.strict)),
            loose: t.variant('kind', members(a.loose, b.loose)),
            values: [
              ...a.values.map((one) => ({ kind: p, one })),
              ...b.values.map((two, i) => ({ kind: q, two, n: i })),
            ],
          };
        }),
    },
    {
      weight: 1,
      // A list through t.lazy: a node and, maybe, the next one.
      arbitrary: tie('pair').map((e) => {
        const node = (leaf: Type): Type => {
          const Node: Type = t.object({ v: leaf, next: t.optional(t.lazy(() => Node)) });
          return Node;
        };
        const chain = (n: number): unknown => ({
          v: e.values[n % e.values.length],
          ...(n > 0 ? { next: chain(n - 1) } : {}),
        });
        return { strict: node(e.strict), loose: node(e.loose), values: [chain(0), chain(1), chain(3)] };
      }),
    },
  ),
})).pair;
