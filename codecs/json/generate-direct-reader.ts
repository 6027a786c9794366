import { nullIsAbsent } from '../../core/read/optional-null.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { FLOAT_RULES } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { arrayRule, numberRule, stringRule, type ConstraintRule } from '../../core/kinds/constraints.ts';
import type { NumberRule } from '../../core/kinds/rule.ts';
import type { NumberConstraints } from '../../core/kinds/constraint-options.ts';
import type { ObjectType } from '../../core/descriptors/index.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { Constants, bail, buildFunction, returnObject } from '../../core/codegen/codegen.ts';
import * as scan from './direct-scan.ts';

/** Reads JSON text straight into the value of its descriptor, or bails (throws). */
export type DirectReader = (text: string) => unknown;

/**
 * Generates a parser that reads compact JSON text straight into the descriptor's value, so 64-bit
 * integers keep every digit with no second parse, and each value is checked as it is scanned. It
 * reads the common shape only: every declared key present once, in declared order, and no other
 * key; tokens as `direct-scan.ts` accepts them. On anything else it bails and the codec takes its
 * general path, which gives the value or the exact error. Text it accepts is valid JSON that the
 * general path reads to the same value whatever the key options, as all keys are there and none
 * is unknown. Constraints are checked as values are read, and the reader bails when one fails
 * (the general path gives the error). Returns `undefined` for descriptors without 64-bit members,
 * where `JSON.parse` and its native string scanning are faster, and for kinds it does not read.
 */
export function generateDirectReader(type: Type, maxDepth: number): DirectReader | undefined {
  if (visit(type, bigMembers) !== 'big') return undefined;
  const gen = new ParserGenerator(maxDepth);
  const root = gen.value(type, 1);
  const [cur, fail] = [gen.ref(gen.cursor), gen.ref(bail)];
  const body = `${gen.code.join('\n')}
return (text) => {
  ${cur}.text = text; ${cur}.pos = 0;
  try {
    const value = ${root};
    if (${cur}.pos !== text.length) ${fail}();
    return value;
  } finally {
    ${cur}.text = '';
  }
};`;
  return buildFunction<DirectReader>(gen.constants.values, body);
}

/** What the direct reader makes of a descriptor: `big` when it has 64-bit members and only kinds the direct reader reads. */
type Members = 'big' | 'plain' | 'unsupported';

const plain = (): Members => 'plain';
const unsupported = (): Members => 'unsupported';

const bigMembers: Visitor<Members> = {
  bigint: () => 'big',
  string: plain,
  bool: plain,
  float: plain,
  int: plain,
  optional: (d) => visit(d.inner, bigMembers),
  nullable: (d) => visit(d.inner, bigMembers),
  array: (d) => visit(d.element, bigMembers),
  object: (d) => {
    const all = Object.values(d.fields).map((f) => visit(f, bigMembers));
    return all.includes('unsupported') ? 'unsupported' : all.includes('big') ? 'big' : 'plain';
  },
  bytes: unsupported,
  timestamp: unsupported,
  unknown: unsupported,
  void: unsupported,
  literal: unsupported,
  enum: unsupported,
  map: unsupported,
  tuple: unsupported,
  variant: unsupported,
  lazy: unsupported,
};

class ParserGenerator {
  readonly constants = new Constants();
  readonly code: string[] = [];
  readonly cursor = new scan.Cursor();
  private count = 0;
  /** The generated check function of each number kind, by kind (or by its constraints). */
  private readonly checks = new Map<unknown, string>();

  constructor(private readonly maxDepth: number) {}

  ref(value: unknown): string {
    return this.constants.ref(value);
  }

  /** An expression reading one value of `type`, from the cursor's position on. */
  value(type: Type, depth: number): string {
    return visit(type, valueOf, this, depth);
  }

  /** A call of the scanner function `fn` on the cursor and `args`, as source. */
  call(fn: unknown, ...args: unknown[]): string {
    return `${this.ref(fn)}(${[this.ref(this.cursor), ...args].join(', ')})`;
  }

  /** A container's read: its function's call, or a bail when it is too deep for the reader, which fails there (the general path reports it). */
  container(depth: number, generate: () => string): string {
    if (depth > this.maxDepth) return `${this.ref(bail)}()`;
    return `${generate()}()`;
  }

  /**
   * A function, generated once per kind (and per constraints), that returns the value read from a
   * scanned number when the kind's rule and the constraints take it, or bails.
   */
  check(kind: string, rule: NumberRule, constraints: NumberConstraints | undefined): string {
    const key = constraints ?? kind;
    let name = this.checks.get(key);
    if (name === undefined) {
      name = `k${this.checks.size}`;
      this.checks.set(key, name);
      if (constraints === undefined) {
        this.code.push(
          `function ${name}(n) { return ${rule.rangeCode('n')} ? ${rule.readCode('n')} : ${this.ref(bail)}(); }`,
        );
      } else {
        // Bounds apply to the value read (an f32 rounded).
        const pass = numberRule(constraints).passCode('v', (c) => this.ref(c));
        this.code.push(
          `function ${name}(n) { if (!(${rule.rangeCode('n')})) ${this.ref(bail)}(); const v = ${rule.readCode('n')}; return ${pass} ? v : ${this.ref(bail)}(); }`,
        );
      }
    }
    return name;
  }

