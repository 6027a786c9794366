// A string is Unicode text in every codec: UTF-8 (MessagePack, CBOR) cannot hold a lone surrogate,
// so JSON, whose `\ud800` escape can, refuses it too, on read and on write. Otherwise a string
// accepted from JSON could never be answered in MessagePack or CBOR.
import { expect } from 'chai';
import fc from 'fast-check';
import { t } from '../../index.ts';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { readErrorOf } from '../support/read-error.ts';
import { writeErrorOf } from '../support/write-error.ts';

/** The ReadError `read` throws, checked for its code, path and, when given, message. */
function expectReadError(read: () => unknown, code: string, path?: string, message?: RegExp) {
  const error = readErrorOf(read);
  expect(error.code).to.equal(code);
  if (path !== undefined) expect(error.path).to.equal(path);
  if (message !== undefined) expect(error.message).to.match(message);
  return error;
}

function expectWriteError(write: () => unknown, code: string, path?: string) {
  const error = writeErrorOf(write);
  expect(error.code).to.equal(code);
  if (path !== undefined) expect(error.path).to.equal(path);
}

const CODECS = [json, msgpack, cbor];

/** Strings as UTF-16 code units: ASCII, other BMP characters, and surrogates alone or in pairs. */
const codeUnits = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0x80, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    ),
    { maxLength: 8 },
  )
  .map((units) => String.fromCharCode(...units));
const Named = t.object({ id: t.u64(), name: t.string() });
const Plain = t.object({ name: t.string(), n: t.i32() });

