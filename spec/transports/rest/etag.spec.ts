// Entity tags: a 64-bit hash in which every unit of the input counts, wherever it stands and
// however the input is split; one tag per media type; and If-None-Match read by the weak
// comparison of RFC 9110 for lists of any shape.
import { expect } from 'chai';
import fc from 'fast-check';
import { hash64 } from '../../../transports/protocol/hash64.ts';
import { entityTag, matchingTag } from '../../../transports/rest/etag.ts';

describe('transports/rest/etag', () => {
  it('hashes to 16 hexadecimal digits, the same input to the same hash', () => {
    fc.assert(
      fc.property(fc.string(), fc.uint8Array({ maxLength: 300 }), (text, bytes) => {
        expect(hash64(text, bytes))
          .to.match(/^[0-9a-f]{16}$/)
          .and.equal(hash64(text, bytes.slice()));
      }),
    );
  });

  it('changes with any one unit of text or byte changed, at any place, lengths odd and even', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 0xffff }),
        (text, at, delta) => {
          const i = at % text.length;
          const changed =
            text.slice(0, i) + String.fromCharCode((text.charCodeAt(i) + delta) & 0xffff) + text.slice(i + 1);
          expect(hash64(changed)).not.to.equal(hash64(text));
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, at, delta) => {
          const changed = bytes.slice();
          changed[at % bytes.length] = (changed[at % bytes.length]! + delta) & 0xff;
          expect(hash64(changed)).not.to.equal(hash64(bytes));
        },
      ),
    );
  });

  it('tells apart where the first input ends, and trailing zero bytes', () => {
    expect(hash64('ab', 'c')).not.to.equal(hash64('a', 'bc'));
    expect(hash64(new Uint8Array([1, 2, 3]))).not.to.equal(hash64(new Uint8Array([1, 2, 3, 0])));
    expect(hash64('a')).not.to.equal(hash64('a\0'));
    expect(hash64('')).not.to.equal(hash64(new Uint8Array([0])));
  });

  it('gives distinct hashes to many distinct inputs', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(hash64(`{"id":${i}}`));
    expect(seen.size).to.equal(100_000);
  });

  it('tags the same bytes apart under two media types, and two texts apart', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(entityTag(bytes, 'application/cbor')).not.to.equal(entityTag(bytes, 'application/msgpack'));
    expect(entityTag('{"a":1}', 'application/json')).not.to.equal(entityTag('{"a":2}', 'application/json'));
    expect(entityTag('{"a":1}', 'application/json')).to.match(/^"[0-9a-f]{16}"$/);
  });

  describe('If-None-Match', () => {
    const tag = '"0123456789abcdef"';

    it('finds the tag in any place of a list, weak or strong, as the client wrote it', () => {
      const other = fc.stringMatching(/^(W\/)?"[0-9a-z]{0,8}"$/);
      const space = fc.constantFrom('', ' ', '\t', '  ');
      fc.assert(
        fc.property(
          fc.array(other, { maxLength: 4 }),
          fc.array(other, { maxLength: 4 }),
          fc.boolean(),
          space,
          (before, after, weak, gap) => {
            const held = weak ? `W/${tag}` : tag;
            const header = [...before, held, ...after].join(`${gap},${gap}`);
            expect(matchingTag(header, tag)).to.equal(held);
            expect(matchingTag([...before, ...after].join(','), tag)).to.equal(undefined);
          },
        ),
      );
    });

    it('matches * always, and nothing in a header that is not a list of tags', () => {
      expect(matchingTag('*', tag)).to.equal(tag);
      expect(matchingTag(' * ', 'W/"x"')).to.equal('W/"x"');
      for (const header of ['', '0123456789abcdef', `"${tag}"`, `w/${tag}`, '"0123456789abcdef', `x, ${tag}`, ',,,']) {
        expect(matchingTag(header, tag), header).to.equal(undefined);
      }
    });

    it('compares a weak tag of its own weakly', () => {
      expect(matchingTag('"v1"', 'W/"v1"')).to.equal('"v1"');
    });
  });
});
