// The direct reader (descriptors with 64-bit members) is a fast path only: on any text it must give
// the value or the error that the general path gives. The reference below is that path as it was
// before the direct reader: JSON.parse and the closure reader, re-reading with the exact parser
// when a 64-bit member meets an integer beyond 2^53.
import { expect } from 'chai';
import fc from 'fast-check';
import { t, type Type } from '../../../index.ts';
import { resolveReadOptions, type ReadOptions } from '../../../core/options.ts';
import { Failure } from '../../../core/errors/failure.ts';
import { ReadError, asReadError } from '../../../core/errors/read-error.ts';
import { NeedsExactNumbers } from '../../../core/read/read-scalars.ts';
import { readersFor } from '../../../core/read/read.ts';
import { canGenerateCode } from '../../../core/codegen/codegen.ts';
import { json } from '../../../codecs/json/index.ts';
import { generateDirectReader } from '../../../codecs/json/generate-direct-reader.ts';
import { parseExact } from '../../../codecs/json/parse-exact.ts';

const STRICT = { errorOnMissingKeys: true, errorOnUnknownKeys: true } as const;
const OPTION_SETS: (ReadOptions | undefined)[] = [STRICT, undefined, { errorOnUnknownKeys: false }, { maxDepth: 2 }];

function reference(type: Type, text: string, opts: ReadOptions | undefined): unknown {
  const options = resolveReadOptions(opts);
  const { closures } = readersFor(type, options, 'json');
  try {
    if (text.length > options.maxBytes) throw new Failure('limit_exceeded', 'too big');
    let tree: unknown;
    try {
      tree = JSON.parse(text);
    } catch (e) {
      throw new Failure('syntax_error', `invalid JSON: ${(e as Error).message}`);
    }
    try {
      return closures(tree);
    } catch (e) {
      if (!(e instanceof NeedsExactNumbers)) throw e;
      return closures(parseExact(text, options.maxDepth));
    }
  } catch (e) {
    throw asReadError(e);
  }
}

/** Key order, -0, bigints and prototypes all count. */
function show(value: unknown): string {
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (typeof v === 'bigint') return `${v}n`;
    if (Object.is(v, -0)) return '-0';
    if (v === undefined) return 'undefined';
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype)
      return 'odd prototype';
    return v;
  });
}

function outcome(run: () => unknown): string {
  try {
    return `value ${show(run())}`;
  } catch (e) {
    // Syntax errors carry the engine's message, which names positions in different texts.
    if (e instanceof ReadError) return `${e.code} at ${e.path}: ${e.code === 'syntax_error' ? '' : e.message}`;
    throw e;
  }
}

function agrees(type: Type, text: string, opts: ReadOptions | undefined): void {
  expect(
    outcome(() => json.decode(type, text, opts)),
    text,
  ).to.equal(outcome(() => reference(type, text, opts)));
}

const Entry = t.object({ a: t.u64(), ok: t.bool() });
const Big = t.object({
  id: t.u64(),
  n: t.i64(),
  name: t.string(),
  w: t.f32(),
  x: t.f64(),
  k: t.i32(),
  b: t.u8(),
  opt: t.optional(t.u64()),
  nul: t.nullable(t.i64()),
  list: t.array(Entry),
});

const TOKENS = [
  '0',
  '-0',
  '1',
  '-1',
  '7',
  '255',
  '256',
  '-129',
  '1.5',
  '1.0',
  '-0.0',
  '0.1',
  '1e3',
  '1E3',
  '1e30',
  '1.8e19',
  '-2.5e1',
  '1e400',
  '-1e400',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '18446744073709551615',
  '18446744073709551616',
  '99999999999999999999',
  '100000000000000000000',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '12345678901234567890123',
  '1152921504606846976',
  '3.4028234663852886e38',
  '3.5e38',
  '123456789012345.6',
  '1234567890123456.7',
  '0.30000000000000004',
  '01',
  '-',
  '1.',
  '.5',
  '+1',
  '1e',
  '--1',
  'NaN',
  '"s"',
  '""',
  '"12345678901234567890"',
  '"\\u00001152921504606846976"',
  '"\\u0000"',
  '"a\\"b"',
  '"\\\\"',
  '"é\u2028"',
  '"\\ud800"',
  '"tab\there"',
  'true',
  'false',
  'null',
  'nul',
  'tru',
  '[]',
  '{}',
  '[1,2]',
  '{"a":1}',
  '[18446744073709551616]',
];

const token = fc.oneof(
  fc.constantFrom(...TOKENS),
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.integer({ min: -300, max: 300 }).map(String),
);
const space = fc.constantFrom('', '', '', ' ', '\n  ', '\t', '\r\n');

