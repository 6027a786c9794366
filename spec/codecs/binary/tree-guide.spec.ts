// The tree parsers build only what the descriptor can take (codecs/binary/guide.ts): containers and
// byte strings the read pass refuses by kind are checked but not built, the elements of an array
// after one certain to fail are dropped, an object keeps only its declared keys and the undeclared
// key `unknown_key` would name. None of that may change a result: for every descriptor, options
// and input, the guided tree read by the shared read pass gives exactly the value, or exactly the
// error (code, path, message), that the whole tree gives.
import { expect } from 'chai';
import fc from 'fast-check';
import { Encoder as CborXEncoder } from 'cbor-x';
import { Packr } from 'msgpackr';
import { t, type Type } from '../../../index.ts';
import { readTree } from '../../../core/read/read.ts';
import { guideOf, IGNORE, PLACEHOLDER } from '../../../codecs/binary/guide.ts';
import { parseCbor } from '../../../codecs/cbor/parse.ts';
import { parseMsgpack } from '../../../codecs/msgpack/parse.ts';
import { arbDescriptor, arbJsonNear, arbMissingKeys, arbTyped } from '../../support/arbitraries.ts';
import type { MissingKeys } from '../../../core/options.ts';
import { decodeOutcome } from '../../support/read-outcome.ts';
import { arbWireTree, fieldNames, toCbor, toMsgpack } from '../../support/wire-tree.ts';
import { MAX_READ_ERRORS } from '../../../core/errors/read-error.ts';

const packr = new Packr({ useRecords: false, int64AsType: 'bigint' });
const cborX = new CborXEncoder({ useRecords: false, mapsAsObjects: true });

const FORMATS = [
  { name: 'msgpack', parse: parseMsgpack, encode: toMsgpack, foreign: (v: unknown) => packr.pack(v) as Uint8Array },
  { name: 'cbor', parse: parseCbor, encode: toCbor, foreign: (v: unknown) => cborX.encode(v) as Uint8Array },
];

interface Options {
  errorOnMissingKeys: MissingKeys;
  errorOnUnknownKeys: boolean;
  maxDepth: number;
}

const arbOptions: fc.Arbitrary<Options> = fc.record({
  errorOnMissingKeys: arbMissingKeys,
  errorOnUnknownKeys: fc.boolean(),
  maxDepth: fc.oneof(fc.constant(64), fc.integer({ min: 1, max: 4 })),
});

const outcome = (read: () => unknown) => decodeOutcome(read);

