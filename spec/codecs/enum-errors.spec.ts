// A value that is not one of an enum's (or a literal's) values is named in the error, reading and
// writing, in every codec: a string quoted and cut after 40 characters, a number or boolean as it
// is, anything else by its kind. Run again with code generation forbidden (spec/core/codegen/closure-path.spec.ts).
import { expect } from 'chai';
import { ReadError, WriteError, t, type Codec } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';

const CODECS: readonly Codec[] = [json, msgpack, cbor];

const Color = t.enum(['red', 'green']);
const Paint = t.object({ colors: t.array(Color), level: t.enum([1, 2, 3]), mode: t.literal('fast') });

function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (e) {
    return e;
  }
  return expect.fail('expected an error');
}

describe('codecs: an enum or literal value that is not allowed is named in the error', () => {
  for (const codec of CODECS) {
    describe(codec.name, () => {
      /** Reads `value` (written as anything goes) as `Paint` with one member replaced. */
      const readPaint = (member: Record<string, unknown>) =>
        thrown(() =>
          codec.decode(Paint, codec.encode(t.unknown(), { colors: ['red'], level: 1, mode: 'fast', ...member })),
        );

      it('reading: a string, quoted', () => {
        const e = readPaint({ colors: ['red', 'blue'] });
        expect(e).to.be.instanceOf(ReadError);
        expect((e as ReadError).path).to.equal('/colors/1');
        expect((e as ReadError).message).to.equal('expected one of "red", "green", got "blue" at /colors/1');
      });

      it('reading: a long string, cut after 40 characters', () => {
        const e = readPaint({ colors: ['x'.repeat(1000)] }) as ReadError;
        expect(e.message).to.equal(`expected one of "red", "green", got "${'x'.repeat(40)}"… at /colors/0`);
      });

      it('reading: a number, a boolean, and a value of another kind', () => {
        expect((readPaint({ level: 7 }) as ReadError).message).to.equal('expected one of 1, 2, 3, got 7 at /level');
        expect((readPaint({ level: true }) as ReadError).message).to.equal(
          'expected one of 1, 2, 3, got true at /level',
        );
        expect((readPaint({ level: [1] }) as ReadError).message).to.equal(
          'expected one of 1, 2, 3, got an array at /level',
        );
        expect((readPaint({ mode: 'slow' }) as ReadError).message).to.equal('expected "fast", got "slow" at /mode');
      });

      it('writing: the value, quoted, cut after 40 characters', () => {
        const write = (value: unknown) => thrown(() => codec.encode(Paint, value as never)) as WriteError;
        const e = write({ colors: ['blue'], level: 1, mode: 'fast' });
        expect(e).to.be.instanceOf(WriteError);
        expect(e.message).to.equal('cannot write "blue" as one of "red", "green" at /colors/0');
        expect(write({ colors: ['y'.repeat(50)], level: 1, mode: 'fast' }).message).to.equal(
          `cannot write "${'y'.repeat(40)}"… as one of "red", "green" at /colors/0`,
        );
        expect(write({ colors: [], level: 9, mode: 'fast' }).message).to.equal(
          'cannot write 9 as one of 1, 2, 3 at /level',
        );
        expect(write({ colors: [], level: 1, mode: 'slow' }).message).to.equal(
          'cannot write "slow" as "fast" at /mode',
        );
        expect(write({ colors: [], level: {}, mode: 'fast' }).message).to.equal(
          'cannot write an object as one of 1, 2, 3 at /level',
        );
      });
    });
  }
});