/** An entry object: its two keys in either order, maybe one missing, maybe an extra one. */
const entryText = fc
  .record({
    a: token,
    ok: fc.oneof(fc.constantFrom('true', 'false'), token),
    extra: fc.option(fc.constantFrom('"__proto__"', '"constructor"', '"z"', '"a"'), { freq: 5 }),
    drop: fc.nat(6),
    s: space,
  })
  .map(({ a, ok, extra, drop, s }) => {
    const parts = [`"a":${s}${a}`, `"ok":${ok}`].filter((_, i) => i !== drop);
    if (extra !== null) parts.push(`${extra}:${s}1`);
    return `{${s}${parts.join(`,${s}`)}}`;
  });

const MEMBERS = ['id', 'n', 'name', 'w', 'x', 'k', 'b', 'opt', 'nul', 'list'] as const;

/** A Big object, mostly well formed, with every kind of deviation now and then. */
const bigText = fc
  .record({
    values: fc.record({
      id: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String), token),
      n: fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String), token),
      name: fc.oneof(
        fc.string().map((s) => JSON.stringify(s)),
        token,
      ),
      w: token,
      x: token,
      k: token,
      b: token,
      opt: token,
      nul: token,
      list: fc.oneof(
        fc.array(entryText, { maxLength: 4 }).map((a) => `[${a.join(',')}]`),
        token,
      ),
    }),
    order: fc.shuffledSubarray([...MEMBERS], { minLength: 10, maxLength: 10 }),
    shuffle: fc.boolean(),
    drop: fc.option(fc.constantFrom(...MEMBERS), { freq: 4 }),
    extra: fc.option(
      fc.constantFrom('"__proto__":{}', '"constructor":1', '"extra":18446744073709551616', '"id":1', '"\\u0069d":1'),
      { freq: 4 },
    ),
    s: space,
    cut: fc.option(fc.nat(400), { freq: 8 }),
  })
  .map(({ values, order, shuffle, drop, extra, s, cut }) => {
    const keys = (shuffle ? order : [...MEMBERS]).filter((k) => k !== drop);
    const parts = keys.map((k) => `"${k}"${s}:${s}${values[k]}`);
    if (extra !== null) parts.splice(parts.length >> 1, 0, extra);
    const text = `${s}{${s}${parts.join(`${s},${s}`)}${s}}${s}`;
    return cut === null ? text : text.slice(0, cut);
  });