for (const f of FORMATS) {
  describe(`codecs/${f.name}: the tree guided by the descriptor`, () => {
    /** Whole tree (no descriptor, no item limit) against guided tree, both through the read pass. */
    const agrees = (type: Type, bytes: Uint8Array, opts: Options) => {
      const whole = outcome(() => readTree(type, f.parse(bytes, opts.maxDepth, undefined, Infinity), opts, 'binary'));
      const guided = outcome(() => readTree(type, f.parse(bytes, opts.maxDepth, type, Infinity), opts, 'binary'));
      expect(guided).to.deep.equal(whole);
    };

    it('gives what the whole tree gives, on hand-made wire near the descriptor (property)', () => {
      const arb = arbDescriptor.chain((type) => fc.tuple(fc.constant(type), arbWireTree([...fieldNames(type)])));
      fc.assert(
        fc.property(arb, arbOptions, ([type, tree], opts) => agrees(type, f.encode(tree), opts)),
        { numRuns: 1500, seed: 20240611 },
      );
    });

    it("gives what the whole tree gives, on values near the descriptor in another encoder's bytes (property)", () => {
      const arb = arbDescriptor.chain((type) => fc.tuple(fc.constant(type), arbJsonNear(type)));
      fc.assert(
        fc.property(arb, arbOptions, ([type, near], opts) => agrees(type, f.foreign(near), opts)),
        { numRuns: 800, seed: 7 },
      );
    });

    it('gives what the whole tree gives, on mutated and truncated encodings (property)', () => {
      fc.assert(
        fc.property(
          arbTyped,
          arbOptions,
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
          fc.boolean(),
          ({ value, type }, opts, at, byte, cut) => {
            const bytes = f.foreign(value).slice();
            if (bytes.length === 0) return;
            const i = at % bytes.length;
            bytes[i] = byte;
            agrees(type, cut ? bytes.subarray(0, i) : bytes, opts);
          },
        ),
        { numRuns: 800, seed: 11 },
      );
    });

    it('the cases the guide is built for give the same errors, and keep nothing of what they skip', () => {
      const opts: Options = { errorOnMissingKeys: false, errorOnUnknownKeys: true, maxDepth: 64 };
      const wire = (tree: Parameters<typeof f.encode>[0]) => f.encode(tree);
      const ints = (n: number) => Array.from({ length: n }, (_, i) => ({ k: 'int' as const, v: i }));
      const bytes = { k: 'bytes' as const, v: new Uint8Array(0) };
      // An array where a scalar is expected: skipped whole.
      const array = wire({ k: 'arr', items: ints(100) });
      agrees(t.u64(), array, opts);
      expect(f.parse(array, 64, t.u64())).to.equal(PLACEHOLDER.array);
      // Byte strings where objects are expected: the first one fails the read pass, the rest are dropped.
      const list = wire({ k: 'arr', items: [bytes, bytes, bytes], indefinite: true });
      agrees(t.array(t.object({})), list, opts);
      const kept = f.parse(list, 64, t.array(t.object({}))) as unknown[];
      expect(Object.keys(kept)).to.deep.equal(['0']);
      expect(kept[0]).to.equal(PLACEHOLDER.bytes);
      // A tuple of another length keeps its length, and nothing else.
      const tuple = f.parse(wire({ k: 'arr', items: ints(5) }), 64, t.tuple([t.u8(), t.u8()])) as unknown[];
      expect(tuple.length).to.equal(5);
      agrees(t.tuple([t.u8(), t.u8()]), wire({ k: 'arr', items: ints(5), indefinite: true }), opts);
      // A repeated key may replace a refused value: elements after such a map are still read.
      const key = { k: 'str' as const, v: 'a' };
      const repeated = wire({
        k: 'arr',
        items: [
          {
            k: 'map',
            entries: [
              [key, { k: 'arr', items: [] }],
              [key, { k: 'int', v: 1 }],
            ],
          },
          { k: 'map', entries: [[key, { k: 'int', v: 2 }]] },
        ],
      });
      expect(
        readTree(
          t.array(t.object({ a: t.u8() })),
          f.parse(repeated, 64, t.array(t.object({ a: t.u8() }))),
          opts,
          'binary',
        ),
      ).to.deep.equal([{ a: 1 }, { a: 2 }]);
      // Undeclared keys: those `unknown_key` names are kept (array indices come first), as many as
      // ReadError.errors lists: the smallest array indices and the first others, MAX_READ_ERRORS each.
      const entry = (v: string) =>
        [
          { k: 'str' as const, v },
          { k: 'int' as const, v: 0 },
        ] as const;
      const object = wire({
        k: 'map',
        entries: [
          [
            { k: 'str', v: 'id' },
            { k: 'int', v: 1 },
          ],
          ...['z', 'y', '10', '3', 'x'].map(entry),
        ],
      });
      const T = t.object({ id: t.u8() });
      expect(Object.keys(f.parse(object, 64, T) as object)).to.deep.equal(['3', '10', 'id', 'z', 'y', 'x']);
      const flood = Array.from({ length: 3 * MAX_READ_ERRORS }, (_, i) => [
        entry(`k${i}`),
        entry(String(3 * MAX_READ_ERRORS - i)),
      ]).flat();
      const keptKeys = Object.keys(
        f.parse(
          wire({
            k: 'map',
            entries: [
              [
                { k: 'str', v: 'id' },
                { k: 'int', v: 1 },
              ],
              ...flood,
            ],
          }),
          64,
          T,
        ) as object,
      );
      expect(keptKeys).to.have.length(1 + 2 * MAX_READ_ERRORS);
      expect(keptKeys.slice(0, MAX_READ_ERRORS)).to.deep.equal(
        Array.from({ length: MAX_READ_ERRORS }, (_, i) => String(i + 1)),
      );
      expect(keptKeys.slice(MAX_READ_ERRORS + 1)).to.deep.equal(
        Array.from({ length: MAX_READ_ERRORS }, (_, i) => `k${i}`),
      );
      agrees(T, object, opts);
      agrees(T, object, { ...opts, errorOnUnknownKeys: false });
      expect(guideOf(T).fields!.get('nope') ?? IGNORE).to.equal(IGNORE);
    });
  });
}