  /** `read` (an expression), kept when it passes `rule`'s check, else a bail: the general path gives the error. */
  passing(rule: ConstraintRule<never>, read: string): string {
    let name = this.checks.get(rule);
    if (name === undefined) {
      name = `k${this.checks.size}`;
      this.checks.set(rule, name);
      this.code.push(
        `function ${name}(v) { return ${rule.passCode('v', (c) => this.ref(c))} ? v : ${this.ref(bail)}(); }`,
      );
    }
    return `${name}(${read})`;
  }

  array(element: Type, depth: number, count: ConstraintRule<number> | undefined): string {
    const name = `f${this.count++}`;
    const [cur, fail] = [this.ref(this.cursor), this.ref(bail)];
    // The number of items, checked once they are read (JSON does not announce it).
    const done =
      count === undefined ? 'out' : `(${count.passCode('out.length', (c) => this.ref(c))} ? out : ${fail}())`;
    this.code.push(`function ${name}() {
  ${this.ref(scan.literal)}(${cur}, '[');
  const out = [];
  if (${cur}.text.charCodeAt(${cur}.pos) === 0x5d) return ${cur}.pos++, ${done};
  for (;;) {
    out.push(${this.value(element, depth + 1)});
    const c = ${cur}.text.charCodeAt(${cur}.pos++);
    if (c === 0x5d) return ${done};
    if (c !== 0x2c) ${fail}();
  }
}`);
    return name;
  }

  /** Consumes `token` (`{"key":`, `,"key":`, `}`), compared character by character: faster than `startsWith`. */
  private token(token: string): string {
    const cur = this.ref(this.cursor);
    // Every UTF-16 unit, as `charCodeAt` counts them (iterating the string would give code points).
    const differs = Array.from(
      { length: token.length },
      (_, i) => `s.charCodeAt(p + ${i}) !== ${token.charCodeAt(i)}`,
    ).join(' || ');
    return `{ const s = ${cur}.text, p = ${cur}.pos; if (${differs}) ${this.ref(bail)}(); ${cur}.pos = p + ${token.length}; }`;
  }

  object(type: ObjectType, depth: number): string {
    const name = `f${this.count++}`;
    const fields = Object.entries(type.fields);
    const lines = fields.map(
      ([key, field], i) =>
        `${this.token(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)} const a${i} = ${this.value(field, depth + 1)};`,
    );
    lines.push(this.token(fields.length === 0 ? '{}' : '}'));
    // An optional member whose `null` is absence (read as `undefined`) is left out, as the reader does.
    lines.push(...returnObject(fields));
    this.code.push(`function ${name}() {\n  ${lines.join('\n  ')}\n}`);
    return name;
  }
}

/** Kinds the direct reader does not read: `generateDirectReader` generates nothing for descriptors holding them. */
const unread = (d: Type): never => {
  throw new TypeError(`no direct reader for ${d.kind}`);
};

const valueOf: Visitor<string, [gen: ParserGenerator, depth: number]> = {
  string: (d, gen) => {
    const read = gen.call(scan.string);
    return d.constraints === undefined ? read : gen.passing(stringRule(d.constraints), read);
  },
  bool: (_, gen) => gen.call(scan.boolean),
  int: (d, gen) => `${gen.check(d.kind, INT_RULES[d.kind], d.constraints)}(${gen.call(scan.integer)})`,
  // The scanner checks 64-bit bounds by sign and digits: exact, and no bigint comparison. With
  // `json: 'string'` the integer may also come as a string of its digits.
  bigint: (d, gen) => {
    const read = gen.call(d.json === 'string' ? scan.bigIntegerOrText : scan.bigInteger, BIGINT_RULES[d.kind].signed);
    return d.constraints === undefined ? read : gen.passing(numberRule(d.constraints), read);
  },
  float: (d, gen) => `${gen.check(d.kind, FLOAT_RULES[d.kind], d.constraints)}(${gen.call(scan.number)})`,
  // JSON text has no undefined: an optional that holds null leaves the null to its inner descriptor.
  optional: (d, gen, depth) =>
    nullIsAbsent(d)
      ? `(${gen.call(scan.takeNull)} ? undefined : ${gen.value(d.inner, depth)})`
      : gen.value(d.inner, depth),
  nullable: (d, gen, depth) => `(${gen.call(scan.takeNull)} ? null : ${gen.value(d.inner, depth)})`,
  array: (d, gen, depth) =>
    gen.container(depth, () =>
      gen.array(d.element, depth, d.constraints === undefined ? undefined : arrayRule(d.constraints)),
    ),
  object: (d, gen, depth) => gen.container(depth, () => gen.object(d, depth)),
  bytes: unread,
  timestamp: unread,
  unknown: unread,
  void: unread,
  literal: unread,
  enum: unread,
  map: unread,
  tuple: unread,
  variant: unread,
  lazy: unread,
};
