// The direct readers (bytes to value in one pass) are a fast path: for every input they either
// give up or give exactly what the parser plus the shared read pass give. Both forms are checked:
// the generated one (the main path) and the closures (where code generation is forbidden).
import { expect } from 'chai';
import fc from 'fast-check';
import { ReadError, t, type Type } from '../../../index.ts';
import { resolveReadOptions, type MissingKeys } from '../../../core/options.ts';
import { readTree } from '../../../core/read/read.ts';
import { directlyReadable, type ReadWire } from '../../../codecs/binary/direct-reader.ts';
import { arbDescriptor, arbJsonNear, arbMissingKeys, arbTyped } from '../../support/arbitraries.ts';
import { DIRECT_COMPILERS, DIRECT_FORMATS, GAVE_UP, runDirect } from '../../support/direct-formats.ts';

interface Options {
  errorOnMissingKeys: MissingKeys;
  maxDepth: number;
}

const arbOptions: fc.Arbitrary<Options> = fc.record({
  errorOnMissingKeys: arbMissingKeys,
  maxDepth: fc.oneof(fc.constant(64), fc.integer({ min: 1, max: 3 })),
});

/** What the parser and the shared read pass give: the value, or the error's code and path. */
function slow(f: (typeof DIRECT_FORMATS)[number], type: Type, bytes: Uint8Array, opts: Options): unknown {
  try {
    return { value: readTree(type, f.parse(bytes, opts.maxDepth), opts, 'binary') };
  } catch (e) {
    if (!(e instanceof ReadError)) {
      // Parser failures are internal until the codec wraps them; only their code matters here.
      return { error: (e as { code?: string }).code ?? String(e) };
    }
    return { error: e.code, path: e.path };
  }
}

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() });
const Book = t.object({ id: t.i32(), title: t.string(), author: t.string(), isbn: t.string(), year: t.i32() });
const BookSearchResponse = t.object({ books: t.array(Book), total_count: t.i32(), has_more: t.bool() });

