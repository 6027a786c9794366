// The generated JSON writer is a fast path: for every value it must give the closure writer's text,
// and a value it does not take it bails on (or fails on, as the closure writer does), after which
// the closure writer gives the exact error.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, type Type } from '../../../index.ts';
import { BAIL } from '../../../core/codegen/codegen.ts';
import { compileJsonWriter } from '../../../codecs/json/compile-writer.ts';
import { generateJsonWriter } from '../../../codecs/json/generate-writer.ts';
import { PAYLOADS } from '../../../bench/payloads.ts';
import { arbDescriptor, arbJsonNear, arbTyped } from '../../support/arbitraries.ts';

/** The text a writer gives, or what it threw. */
function outcome(write: () => string): { text: string } | { thrown: unknown } {
  try {
    return { text: write() };
  } catch (e) {
    return { thrown: e };
  }
}

const closure = (type: Type, value: unknown) => outcome(() => compileJsonWriter(type, false)(value, ''));
const generated = (type: Type, value: unknown) => outcome(() => generateJsonWriter(type)(value));

describe('codecs/json: the generated writer', () => {
  it('writes every valid value without bailing, as the closure writer does', () => {
    fc.assert(
      fc.property(arbTyped, ({ type, value }) => {
        expect(generated(type, value)).to.deep.equal(closure(type, value));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes what the closure writer writes, or bails, for values near the descriptor', () => {
    fc.assert(
      fc.property(
        arbDescriptor.chain((type) => arbJsonNear(type).map((value) => ({ type, value }))),
        ({ type, value }) => {
          const fast = generated(type, value);
          // A bail hands over to the closure writer; any other error must be one the closure writer gives too.
          if ('thrown' in fast && fast.thrown === BAIL) return;
          const slow = closure(type, value);
          if ('thrown' in fast) expect(slow).to.have.property('thrown');
          else expect(fast).to.deep.equal(slow);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('writes string members of an object, escaped or not, as the closure writer does (property)', () => {
    const type = t.object({ a: t.string(), n: t.i32(), b: t.string(), list: t.array(t.string()) });
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme-ascii' }),
      fc.constantFrom('"', '\\', '\n', '\ud800', 'plain'),
    );
    fc.assert(
      fc.property(text, text, fc.array(text, { maxLength: 3 }), (a, b, list) => {
        const value = { a, n: 1, b, list };
        if (![a, b, ...list].every((s) => s.isWellFormed())) {
          // A lone surrogate is no Unicode text: the generated writer hands it over, the closure writer refuses it.
          expect(generated(type, value)).to.deep.equal({ thrown: BAIL });
          expect(closure(type, value)).to.have.property('thrown');
          return;
        }
        expect(generated(type, value)).to.deep.equal(closure(type, value));
        expect(JSON.parse((generated(type, value) as { text: string }).text)).to.deep.equal(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('writes the benchmark payloads without bailing', () => {
    for (const p of PAYLOADS) expect(generated(p.type, p.value), p.name).to.deep.equal(closure(p.type, p.value));
  });

  it('writes 64-bit integers at the edges of each range and of the small-integer shortcut', () => {
    const edges = [
      0n,
      1n,
      -1n,
      2n ** 30n - 1n,
      2n ** 30n,
      -(2n ** 30n),
      -(2n ** 30n) - 1n,
      2n ** 53n + 1n,
      2n ** 63n - 1n,
      -(2n ** 63n),
      -(2n ** 63n) - 1n,
      2n ** 63n,
      2n ** 64n - 1n,
      2n ** 64n,
      7,
      -7,
      2 ** 53,
      1.5,
      '1',
      null,
    ];
    for (const type of [t.u64(), t.i64()]) {
      for (const value of edges) {
        const fast = generated(type, value);
        const slow = closure(type, value);
        if ('thrown' in slow) expect('thrown' in fast, `${type.kind} ${String(value)}`).to.equal(true);
        else expect(fast, `${type.kind} ${String(value)}`).to.deep.equal(slow);
      }
    }
  });

  it('writes float32 values already seen from its cache, and values sharing a cache slot apart', () => {
    const values = fc.sample(fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), 5000);
    const first = values.map((v) => generated(t.f32(), v));
    // The second pass meets the cache filled by the first, where 5000 values share 512 slots.
    values.forEach((v, i) => expect(generated(t.f32(), v)).to.deep.equal(first[i]));
    values.forEach((v, i) => {
      const text = (first[i] as { text: string }).text;
      expect(Object.is(Math.fround(Number(text)), Math.fround(v)), `${v} written as ${text}`).to.equal(true);
    });
  });
});
