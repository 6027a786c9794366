import { nullIsAbsent } from './optional-null.ts';
import type { AnyType, ArrayType, MapType, ObjectType, TupleType, VariantType } from '../descriptors/index.ts';
import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';
import { BOOL } from '../kinds/bool.ts';
import { arrayRule, mapRule, numberRule, stringRule, type ConstraintRule } from '../kinds/constraints.ts';
import { FLOAT_RULES } from '../kinds/float.ts';
import { INT_RULES } from '../kinds/integer.ts';
import { discriminantSwitchCode, notTupleCode } from '../kinds/containers.ts';
import { memberCode } from '../kinds/member.ts';
import type { ScalarRule } from '../kinds/rule.ts';
import { STRING } from '../kinds/string.ts';
import { Constants, bail, buildFunction } from '../codegen/codegen.ts';
import { compileReader } from './compile-reader.ts';
import type { Reader, ReaderContext } from './context.ts';
import { keyCountCode, memberRules, notRecordCode, returnMembersCode } from './records.ts';

/**
 * Generates the fast path of a reader: straight-line JavaScript with the member names written in,
 * which V8 turns into inline-cached property loads. It handles the common input only and bails
 * (throws) on anything else; the caller then runs the closure reader, which gives the exact value
 * or the exact error with its path. Reading is pure, so running it twice is safe.
 */
export function generateReader(type: Type, ctx: ReaderContext): Reader {
  const gen = new ReaderGenerator(ctx);
  const entry = gen.function(type, 1);
  const body = `${gen.code.join('\n')}\nreturn ${entry};`;
  return buildFunction<Reader>(gen.constants.values, body);
}

class ReaderGenerator {
  readonly constants = new Constants();
  readonly code: string[] = [];
  private count = 0;

  constructor(private readonly ctx: ReaderContext) {}

  /** Emits a function `fN(v)` reading `type` at `depth`; returns its name. */
  function(type: Type, depth: number): string {
    const name = `f${this.count++}`;
    this.code.push(`function ${name}(v) { return ${this.expr(type, 'v', depth)}; }`);
    return name;
  }

  /** A JavaScript expression reading the identifier `x` as `type`. */
  expr(type: Type, x: string, depth: number): string {
    return visit(type, expressionOf, this, x, depth);
  }

  /**
   * `x` read as `value` when its kind's rule takes it and `value` passes the constraints (on the
   * value as read: an `f32` rounded), else a bail.
   */
  scalar(rule: ScalarRule, x: string, value: string, constraints?: ConstraintRule<never>): string {
    const pass = constraints === undefined ? '' : ` && (${this.pass(constraints, value)})`;
    return `(${rule.isCode(x)}${pass} ? ${value} : ${this.constants.ref(bailFn)}())`;
  }

  /** A constraint rule's check of `x`, as source. */
  private pass(rule: ConstraintRule<never>, x: string): string {
    return rule.passCode(x, (value) => this.constants.ref(value));
  }

  /** The closure reader of `type` at `depth`, called from generated code. */
  closure(type: Type, depth: number): string {
    return this.constants.ref(compileReader(type, this.ctx, depth));
  }

  /**
   * The call reading `x` as the container `type` at `depth`: a generated function whose body
   * `body` makes, or the closure reader when the container sits deeper than `maxDepth`.
   */
  container(type: Type, x: string, depth: number, body: (bail: string) => string): string {
    if (depth > this.ctx.maxDepth) return `${this.closure(type, depth)}(${x})`;
    return `${this.emit(body)}(${x})`;
  }

  /** Emits a function `fN(v)` whose body `body` makes, given the bail function's name; returns its name. */
  private emit(body: (bail: string) => string): string {
    const name = `f${this.count++}`;
    const text = body(this.constants.ref(bailFn));
    this.code.push(`function ${name}(v) {\n  ${text}\n}`);
    return name;
  }

  /** An array, its elements at depth `inner`: its length is checked before any element is read. */
  arrayBody(d: ArrayType, bail: string, inner: number): string {
    const count = d.constraints === undefined ? '' : ` || !(${this.pass(arrayRule(d.constraints), 'v.length')})`;
    return `if (!Array.isArray(v)${count}) ${bail}();
  const out = [];
  for (let i = 0; i < v.length; i++) { const x = v[i]; out.push(${this.expr(d.element, 'x', inner)}); }
  return out;`;
  }

  /** A tuple, its elements at depth `inner`. */
  tupleBody(d: TupleType, bail: string, inner: number): string {
    return `if (${notTupleCode('v', d.elements.length)}) ${bail}();
  ${d.elements.map((_, i) => `const x${i} = v[${i}];`).join(' ')}
  return [${d.elements.map((e, i) => this.expr(e, `x${i}`, inner)).join(', ')}];`;
  }

