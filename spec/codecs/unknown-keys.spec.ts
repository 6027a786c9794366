// `errorOnUnknownKeys`: every undeclared key of an object is named in `ReadError.errors` (up to
// MAX_READ_ERRORS), in the order JSON lists them (array-index keys first, ascending, then the
// others as they came), whatever the codec. The binary codecs' guided parsers keep only what the
// read pass will name, so a flood of undeclared keys still costs bounded memory.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, type Opts } from '../../index.ts';
import { MAX_READ_ERRORS } from '../../core/errors/read-error.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { readErrorOf } from '../support/read-error.ts';

const CODECS = [json, msgpack, cbor] as const;
const STRICT: Opts = { errorOnUnknownKeys: true };
const Point = t.object({ x: t.i32() }, { name: 'Point' });
const Loose = t.map(t.i32());

/** The problems each codec names for `record` read as a Point, by codec name. */
function problems(record: Record<string, number>): Map<string, string[]> {
  return new Map(
    CODECS.map((codec) => {
      const bytes = codec.encode(Loose, record);
      return [
        codec.name,
        readErrorOf(() => codec.decode(Point, bytes, STRICT)).errors.map((e) => `${e.code} ${e.path}`),
      ];
    }),
  );
}

describe('codecs: undeclared keys under errorOnUnknownKeys', () => {
  it('are each named, array-index keys first and ascending, then the others as they came, in every codec', () => {
    const named = problems({ x: 1, k: 2, 7: 3, j: 4, 2: 5, z: 6, 10: 7 });
    for (const list of named.values())
      expect(list).to.deep.equal([
        'unknown_key /2',
        'unknown_key /7',
        'unknown_key /10',
        'unknown_key /k',
        'unknown_key /j',
        'unknown_key /z',
      ]);
  });

  it(`are named up to MAX_READ_ERRORS (${MAX_READ_ERRORS}), the same ones in every codec`, () => {
    const record: Record<string, number> = { x: 1 };
    for (let i = 0; i < 3 * MAX_READ_ERRORS; i++) record[i % 2 === 0 ? `k${i}` : String(1000 - i)] = i;
    const named = problems(record);
    const [first, ...others] = [...named.values()];
    expect(first).to.have.length(MAX_READ_ERRORS);
    for (const list of others) expect(list).to.deep.equal(first);
  });

  it('agree across codecs for any record (property)', () => {
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.nat({ max: 300 }).map(String));
    fc.assert(
      fc.property(fc.dictionary(key, fc.integer({ min: -5, max: 5 }), { maxKeys: 250 }), (record) => {
        const decoded = CODECS.map((codec) => {
          const bytes = codec.encode(Loose, record);
          try {
            return { value: codec.decode(Point, bytes, STRICT) as unknown };
          } catch (e) {
            return {
              errors: readErrorOf(() => {
                throw e;
              }).errors.map((x) => `${x.code} ${x.path}`),
            };
          }
        });
        for (const other of decoded.slice(1)) expect(other).to.deep.equal(decoded[0]);
      }),
      { numRuns: 200 },
    );
  });
});