describe('codecs: strings are Unicode text', () => {
  describe('JSON refuses a lone surrogate on read', () => {
    it('written as an escape', () => {
      expectReadError(
        () => json.decode(t.string(), '"ab\\ud800"'),
        'type_mismatch',
        '',
        /lone surrogate \(U\+D800 at index 2\)/,
      );
    });

    it('raw, in text handed over as a JavaScript string', () => {
      expectReadError(
        () => json.decode(t.string(), '"\udc00"'),
        'type_mismatch',
        '',
        /lone surrogate \(U\+DC00 at index 0\)/,
      );
    });

    it('in a member, on the direct path for 64-bit descriptors and on the general path', () => {
      expectReadError(() => json.decode(Named, '{"id":1,"name":"x\ud800"}'), 'type_mismatch', '/name');
      expectReadError(() => json.decode(Named, '{"id":1,"name":"x\\ud800"}'), 'type_mismatch', '/name');
      expectReadError(() => json.decode(Plain, '{"name":"\\udfff","n":1}'), 'type_mismatch', '/name');
    });

    it('as a map key', () => {
      expectReadError(() => json.decode(t.map(t.i32()), '{"a":1,"\\ud800":2}'), 'type_mismatch', '', /as a key/);
    });

    it('while a surrogate pair is one character', () => {
      expect(json.decode(t.string(), '"\\ud83d\\ude00"')).to.equal('😀');
      expect(json.decode(t.map(t.i32()), '{"\\ud83d\\ude00":1}')).to.deep.equal({ '😀': 1 });
    });
  });

  describe('JSON bytes are read as strict UTF-8, short or long', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    /** What decoding `bytes` gives: the value, or the ReadError's code and message. */
    const outcome = (read: () => unknown) => {
      try {
        return { value: read() };
      } catch (e) {
        const error = readErrorOf(() => {
          throw e;
        });
        return { code: error.code, message: error.message };
      }
    };

    it('property: bytes read as the text a strict UTF-8 decoder makes of them (a leading BOM dropped), or as invalid UTF-8', () => {
      const byte = fc.oneof(
        fc.constantFrom(0x22, 0x37, 0x20, 0x5b, 0x5d, 0x2c, 0x7b, 0x7d, 0x3a, 0x61),
        fc.integer({ min: 0, max: 255 }),
      );
      const texts = fc.oneof(
        fc.uint8Array({ maxLength: 20 }),
        fc.array(byte, { maxLength: 20 }).map((b) => Uint8Array.from(b)),
        fc.jsonValue({ maxDepth: 1 }).map((v) => new TextEncoder().encode(JSON.stringify(v))),
      );
      fc.assert(
        fc.property(texts, (bytes) => {
          let text: string | undefined;
          try {
            text = strict.decode(bytes);
          } catch {
            text = undefined;
          }
          const got = outcome(() => json.decode(t.unknown(), bytes));
          if (text === undefined)
            expect(got).to.deep.equal({
              code: 'syntax_error',
              message: 'invalid JSON: the bytes are not valid UTF-8 at the root',
            });
          else expect(got).to.deep.equal(outcome(() => json.decode(t.unknown(), text)));
        }),
        { numRuns: 2000, seed: 20261123 },
      );
    });

    it('a short body: ASCII, a BOM before it, a byte that is not UTF-8', () => {
      expect(json.decode(t.u64(), Uint8Array.of(0x37))).to.equal(7n);
      expect(json.decode(t.u64(), Uint8Array.of(0xef, 0xbb, 0xbf, 0x37))).to.equal(7n);
      expectReadError(() => json.decode(t.u64(), Uint8Array.of(0x37, 0xff)), 'syntax_error', '', /not valid UTF-8/);
      expectReadError(() => json.decode(t.u64(), new Uint8Array(0)), 'syntax_error');
    });
  });

  it('MessagePack and CBOR refuse a surrogate encoded as UTF-8 bytes (CESU-8) as invalid UTF-8', () => {
    expectReadError(() => msgpack.decode(t.string(), Uint8Array.of(0xa3, 0xed, 0xa0, 0x80)), 'syntax_error');
    expectReadError(() => cbor.decode(t.string(), Uint8Array.of(0x63, 0xed, 0xa0, 0x80)), 'syntax_error');
  });

  for (const codec of CODECS) {
    it(`${codec.name} refuses to write a lone surrogate, in a value and in a map key`, () => {
      expectWriteError(() => codec.encode(Plain, { name: 'a\ud800', n: 1 }), 'type_mismatch', '/name');
      expectWriteError(() => codec.encode(t.map(t.i32()), { '\udc00': 1 } as Record<string, number>), 'type_mismatch');
    });
  }

  it('an error quoting a key from the input is itself Unicode text', () => {
    const error = expectReadError(() => json.decode(Plain, '{"name":"a","n":1,"\\ud800":2}'), 'unknown_key');
    expect(error.key!.isWellFormed() && error.path.isWellFormed() && error.message.isWellFormed()).to.equal(true);
    expect(() =>
      msgpack.encode(t.object({ detail: t.string(), path: t.string() }), { detail: error.message, path: error.path }),
    ).not.to.throw();
  });

  it('for every string: each codec reads and writes it exactly when it is well-formed', () => {
    fc.assert(
      fc.property(codeUnits, (s) => {
        const ok = s.isWellFormed();
        const read = (f: () => unknown) => {
          try {
            return f() === s;
          } catch {
            return false;
          }
        };
        expect(read(() => json.decode(t.string(), JSON.stringify(s)))).to.equal(ok);
        for (const codec of CODECS) {
          let written: Uint8Array | string | undefined;
          try {
            written = codec.encode(t.string(), s);
          } catch {
            written = undefined;
          }
          expect(written !== undefined).to.equal(ok);
          if (written !== undefined) expect(codec.decode(t.string(), written)).to.equal(s);
        }
      }),
      { numRuns: 1000, seed: 11 },
    );
  });
});

describe('descriptors: names and values a codec writes are Unicode text', () => {
  it('refuses a lone surrogate in a member name, a literal or an enum value when the descriptor is made', () => {
    expect(() => t.object({ 'k\ud800': t.i32() })).to.throw(TypeError, /lone surrogate/);
    expect(() => t.literal('a\udc00')).to.throw(TypeError, /lone surrogate/);
    expect(() => t.enum(['ok', '\ud800'])).to.throw(TypeError, /lone surrogate/);
    expect(() => t.object({ '😀': t.literal('😀'), e: t.enum(['😀']) })).not.to.throw();
  });
});