for (const f of DIRECT_FORMATS) {
  for (const { name, compile } of DIRECT_COMPILERS) {
    describe(`codecs/${f.name}: the ${name} direct reader`, () => {
      const direct = (type: Type, bytes: Uint8Array, opts: Options | boolean): unknown => {
        const options = typeof opts === 'boolean' ? { errorOnMissingKeys: opts, maxDepth: 64 } : opts;
        const ctx = { ...resolveReadOptions(options), source: 'binary' as const };
        return runDirect(compile(type, ctx, f.wire as ReadWire, f.encodeKey), bytes);
      };

      /** The fast path may give up; when it does not, it gives what the slow path gives, and the slow path succeeds. */
      const agrees = (type: Type, bytes: Uint8Array, opts: Options) => {
        const fast = direct(type, bytes, opts);
        if (fast !== GAVE_UP) expect({ value: fast }).to.deep.equal(slow(f, type, bytes, opts));
      };

      it('reads every value lacquer wrote for a descriptor it is not told to skip (property)', () => {
        // decode skips the direct reader for descriptors `directlyReadable` refuses; for the rest
        // it must not give up on lacquer's own output, or every decode would pay for a failed try.
        fc.assert(
          fc.property(arbTyped, ({ type, value }) => {
            if (!directlyReadable(type, 64)) return;
            expect(direct(type, f.codec.encode(type, value as never), false)).not.to.equal(GAVE_UP);
          }),
          { numRuns: 300 },
        );
      });

      it('gives up or agrees with the parser and the shared read pass, for every descriptor and value', () => {
        fc.assert(
          fc.property(arbTyped, arbOptions, ({ type, value }, opts) =>
            agrees(type, f.codec.encode(type, value as never), opts),
          ),
          { numRuns: 300 },
        );
      });

      it("gives up or agrees on values near the descriptor in another encoder's bytes", () => {
        const arb = arbDescriptor.chain((type) => fc.tuple(fc.constant(type), arbJsonNear(type)));
        fc.assert(
          fc.property(arb, arbOptions, ([type, near], opts) => agrees(type, f.foreign(near), opts)),
          { numRuns: 400 },
        );
      });

      it('gives up or agrees on mutated and truncated encodings', () => {
        fc.assert(
          fc.property(
            arbTyped,
            arbOptions,
            fc.nat(),
            fc.integer({ min: 0, max: 255 }),
            fc.boolean(),
            ({ type, value }, opts, at, byte, cut) => {
              const bytes = f.codec.encode(type, value as never).slice();
              if (bytes.length === 0) return;
              const i = at % bytes.length;
              bytes[i] = byte;
              agrees(type, cut ? bytes.subarray(0, i) : bytes, opts);
            },
          ),
          { numRuns: 400 },
        );
      });

      it("reads the specification's records without giving up", () => {
        const user = { id: 2n ** 64n - 1n, name: 'Ann', weight: 0.5 };
        expect(direct(User, f.codec.encode(User, user), true)).to.deep.equal(user);
        const response = {
          books: [{ id: 1, title: 'Dune', author: 'Frank Herbert', isbn: '978-0', year: 1965 }],
          total_count: 1,
          has_more: false,
        };
        expect(direct(BookSearchResponse, f.codec.encode(BookSearchResponse, response), true)).to.deep.equal(response);
      });

      it('reads every width of integer, float and string it meets inline or through the format', () => {
        const Row = t.object({
          i: t.array(t.i32()),
          u: t.array(t.u32()),
          big: t.array(t.i64()),
          ubig: t.array(t.u64()),
          f: t.array(t.f64()),
          g: t.array(t.f32()),
          s: t.array(t.string()),
          o: t.optional(t.string()),
          n: t.nullable(t.bool()),
        });
        const strings = [
          '',
          'a',
          'exactly eight',
          'é',
          '日本語テキスト',
          'x'.repeat(23),
          'y'.repeat(24),
          'z'.repeat(64),
          'w'.repeat(65),
          'v'.repeat(300),
          '\u{1f600}',
        ];
        const row = {
          i: [0, 23, 24, 127, 128, 255, 256, 65535, 65536, -1, -24, -25, -32, -33, -129, -2147483648, 2147483647],
          u: [0, 24, 255, 256, 65535, 65536, 4294967295],
          big: [0n, -1n, 2n ** 32n, -(2n ** 32n), 2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n],
          ubig: [0n, 23n, 24n, 255n, 65536n, 4294967295n, 4294967296n, 2n ** 64n - 1n],
          f: [0, -0, 0.1, -1.5, 1e300, 5e-324, 3],
          g: [0, 0.5, -0.25, Math.fround(0.1), 16777216],
          s: strings,
          n: null,
        };
        expect(direct(Row, f.codec.encode(Row, row), true)).to.deep.equal(row);
        const withOptional = { ...row, o: 'here', n: true };
        expect(direct(Row, f.codec.encode(Row, withOptional), true)).to.deep.equal(withOptional);
      });

      it('reads optional, nullable and defaulted members, required or not', () => {
        const fields = {
          nick: t.optional(t.string()),
          age: t.u8(),
          note: t.nullable(t.string()),
          level: t.optional(t.i32()).default(3),
        };
        for (const requiresKey of [() => true, () => false, undefined]) {
          const Person = requiresKey === undefined ? t.object(fields) : t.object(fields, { requiresKey });
          const full = { nick: 'x', age: 1, note: null, level: 4 };
          expect(direct(Person, f.codec.encode(Person, full), true)).to.deep.equal(full);
          // A nil for an optional member is presence, and reads as the member left out.
          const nils = f.codec.encode(t.map(t.nullable(t.i32())), { nick: null, age: 1, note: null, level: null });
          expect(direct(Person, nils, true)).to.deep.equal({ age: 1, note: null });
          const sparse = f.codec.encode(t.map(t.i32()), { age: 2 });
          expect(direct(Person, sparse, false)).to.deep.equal({ age: 2, note: null, level: 3 });
        }
      });

      it('gives up on a missing required key, an unknown key, another key order and trailing bytes', () => {
        const Pair = t.object({ a: t.i32(), b: t.i32() });
        const encode = (value: Record<string, number>) => f.codec.encode(t.map(t.i32()), value);
        expect(direct(Pair, encode({ a: 1 }), true)).to.equal(GAVE_UP);
        expect(direct(Pair, encode({ a: 1, b: 2, c: 3 }), false)).to.equal(GAVE_UP);
        expect(direct(Pair, encode({ b: 2, a: 1 }), false)).to.equal(GAVE_UP);
        const bytes = encode({ a: 1, b: 2 });
        expect(direct(Pair, Uint8Array.of(...bytes, 0), false)).to.equal(GAVE_UP);
        expect(direct(Pair, bytes, false)).to.deep.equal({ a: 1, b: 2 });
        expect(direct(Pair, encode({ b: 2 }), false)).to.deep.equal({ a: 0, b: 2 });
      });

      it('gives up on a value out of its range, invalid UTF-8 and nesting beyond maxDepth', () => {
        expect(direct(t.u8(), f.codec.encode(t.i32(), 256), true)).to.equal(GAVE_UP);
        expect(direct(t.i8(), f.codec.encode(t.i32(), -129), true)).to.equal(GAVE_UP);
        expect(direct(t.u64(), f.codec.encode(t.i64(), -1n), true)).to.equal(GAVE_UP);
        expect(direct(t.f32(), f.codec.encode(t.f64(), 1e300), true)).to.equal(GAVE_UP);
        const text = f.codec.encode(t.string(), 'ab');
        text[text.length - 1] = 0xff;
        expect(direct(t.string(), text, true)).to.equal(GAVE_UP);
        const nested = t.array(t.array(t.i32()));
        const bytes = f.codec.encode(nested, [[1]]);
        expect(direct(nested, bytes, { errorOnMissingKeys: true, maxDepth: 1 })).to.equal(GAVE_UP);
        expect(direct(nested, bytes, { errorOnMissingKeys: true, maxDepth: 2 })).to.deep.equal([[1]]);
      });
    });
  }
}

describe('codecs/binary: descriptors the direct readers skip', () => {
  it('are those holding a map, literal, enum or void, or containers deeper than maxDepth', () => {
    for (const type of [
      t.map(t.i32()),
      t.object({ a: t.literal('x') }),
      t.array(t.enum(['a'])),
      t.optional(t.void()),
      t.tuple([t.i32(), t.nullable(t.map(t.string()))]),
    ]) {
      expect(directlyReadable(type, 64)).to.equal(false);
    }
    const nested = t.object({ list: t.array(t.object({ n: t.i32() })) });
    expect(directlyReadable(nested, 3)).to.equal(true);
    expect(directlyReadable(nested, 2)).to.equal(false);
    expect(directlyReadable(t.object({ s: t.optional(t.string()), b: t.bytes(), u: t.u64() }), 1)).to.equal(true);
  });
});
