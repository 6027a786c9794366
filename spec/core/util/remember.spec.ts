// The one bounded memo of texts lacquer does not choose (header values, request targets, problem
// shapes, the names of descriptors made at run time): a key over 512 characters is not kept, and a
// full memo is cleared before a new key goes in, so texts that never repeat cost no memory.
import { expect } from 'chai';
import fc from 'fast-check';
import { generatedSource, t } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { MEMO_ENTRIES, MEMO_KEY_LENGTH, remember } from '../../../core/util/remember.ts';

describe('core/util: remember, the bounded memo of outside texts', () => {
  it('has the documented defaults: 256 entries, keys of up to 512 characters', () => {
    expect(MEMO_ENTRIES).to.equal(256);
    expect(MEMO_KEY_LENGTH).to.equal(512);
  });

  it('property: returns the value, keeps what fits, never holds more than its entries or a key over 512 characters', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(
          fc.tuple(fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 500, maxLength: 520 })), fc.integer()),
          { maxLength: 80 },
        ),
        (entries, calls) => {
          const map = new Map<string, number>();
          for (const [key, value] of calls) {
            const had = map.size;
            const known = map.has(key);
            expect(remember(map, key, value, entries)).to.equal(value);
            if (key.length > MEMO_KEY_LENGTH) {
              expect(map.has(key)).to.equal(known);
              continue;
            }
            expect(map.get(key)).to.equal(value);
            // A key already held is replaced in place; a new one clears a full memo first.
            expect(map.size).to.equal(known ? had : had >= entries ? 1 : had + 1);
            expect(map.size).to.be.at.most(entries);
          }
        },
      ),
    );
  });

  it('bounds the names of generated code: a descriptor name over 512 characters is not counted', () => {
    const name = `Made${'x'.repeat(600)}`;
    for (let i = 0; i < 2; i++) {
      const type = t.object({ a: t.i32() }, { name });
      json.encode(type, { a: 1 });
      // Not counted, so not kept: the second descriptor of that name is not told apart by `-2`.
      expect(generatedSource(type, 'json')).to.include(`//# sourceURL=lacquer/json/${name}.js`);
    }
    for (const suffix of ['', '-2']) {
      const type = t.object({ a: t.i32() }, { name: 'MadeShort' });
      json.encode(type, { a: 1 });
      expect(generatedSource(type, 'json')).to.include(`//# sourceURL=lacquer/json/MadeShort${suffix}.js`);
    }
  });
});
