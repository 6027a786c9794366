// Entity tags: FNV-1a 64 against its definition in BigInt arithmetic, one tag per media type, and
// If-None-Match read by the weak comparison of RFC 9110 for lists of any shape.
import { expect } from 'chai';
import fc from 'fast-check';
import { fnv1a64 } from '../../../transports/rest/fnv.ts';
import { entityTag, matchingTag } from '../../../transports/rest/etag.ts';

/** FNV-1a 64 as its definition states it, over the code units of text. */
function reference(...parts: (Uint8Array | string)[]): string {
  let h = 0xcbf29ce484222325n;
  for (const part of parts) {
    const units = typeof part === 'string' ? Array.from(part, (_, i) => part.charCodeAt(i)) : [...part];
    for (const unit of units) h = ((h ^ BigInt(unit)) * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

describe('transports/rest/etag', () => {
  it('hashes as FNV-1a 64 (the published vectors)', () => {
    expect(fnv1a64(new Uint8Array())).to.equal('cbf29ce484222325');
    expect(fnv1a64(new TextEncoder().encode('a'))).to.equal('af63dc4c8601ec8c');
    expect(fnv1a64(new TextEncoder().encode('foobar'))).to.equal('85944171f73967e8');
  });

  it('agrees with the BigInt definition for any bytes and text', () => {
    fc.assert(fc.property(fc.string(), fc.uint8Array({ maxLength: 300 }), (text, bytes) => {
      expect(fnv1a64(text, bytes)).to.equal(reference(text, bytes));
      expect(fnv1a64(bytes)).to.equal(reference(bytes));
    }));
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
      fc.assert(fc.property(fc.array(other, { maxLength: 4 }), fc.array(other, { maxLength: 4 }), fc.boolean(), space, (before, after, weak, gap) => {
        const held = weak ? `W/${tag}` : tag;
        const header = [...before, held, ...after].join(`${gap},${gap}`);
        expect(matchingTag(header, tag)).to.equal(held);
        expect(matchingTag([...before, ...after].join(','), tag)).to.equal(undefined);
      }));
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
