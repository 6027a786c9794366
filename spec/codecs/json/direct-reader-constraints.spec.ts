// The JSON direct reader (generated for descriptors with 64-bit members) with constraints and
// `t.i64({ json: 'string' })`: for every input it gives up or gives exactly what the general path
// gives (JSON.parse, the exact parser where digits were lost, and the shared read pass). Descriptors
// holding a timestamp, t.unknown, a variant or t.lazy are left to the general path.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, type Type } from '../../../index.ts';
import { asReadError } from '../../../core/errors/read-error.ts';
import { Failure } from '../../../core/errors/failure.ts';
import { resolveReadOptions, type ReadOptions } from '../../../core/options.ts';
import { NeedsExactNumbers } from '../../../core/read/read-scalars.ts';
import { readersFor } from '../../../core/read/read.ts';
import { json } from '../../../codecs/json/index.ts';
import { generateDirectReader as generateJsonDirectReader } from '../../../codecs/json/generate-direct-reader.ts';
import { parseExact } from '../../../codecs/json/parse-exact.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { GAVE_UP } from '../../support/direct-formats.ts';
import { decodeOutcome } from '../../support/read-outcome.ts';

/** The value, or the error (code, path, message, every entry) as `decode` throws it. */
const outcome = (read: () => unknown) => decodeOutcome(read, true);

describe("codecs/json: the direct reader with constraints and t.i64({ json: 'string' })", () => {
  /** The general path: JSON.parse and the closures, the exact parser when digits were lost. */
  const reference = (type: Type, text: string, opts?: ReadOptions) =>
    outcome(() => {
      const { closures } = readersFor(type, resolveReadOptions(opts), 'json');
      let tree: unknown;
      try {
        tree = JSON.parse(text);
      } catch (e) {
        throw asReadError(new Failure('syntax_error', `invalid JSON: ${(e as Error).message}`));
      }
      try {
        return closures(tree);
      } catch (e) {
        if (!(e instanceof NeedsExactNumbers)) throw e;
        return closures(parseExact(text, 64));
      }
    });
  const direct = (type: Type, text: string): unknown => {
    const read = generateJsonDirectReader(type, 64);
    if (read === undefined) return GAVE_UP;
    try {
      return read(text);
    } catch {
      return GAVE_UP;
    }
  };
  const agrees = (type: Type, text: string) => {
    const fast = direct(type, text);
    const slowly = reference(type, text);
    if (fast !== GAVE_UP) expect({ value: fast }, text).to.deep.equal(slowly);
    expect(
      outcome(() => json.decode(type, text)),
      text,
    ).to.deep.equal(slowly);
    return fast;
  };

  const Account = t.object({
    id: t.i64({ json: 'string' }),
    balance: t.u64({ json: 'string', maximum: 10n ** 18n }),
    seq: t.u64(),
  });

  it('reads a 64-bit integer written as a string of digits, or as a number', () => {
    expect(
      agrees(Account, '{"id":"-9223372036854775808","balance":"1000000000000000000","seq":18446744073709551615}'),
    ).to.deep.equal({ id: -(2n ** 63n), balance: 10n ** 18n, seq: 2n ** 64n - 1n });
    expect(agrees(Account, '{"id":9007199254740993,"balance":"0","seq":0}')).to.deep.equal({
      id: 2n ** 53n + 1n,
      balance: 0n,
      seq: 0n,
    });
  });

  it('gives up on strings that are not plain decimal integers in range, and the general path answers', () => {
    const texts = [
      '"+1"',
      '" 1"',
      '"1 "',
      '"01"',
      '"1e3"',
      '"1.0"',
      '""',
      '"-"',
      '"-0"',
      '"9223372036854775808"',
      '"0x10"',
      '"1\\u0030"',
      'true',
      '"١"',
    ];
    for (const id of texts) {
      const text = `{"id":${id},"balance":"1","seq":1}`;
      expect(direct(Account, text), id).to.equal(GAVE_UP);
      agrees(Account, text);
    }
    agrees(Account, '{"id":"1","balance":"1000000000000000001","seq":1}');
    const e = readErrorOf(() => json.decode(Account, '{"id":"1","balance":"1000000000000000001","seq":1}'));
    expect([e.code, e.path]).to.deep.equal(['out_of_range', '/balance']);
  });

  it('checks constraints of every kind in a 64-bit descriptor, giving up when one fails', () => {
    const Row = t.object({
      big: t.i64({ minimum: -10n }),
      name: t.string({ pattern: '^[a-z]+$', maxLength: 4 }),
      n: t.u8({ maximum: 9 }),
      f: t.f32({ exclusiveMaximum: 1 }),
      list: t.array(t.i64(), { minItems: 1, maxItems: 2 }),
    });
    expect(agrees(Row, '{"big":-10,"name":"abcd","n":9,"f":0.99999994,"list":[1]}')).to.deep.equal({
      big: -10n,
      name: 'abcd',
      n: 9,
      f: Math.fround(0.99999994),
      list: [1n],
    });
    for (const text of [
      '{"big":-11,"name":"abcd","n":9,"f":0.5,"list":[1]}',
      '{"big":0,"name":"abcde","n":9,"f":0.5,"list":[1]}',
      '{"big":0,"name":"ABC","n":9,"f":0.5,"list":[1]}',
      '{"big":0,"name":"abc","n":10,"f":0.5,"list":[1]}',
      '{"big":0,"name":"abc","n":1,"f":1,"list":[1]}',
      '{"big":0,"name":"abc","n":1,"f":0.99999999,"list":[1]}', // rounds to 1 as an f32
      '{"big":0,"name":"abc","n":1,"f":0.5,"list":[]}',
      '{"big":0,"name":"abc","n":1,"f":0.5,"list":[1,2,3]}',
    ]) {
      expect(direct(Row, text), text).to.equal(GAVE_UP);
      const e = agrees(Row, text);
      expect(e).to.equal(GAVE_UP);
    }
  });

  it('leaves descriptors holding a timestamp, t.unknown, a variant or t.lazy to the general path', () => {
    for (const type of [
      t.object({ id: t.u64(), at: t.timestamp() }),
      t.object({ id: t.u64(), any: t.unknown() }),
      t.object({ id: t.u64(), s: t.variant('k', [t.object({ k: t.literal(1) })]) }),
      t.object({ id: t.u64(), next: t.optional(t.lazy(() => t.u64())) }),
    ]) {
      expect(generateJsonDirectReader(type, 64)).to.equal(undefined);
    }
  });

  it('agrees with the general path on 64-bit descriptors with constraints (property)', () => {
    const arb = fc.record({
      id: fc.oneof(
        fc
          .tuple(fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }), fc.boolean())
          .map(([n, quoted]) => (quoted ? `"${n}"` : `${n}`)),
        fc.constantFrom('"-0"', '"+5"', '"007"', '1.5', 'null'),
      ),
      n: fc.oneof(fc.integer({ min: -20, max: 300 }).map(String), fc.constantFrom('1e2', '-0', '"1"')),
      s: fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
      list: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }).map((l) => JSON.stringify(l)),
    });
    const Row = t.object({
      id: t.i64({ json: 'string', maximum: 2n ** 62n }),
      n: t.i16({ minimum: 0, maximum: 255 }),
      s: t.string({ minLength: 1, pattern: '^[^x]*$' }),
      list: t.array(t.u8({ maximum: 5 }), { maxItems: 3 }),
    });
    fc.assert(
      fc.property(arb, ({ id, n, s, list }) => {
        agrees(Row, `{"id":${id},"n":${n},"s":${s},"list":${list}}`);
      }),
      { numRuns: 500 },
    );
  });
});