describe('codecs/json: the direct reader', () => {
  it('is generated for descriptors with 64-bit members only', function () {
    // Without code generation (closure-path.spec.ts) the codec never builds one.
    if (!canGenerateCode()) this.skip();
    expect(generateDirectReader(Big, 64)).to.be.a('function');
    expect(generateDirectReader(t.object({ s: t.string(), n: t.f64() }), 64)).to.equal(undefined);
    expect(generateDirectReader(t.object({ m: t.map(t.u64()) }), 64)).to.equal(undefined);
    expect(generateDirectReader(t.object({ n: t.u64(), s: t.enum(['a']) }), 64)).to.equal(undefined);
  });

  it('reads the common shape of compact JSON exactly, and bails on anything else', function () {
    if (!canGenerateCode()) this.skip();
    const parse = generateDirectReader(Entry, 64)!;
    expect(parse('{"a":18446744073709551615,"ok":true}')).to.deep.equal({ a: 2n ** 64n - 1n, ok: true });
    expect(parse('{"a":0,"ok":false}')).to.deep.equal({ a: 0n, ok: false });
    expect(generateDirectReader(t.array(t.i64()), 64)!('[-12,-9223372036854775808]')).to.deep.equal([
      -12n,
      -(2n ** 63n),
    ]);
    for (const text of [
      ' {"a":1,"ok":true}',
      '{"a": 1,"ok":true}',
      '{"ok":true,"a":1}',
      '{"a":1}',
      '{"a":1,"ok":true,"z":1}',
      '{"a":1e3,"ok":true}',
      '{"\\u0061":1,"ok":true}',
      '{"a":1,"ok":true}x',
      '{"a":18446744073709551616,"ok":true}',
      '{"a":-1,"ok":true}',
    ]) {
      expect(() => parse(text), text).to.throw();
    }
  });

  it('reads Ledger-like documents with every other integer beyond 2^53', () => {
    const Ledger = t.object({ entries: t.array(t.object({ id: t.u64(), amount: t.i64() })) });
    const entries = Array.from({ length: 50 }, (_, i) => ({
      id: 2n ** 60n + BigInt(i),
      amount: i % 2 === 0 ? -(2n ** 62n) - BigInt(i) : BigInt(-i),
    }));
    const text = json.encode(Ledger, { entries });
    expect(json.decode(Ledger, text, STRICT)).to.deep.equal({ entries });
    agrees(Ledger, text, STRICT);
  });

  it('gives what the general path gives on adversarial members', () => {
    const cases: [Type, string][] = [
      [t.u64(), '-0'],
      [t.u64(), '1e30'],
      [t.u64(), '1.8e19'],
      [t.u64(), '18446744073709551615'],
      [t.u64(), '18446744073709551616'],
      [t.i64(), '-9223372036854775808'],
      [t.i64(), '-9223372036854775809'],
      [t.i64(), '9223372036854775808'],
      [t.i64(), '-0'],
      [t.i64(), '00'],
      [t.i64(), '"\\u00001152921504606846976"'],
      [t.i64(), '"1152921504606846976"'],
      [t.object({ n: t.u64(), s: t.string() }), '{"n":1,"s":"\\u0000123"}'],
      [t.object({ n: t.u64(), s: t.string() }), '{"n":1152921504606846977,"s":12345678901234567890}'],
      [t.object({ n: t.u64(), f: t.array(t.f64()) }), '{"n":1,"f":[12345678901234567890,1e30,-0]}'],
      [t.object({ n: t.u64(), f: t.array(t.f64()) }), '{"n":12345678901234567890,"f":[12345678901234567890,1e400]}'],
      [t.object({ n: t.u64(), k: t.i32() }), '{"n":12345678901234567890,"k":12345678901234567890}'],
      [t.object({ n: t.u64(), k: t.i32() }), '{"k":12345678901234567890,"n":12345678901234567890}'],
      [t.object({ n: t.u64() }), '{"n":1,"big":12345678901234567890}'],
      [t.object({ n: t.u64() }), '{"n":1,"__proto__":{"n":2}}'],
      [t.object({ n: t.u64() }), '{"n":1,"n":2}'],
      [t.object({ n: t.u64(), f: t.f32() }), '{"n":1,"f":-0}'],
      [t.object({ n: t.u64(), o: t.optional(t.u64()) }), '{"n":1,"o":null}'],
      [t.object({ n: t.u64(), o: t.nullable(t.u64()) }), '{"n":1,"o":null}'],
      [t.object({ n: t.u64(), o: t.optional(t.u64()) }), '{"n":1}'],
      [t.array(t.array(t.array(t.u64()))), '[[[1]]]'],
      // Keys are compared as UTF-16 units.
      [t.object({ '😀a': t.u64(), 'é"\\': t.u64() }), '{"😀a":1,"é\\"\\\\":2}'],
      [t.object({ '😀a': t.u64(), b: t.u64() }), '{"\ud83da":x5,"b":1}'],
      [t.object({ '😀a': t.u64(), b: t.u64() }), '{"\ud83d":1,"b":1}'],
      [t.object({ '😀a': t.u64(), b: t.u64() }), '{"😀a"x1,"b":1}'],
      // The exact parser's RawNumber where an object is expected: never read as an object.
      [t.object({ a: t.u64(), o: t.object({ x: t.optional(t.i32()) }) }), '{"a":18446744073709551615,"o":1e20}'],
      [t.object({ a: t.u64(), o: t.nullable(t.object({})) }), '{"a":18446744073709551615,"o":1.5e300}'],
    ];
    for (const [type, text] of cases) for (const opts of OPTION_SETS) agrees(type, text, opts);
  });

  it('agrees with the general path on arbitrary documents (property)', () => {
    fc.assert(
      fc.property(bigText, fc.constantFrom(...OPTION_SETS), (text, opts) => agrees(Big, text, opts)),
      { numRuns: 3000 },
    );
  });

  it('agrees with the general path on any key names, with one character changed (property)', () => {
    const key = fc.string({ unit: 'binary', maxLength: 4 }).filter((k) => k !== '__proto__');
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        fc.nat(),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        (keys, n, at, ch) => {
          const type = t.object(Object.fromEntries(keys.map((k) => [k, t.u64()])));
          const text = json.encode(
            type,
            Object.fromEntries(keys.map((k, i) => [k, BigInt(n) * 10n ** BigInt(i * 4)])) as never,
          );
          agrees(type, text, STRICT);
          const i = at % text.length;
          agrees(type, text.slice(0, i) + ch + text.slice(i + 1), STRICT);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('agrees with the general path on well-formed documents (property)', () => {
    const value = fc.record(
      {
        id: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        n: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        name: fc.string({ unit: 'binary' }),
        w: fc.float({ noNaN: true, noDefaultInfinity: true }),
        x: fc.double({ noNaN: true, noDefaultInfinity: true }),
        k: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        b: fc.integer({ min: 0, max: 255 }),
        opt: fc.option(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { nil: undefined }),
        nul: fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { nil: null }),
        list: fc.array(fc.record({ a: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), ok: fc.boolean() }), {
          maxLength: 3,
        }),
      },
      { requiredKeys: ['id', 'n', 'name', 'w', 'x', 'k', 'b', 'nul', 'list'] },
    );
    fc.assert(
      fc.property(value, (v) => {
        const text = json.encode(Big, v as never);
        agrees(Big, text, STRICT);
        agrees(Big, json.encode(Big, v as never, { prettify: true }), undefined);
      }),
      { numRuns: 1000 },
    );
  });
});
