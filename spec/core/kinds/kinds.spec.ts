// Each scalar kind's rules are stated once, in core/kinds: a check for the closure readers and
// writers, and an emitter writing the same check as source for every code generator. These specs
// hold the two forms together: the emitted code must test what the check tests, and the public
// codecs must take and refuse the same values, with the same messages, whether code generation is
// allowed or forbidden.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  BIGINT_RULES,
  FLOAT_RULES,
  INT_RULES,
  SCALAR_RULES,
  isInheritedKey,
  memberCode,
  memberValue,
} from '../../../core/kinds/index.ts';
import { BIGINT_RANGES, INT_RANGES, MAX_F32_INPUT } from '../../../core/kinds/ranges.ts';
import { canGenerateCode } from '../../../core/codegen/codegen.ts';
import { kindOutcomes } from '../../support/kind-outcomes.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The emitted expression over `x` as a function. */
const compile = (code: string) => new Function('x', `return ${code};`) as (x: unknown) => unknown;

const numbers = fc.oneof(
  fc.constantFrom(
    ...Object.values(INT_RANGES)
      .flat()
      .flatMap((b) => [b, b - 1, b + 1, b + 0.5]),
    MAX_F32_INPUT,
    -MAX_F32_INPUT,
    2 ** 53,
  ),
  fc.constantFrom(3.4028235677973366e38, -3.4028235677973366e38, 0, -0, NaN, Infinity, -Infinity),
  fc.integer(),
  fc.double(),
);
const bigints = fc.oneof(
  fc.constantFrom(
    ...Object.values(BIGINT_RANGES)
      .flat()
      .flatMap((b) => [b, b - 1n, b + 1n]),
  ),
  fc.bigInt({ min: -(2n ** 66n), max: 2n ** 66n }),
);
const anything = fc.oneof(numbers, bigints, fc.anything(), fc.uint8Array({ maxLength: 2 }));

describe('core/kinds: each scalar kind states its rules once', () => {
  for (const [kind, rule] of Object.entries(SCALAR_RULES)) {
    it(`${kind}: the emitted check takes exactly the values the check takes`, () => {
      const emitted = compile(rule.isCode('x'));
      fc.assert(
        fc.property(anything, (v) => {
          expect(emitted(v), fc.stringify(v)).to.equal(rule.is(v));
        }),
        { numRuns: 500 },
      );
    });
  }

  for (const [kind, rule] of [...Object.entries(INT_RULES), ...Object.entries(FLOAT_RULES)]) {
    it(`${kind}: the emitted bounds and value agree with the check on ${kind.startsWith('f') ? 'any number' : 'integers'}`, () => {
      const inRange = compile(rule.rangeCode('x'));
      const read = compile(rule.readCode('x'));
      const inputs = kind.startsWith('f') ? numbers : numbers.filter(Number.isInteger);
      fc.assert(
        fc.property(inputs, (n) => {
          expect(inRange(n), String(n)).to.equal(rule.accepts(n));
          if (rule.accepts(n)) expect(Object.is(read(n), rule.read(n)), String(n)).to.equal(true);
        }),
        { numRuns: 500 },
      );
      // A wire call that found no item gives undefined: the bounds refuse it.
      expect(inRange(undefined)).to.equal(false);
    });
  }

  for (const [kind, rule] of Object.entries(BIGINT_RULES)) {
    it(`${kind}: the emitted bounds agree with the check on bigints, and on numbers`, () => {
      const inRange = compile(rule.rangeCode('x'));
      const asNumber = compile(rule.numberCode('x'));
      fc.assert(
        fc.property(bigints, (b) => {
          expect(inRange(b), String(b)).to.equal(rule.accepts(b));
        }),
        { numRuns: 500 },
      );
      fc.assert(
        fc.property(numbers, (n) => {
          expect(asNumber(n), String(n)).to.equal(rule.acceptsNumber(n));
        }),
        { numRuns: 500 },
      );
      expect(inRange(undefined)).to.equal(false);
    });
  }

  it('the out_of_range messages are the documented ones', () => {
    expect(INT_RULES.u16.outOfRange(65536)).to.equal('65536 is outside u16 (0..65535)');
    expect(BIGINT_RULES.u64.outOfRange(-1)).to.equal('-1 is outside u64 (0..18446744073709551615)');
    expect(FLOAT_RULES.f32.readOutOfRange(1e39)).to.equal('1e+39 is outside f32: it would round to infinity');
    expect(FLOAT_RULES.f64.writeOutOfRange(Infinity)).to.equal(
      'Infinity cannot be written as f64: only finite numbers can',
    );
  });

  it('a member is read from own properties only, in the closure and the emitted code alike', () => {
    const hasOwn = Object.prototype.hasOwnProperty;
    const keys = fc.oneof(
      fc.constantFrom('constructor', 'toString', 'valueOf', 'hasOwnProperty', 'id', ''),
      fc.string({ maxLength: 4 }),
    );
    const objects = (key: string) =>
      fc.constantFrom<Record<string, unknown>>(
        {},
        { [key]: 1 },
        { [key]: undefined },
        Object.create({ [key]: 2 }) as Record<string, unknown>,
      );
    fc.assert(
      fc.property(
        keys.filter((k) => k !== '__proto__').chain((key) => objects(key).map((o) => ({ key, o }))),
        ({ key, o }) => {
          const load = new Function(
            'c0',
            'v',
            `return ${memberCode('v', key, (value) => (value === hasOwn ? 'c0' : 'unknown'))};`,
          );
          const expected = memberValue(o, key, isInheritedKey(key));
          expect(load(hasOwn, o)).to.equal(expected);
          // Never a property of Object.prototype (another prototype's, for a name it lacks, is an ordinary load).
          if (!hasOwn.call(o, key) && key in Object.prototype) expect(expected).to.equal(undefined);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the codecs take and refuse the same values, with the same messages, with code generation on and off', function () {
    this.timeout(120_000);
    expect(canGenerateCode()).to.equal(true);
    const seed = Date.now() % 2 ** 31;
    const child = spawnSync(
      process.execPath,
      [
        '--disallow-code-generation-from-strings',
        '--import',
        'tsx',
        'spec/support/kind-outcomes.ts',
        String(seed),
        '60',
      ],
      { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    expect(child.status, child.stderr).to.equal(0);
    const closures = JSON.parse(child.stdout) as { codegen: boolean; outcomes: string[] };
    expect(closures.codegen, 'the child process forbids code generation').to.equal(false);
    const generated = kindOutcomes(seed, 60);
    expect(generated.length, `seed ${seed}`).to.equal(closures.outcomes.length);
    const i = generated.findIndex((line, j) => line !== closures.outcomes[j]);
    if (i !== -1)
      expect(generated[i], `seed ${seed}: with code generation (actual), without (expected)`).to.equal(
        closures.outcomes[i],
      );
  });
});