  /** A map, its values at depth `inner`: its entries are counted before any is read. */
  mapBody(d: MapType, bail: string, inner: number): string {
    const count =
      d.constraints === undefined
        ? ''
        : `
  ${keyCountCode('v')} if (!(${this.pass(mapRule(d.constraints), 'n')})) ${bail}();`;
    return `${this.recordCheck('v')}${count}
  const out = {};
  for (const k in v) { const x = v[k]; if (k === '__proto__' || !k.isWellFormed()) ${bail}(); out[k] = ${this.expr(d.values, 'x', inner)}; }
  return out;`;
  }

  private recordCheck(v: string): string {
    const bail = this.constants.ref(bailFn);
    return `if (${notRecordCode(v, this.ctx.source, (value) => this.constants.ref(value))}) ${bail}();`;
  }

  /**
   * A switch on the discriminant calling the member object's function; any other value bails. A
   * variant reads at the depth of its member objects.
   */
  variantBody(type: VariantType, depth: number): string {
    const bail = this.constants.ref(bailFn);
    const cases = [...type.byValue].map(
      ([value, member]) =>
        `case ${JSON.stringify(value)}: return ${this.emit(() => this.objectBody(member, depth + 1, type.key))}(v);`,
    );
    return `${this.recordCheck('v')}
  ${discriminantSwitchCode('v', type.key, cases, `${bail}();`, (value) => this.constants.ref(value))}`;
  }

  /**
   * An object's members, read at `inner` depth. `discriminant`: a variant's member object, called
   * once the variant has checked that `v` is a record whose member of that name holds the member's
   * literal.
   */
  objectBody(type: ObjectType, inner: number, discriminant: string | undefined): string {
    const bail = this.constants.ref(bailFn);
    const lines = discriminant === undefined ? [this.recordCheck('v'), 'let p = 0;'] : ['let p = 0;'];
    const members = memberRules(type, this.ctx.errorOnMissingKeys);
    members.forEach(({ key, field, required, makeDefault }, i) => {
      if (key === discriminant) {
        // The variant's switch has matched it: present, and equal to the member's literal.
        lines.push(`p++; const a${i} = ${JSON.stringify((field as AnyType & { kind: 'literal' }).value)};`);
        return;
      }
      let absent: string;
      if (required) absent = `${bail}();`;
      else if (makeDefault === undefined) absent = `a${i} = undefined;`;
      else absent = `a${i} = ${this.constants.ref(makeDefault)}();`;
      lines.push(`const x${i} = ${memberCode('v', key, (value) => this.constants.ref(value))}; let a${i};`);
      lines.push(`if (x${i} === undefined) { ${absent} } else { p++; a${i} = ${this.expr(field, `x${i}`, inner)}; }`);
    });
    if (this.ctx.errorOnUnknownKeys) {
      // A count mismatch means an undeclared key (or a declared one holding undefined): let the closure path decide.
      lines.push(`${keyCountCode('v')} if (n !== p) ${bail}();`);
    }
    lines.push(...returnMembersCode(members));
    return lines.join('\n  ');
  }
}

const bailFn = bail;

/** Where an expression is generated: the generator, the identifier read, and its depth. */
type At = [gen: ReaderGenerator, x: string, depth: number];

/** Rarer kinds (64-bit, bytes, timestamp, unknown, lazy, literal, enum, void) use their closure reader inline. */
const closureCall = (d: Type, gen: ReaderGenerator, x: string, depth: number) => `${gen.closure(d, depth)}(${x})`;

const expressionOf: Visitor<string, At> = {
  string: (d, gen, x) => gen.scalar(STRING, x, x, d.constraints && stringRule(d.constraints)),
  bool: (_, gen, x) => gen.scalar(BOOL, x, x),
  int: (d, gen, x) => gen.scalar(INT_RULES[d.kind], x, x, d.constraints && numberRule(d.constraints)),
  float: (d, gen, x) => {
    const rule = FLOAT_RULES[d.kind];
    return gen.scalar(rule, x, rule.readCode(x), d.constraints && numberRule(d.constraints));
  },
  optional: (d, gen, x, depth) =>
    `(${nullIsAbsent(d) ? `${x} === null || ` : ''}${x} === undefined ? undefined : ${gen.expr(d.inner, x, depth)})`,
  nullable: (d, gen, x, depth) => `(${x} === null ? null : ${gen.expr(d.inner, x, depth)})`,
  array: (d, gen, x, depth) => gen.container(d, x, depth, (bail) => gen.arrayBody(d, bail, depth + 1)),
  map: (d, gen, x, depth) => gen.container(d, x, depth, (bail) => gen.mapBody(d, bail, depth + 1)),
  tuple: (d, gen, x, depth) => gen.container(d, x, depth, (bail) => gen.tupleBody(d, bail, depth + 1)),
  object: (d, gen, x, depth) => gen.container(d, x, depth, () => gen.objectBody(d, depth + 1, undefined)),
  variant: (d, gen, x, depth) => gen.container(d, x, depth, () => gen.variantBody(d, depth)),
  bigint: closureCall,
  bytes: closureCall,
  timestamp: closureCall,
  unknown: closureCall,
  lazy: closureCall,
  literal: closureCall,
  enum: closureCall,
  void: closureCall,
};
