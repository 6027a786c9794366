import { expect } from 'chai';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { t, type Type } from '../../../index.ts';
import { json } from '../../../codecs/json/index.ts';
import { readErrorOf } from '../../support/read-error.ts';
import { writeErrorOf } from '../../support/write-error.ts';

const User = t.object({ id: t.u64(), name: t.string(), weight: t.f32() }, { name: 'User' });

describe('codecs/json', () => {
  describe('64-bit integers', () => {
    it('reads and writes u64 max and i64 min exactly', () => {
      const T = t.object({ u: t.u64(), i: t.i64() });
      const text = '{"u":18446744073709551615,"i":-9223372036854775808}';
      const value = json.decode(T, text);
      expect(value).to.deep.equal({ u: 2n ** 64n - 1n, i: -(2n ** 63n) });
      expect(json.encode(T, value)).to.equal(text);
    });

    it('keeps 2^53 + 1, which JSON.parse alone rounds to 2^53', () => {
      expect(JSON.parse('9007199254740993')).to.equal(2 ** 53);
      expect(json.decode(t.u64(), '9007199254740993')).to.equal(2n ** 53n + 1n);
    });

    it('reads 64-bit integers exactly inside strings-with-digits documents and exponent forms', () => {
      const T = t.object({ note: t.string(), n: t.i64() });
      expect(json.decode(T, '{"note":"1234567890123456789","n":12}')).to.deep.equal({
        note: '1234567890123456789',
        n: 12n,
      });
      expect(json.decode(t.u64(), '1.8e19')).to.equal(18000000000000000000n);
      expect(json.decode(t.i64(), '-2.5e1')).to.equal(-25n);
      expect(json.decode(t.i64(), '-250e-1')).to.equal(-25n);
    });

    it('refuses a 64-bit value one past either end as out_of_range', () => {
      expect(readErrorOf(() => json.decode(t.u64(), '18446744073709551616')).code).to.equal('out_of_range');
      expect(readErrorOf(() => json.decode(t.u64(), '-1')).code).to.equal('out_of_range');
      expect(readErrorOf(() => json.decode(t.i64(), '-9223372036854775809')).code).to.equal('out_of_range');
      expect(readErrorOf(() => json.decode(t.i64(), '9223372036854775808')).code).to.equal('out_of_range');
    });

    it('refuses a fraction in a 64-bit field as type_mismatch, even beyond 2^53', () => {
      expect(readErrorOf(() => json.decode(t.i64(), '9007199254740993.5')).code).to.equal('type_mismatch');
      expect(readErrorOf(() => json.decode(t.u64(), '1.5')).code).to.equal('type_mismatch');
    });

    it('round-trips every u64 and i64 (property)', () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
          expect(json.decode(t.u64(), json.encode(t.u64(), n))).to.equal(n);
        }),
      );
      fc.assert(
        fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
          expect(json.decode(t.i64(), json.encode(t.i64(), n))).to.equal(n);
        }),
      );
    });
  });

  describe('f32', () => {
    it('writes the shortest decimal that reads back to the same float32', () => {
      expect(json.encode(User, { id: 1n, name: 'a', weight: 0.1 })).to.equal('{"id":1,"name":"a","weight":0.1}');
      expect(json.encode(t.f32(), Math.fround(72.3))).to.equal('72.3');
      expect(json.encode(t.f32(), 3.4028234663852886e38)).to.equal('3.4028235e+38');
      expect(json.encode(t.f32(), -0)).to.equal('-0');
    });

    it('reads a decimal into the nearest float32', () => {
      expect(json.decode(t.f32(), '0.1')).to.equal(Math.fround(0.1));
    });

    it('the text is the shortest that round-trips, for every float32 (property)', () => {
      fc.assert(
        fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (f) => {
          const text = json.encode(t.f32(), f);
          expect(Object.is(Math.fround(Number(text)), f)).to.equal(true);
          const digits = text.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;
          if (digits > 1 && !Number.isInteger(f)) {
            expect(Math.fround(Number(f.toPrecision(digits - 1)))).not.to.equal(f);
          }
        }),
      );
    });

    it('writes what trying every precision from 1 to 9 digits would, for every float32 (property)', () => {
      // The writer starts at 6 digits; this is the plain search it must agree with, subnormals included.
      const exhaustive = (f: number): string => {
        if (Number.isInteger(f) && Math.abs(f) < 1e21) return Object.is(f, -0) ? '-0' : String(f);
        for (let p = 1; p < 9; p++) {
          const candidate = Number(f.toPrecision(p));
          if (Math.fround(candidate) === f) return String(candidate);
        }
        return String(Number(f.toPrecision(9)));
      };
      const arbFloat32 = fc.oneof(
        fc.float({ noNaN: true, noDefaultInfinity: true }),
        fc
          .integer({ min: 0, max: 2 ** 32 - 1 })
          .map((bits) => new Float32Array(new Uint32Array([bits]).buffer)[0]!)
          .filter(Number.isFinite),
        fc
          .tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 6 }))
          .map(([m, e]) => Math.fround(m / 10 ** e)),
        // Six-digit decimals across the exponent range: where 7-digit rounding is not the shortest.
        fc
          .tuple(fc.integer({ min: 100000, max: 999999 }), fc.integer({ min: -37, max: 38 }))
          .map(([m, e]) => Math.fround(Number(`${m}e${e - 5}`)))
          .filter(Number.isFinite),
        // The range the writer formats by scaling to an integer, and exact halves at the 7th
        // digit, where the scaled product sits on a tie and the writer must defer to the search.
        fc.double({ min: 1e-6, max: 8388608, noNaN: true }).map(Math.fround),
        fc
          .tuple(fc.integer({ min: 100000, max: 999999 }), fc.integer({ min: 0, max: 20 }))
          .map(([m, e]) => (m + 0.5) / 2 ** e),
      );
      fc.assert(
        fc.property(arbFloat32, (f) => {
          expect(json.encode(t.f32(), f)).to.equal(exhaustive(f));
        }),
        { numRuns: 20000 },
      );
    });

    it('reads back the text it writes for the largest float32, which lies above it as a double', () => {
      for (const max of [3.4028234663852886e38, -3.4028234663852886e38]) {
        const text = json.encode(t.f32(), max);
        expect(Math.abs(Number(text))).to.be.above(3.4028234663852886e38);
        expect(json.decode(t.f32(), text)).to.equal(max);
      }
      expect(json.encode(t.f32(), 3.4028235e38)).to.equal('3.4028235e+38');
    });

    it('refuses values outside float32 range on read and write', () => {
      expect(readErrorOf(() => json.decode(t.f32(), '3.5e38')).code).to.equal('out_of_range');
      expect(writeErrorOf(() => json.encode(t.f32(), 3.5e38)).code).to.equal('out_of_range');
    });
  });

  describe('writing', () => {
    it('projects the value onto the descriptor: undeclared properties never leak out', () => {
      const value = { id: 1n, name: 'a', weight: 1, password: 'secret', toJSON: () => 'hijack' };
      expect(json.encode(User, value)).to.equal('{"id":1,"name":"a","weight":1}');
    });

    it('skips undefined optional members, writes null for nullable ones', () => {
      const T = t.object({ a: t.optional(t.i32()), b: t.nullable(t.i32()), c: t.i32() });
      expect(json.encode(T, { a: undefined, b: null, c: 1 })).to.equal('{"b":null,"c":1}');
    });

    it('indents by two spaces with prettify, like JSON.stringify(v, null, 2)', () => {
      const T = t.object({
        list: t.array(t.object({ a: t.i32(), m: t.map(t.bool()) })),
        empty: t.array(t.i8()),
        tuple: t.tuple([t.string(), t.f64()]),
      });
      const value = {
        list: [
          { a: 1, m: { x: true } },
          { a: 2, m: {} },
        ],
        empty: [],
        tuple: ['s', 1.5] as [string, number],
      };
      expect(json.encode(T, value, { prettify: true })).to.equal(JSON.stringify(value, null, 2));
    });

    it('escapes strings and keys, including control characters, and writes surrogate pairs as they are', () => {
      // Lone surrogates are not Unicode text: every codec refuses them (unicode-text.spec.ts).
      const T = t.map(t.string());
      const value = { 'q"k': 'line\nbreak \u0001 \\ "quoted" \ud83d\ude00' };
      const text = json.encode(T, value);
      expect(text).to.equal(JSON.stringify(value));
      expect(json.decode(T, text)).to.deep.equal(value);
    });

    it('writes bytes as padded base64 and reads them back', () => {
      const bytes = new Uint8Array([0, 1, 254, 255, 128]);
      expect(json.encode(t.bytes(), bytes)).to.equal('"AAH+/4A="');
      expect(json.decode(t.bytes(), '"AAH+/4A="')).to.deep.equal(bytes);
      expect(readErrorOf(() => json.decode(t.bytes(), '"AAH+/4A"')).code).to.equal('type_mismatch');
    });

    it('refuses NaN and infinities with a clear error and path', () => {
      const T = t.object({ points: t.array(t.f64()) });
      const e = writeErrorOf(() => json.encode(T, { points: [1, Number.NaN] }));
      expect([e.code, e.path]).to.deep.equal(['out_of_range', '/points/1']);
      expect(e.message).to.contain('NaN');
      expect(writeErrorOf(() => json.encode(t.f64(), Infinity)).code).to.equal('out_of_range');
    });

    it('refuses values of the wrong type, out of range, or missing required members', () => {
      expect(writeErrorOf(() => json.encode(User, { id: 1n, name: 5, weight: 1 } as never)).path).to.equal('/name');
      expect(writeErrorOf(() => json.encode(t.u8(), 256)).code).to.equal('out_of_range');
      expect(writeErrorOf(() => json.encode(t.u64(), -1n)).code).to.equal('out_of_range');
      expect(writeErrorOf(() => json.encode(t.i32(), 1.5)).code).to.equal('type_mismatch');
      const e = writeErrorOf(() => json.encode(User, { id: 1n, weight: 1 } as never));
      expect([e.code, e.path, e.key]).to.deep.equal(['missing_key', '/name', 'name']);
    });

    it('accepts safe-integer numbers for 64-bit members', () => {
      expect(json.encode(t.u64(), 42 as unknown as bigint)).to.equal('42');
    });
  });

  describe('bad input', () => {
    it('an empty body is a syntax_error', () => {
      expect(readErrorOf(() => json.decode(User, '')).code).to.equal('syntax_error');
      expect(readErrorOf(() => json.decode(User, new Uint8Array())).code).to.equal('syntax_error');
    });

    it('trailing data and bad literals are syntax errors, on the exact path too', () => {
      for (const text of [
        '{"id":1} x',
        '{"id":tru}',
        '{"id":01}',
        '{"id":1,}',
        "{'id':1}",
        '{"id":12345678901234567890',
      ]) {
        expect(readErrorOf(() => json.decode(User, text)).code, text).to.equal('syntax_error');
      }
    });

    it('invalid UTF-8 bytes are a syntax_error', () => {
      expect(readErrorOf(() => json.decode(t.string(), new Uint8Array([0x22, 0xc3, 0x28, 0x22]))).code).to.equal(
        'syntax_error',
      );
    });

    it('reads UTF-8 bytes', () => {
      expect(json.decode(t.string(), new TextEncoder().encode('"héllo ✓"'))).to.equal('héllo ✓');
    });

    it('200,000 nested brackets give a ReadError, never a stack overflow', () => {
      const deep = '['.repeat(200_000) + ']'.repeat(200_000);
      expect(readErrorOf(() => json.decode(User, deep)).code).to.equal('type_mismatch');
      expect(readErrorOf(() => json.decode(t.array(t.u64()), deep)).code).to.equal('type_mismatch');
      // The exact parser (taken when a 64-bit member meets an integer beyond 2^53) stops at maxDepth.
      const T = t.object({ id: t.u64(), rest: t.array(t.string()) });
      const withBigNumber = '{"id":12345678901234567890,"rest":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}';
      expect(readErrorOf(() => json.decode(T, withBigNumber)).code).to.equal('limit_exceeded');
      expect(readErrorOf(() => json.decode(User, '['.repeat(200_000))).code).to.equal('syntax_error');
    });

    it('a 400-digit number is out_of_range for every numeric kind', () => {
      const huge = '9'.repeat(400);
      for (const type of [t.i32(), t.u64(), t.i64(), t.f32(), t.f64()] as Type[]) {
        expect(readErrorOf(() => json.decode(type, huge)).code, type.kind).to.equal('out_of_range');
      }
      expect(readErrorOf(() => json.decode(t.u64(), '1e999999999')).code).to.equal('out_of_range');
    });

    it('a __proto__ key is refused as unknown, or dropped, and never pollutes a prototype', () => {
      const text = '{"id":1,"name":"a","weight":1,"__proto__":{"polluted":true}}';
      expect(readErrorOf(() => json.decode(User, text)).key).to.equal('__proto__');
      const value = json.decode(User, text, { errorOnUnknownKeys: false });
      expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
      expect((value as Record<string, unknown>).polluted).to.equal(undefined);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('a __proto__ key in a map stays an own entry, on the exact path too', () => {
      const cases: [Type, string][] = [
        [t.map(t.i32()), '{"__proto__":1,"a":1}'],
        [t.map(t.i64()), '{"__proto__":12345678901234567,"a":1}'],
      ];
      for (const [type, text] of cases) {
        const value = json.decode(type, text) as Record<string, unknown>;
        expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
        expect(Object.keys(value)).to.deep.equal(['__proto__', 'a']);
      }
    });

    it('a member named constructor is read from the document, not from Object.prototype', () => {
      const T = t.object({ constructor: t.string() });
      expect(readErrorOf(() => json.decode(T, '{}', { errorOnMissingKeys: true })).key).to.equal('constructor');
      expect(json.decode(T, '{}')).to.deep.equal({ constructor: '' });
      expect(json.decode(T, '{"constructor":"c"}')).to.deep.equal({ constructor: 'c' });
    });

    it('wrong types at every depth give type_mismatch with the path', () => {
      const T = t.object({ a: t.array(t.tuple([t.bool(), t.map(t.enum(['x', 'y']))])) });
      const cases: [string, string][] = [
        ['[]', ''],
        ['{"a":{}}', '/a'],
        ['{"a":[5]}', '/a/0'],
        ['{"a":[[true]]}', '/a/0'],
        ['{"a":[["true",{}]]}', '/a/0/0'],
        ['{"a":[[true,[]]]}', '/a/0/1'],
        ['{"a":[[true,{"k":"z"}]]}', '/a/0/1/k'],
      ];
      for (const [text, path] of cases) {
        const e = readErrorOf(() => json.decode(T, text));
        expect([e.code, e.path], text).to.deep.equal(['type_mismatch', path]);
      }
    });
  });

  it('works where code generation from strings is forbidden (Content-Security-Policy without unsafe-eval)', () => {
    const script = fileURLToPath(new URL('../../support/no-eval-roundtrip.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', script], {
      encoding: 'utf8',
    });
    expect(run.stderr).to.equal('');
    expect(run.stdout.trim()).to.equal('{"id":18446744073709551615,"name":"é","weight":0.1} codegen blocked');
  });
});
