import type {
  AnyType,
  ArrayType,
  BigIntType,
  NumberConstraints,
  ObjectType,
  TupleType,
  Type,
  VariantType,
} from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { BOOL } from '../../core/kinds/bool.ts';
import { arrayRule, numberRule, stringRule } from '../../core/kinds/constraints.ts';
import { F32, F64 } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { discriminantSwitchCode, notTupleCode } from '../../core/kinds/containers.ts';
import { STRING } from '../../core/kinds/string.ts';
import { DEFAULT_MAX_DEPTH } from '../../core/options.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import { Constants, bail, buildFunction } from '../../core/codegen/codegen.ts';
import { absentMember, dependsOnDepth, memberLoadCode } from '../../core/write/absent.ts';
import { arrayCheckCode, holeCheckCode } from '../../core/write/array-bounds.ts';
import { notRecordCode } from '../../core/write/check-scalars.ts';
import { FunctionNames } from '../../core/write/function-names.ts';
import { compileJsonWriterAt, jsonWriterScope, type JsonWriterScope } from './compile-writer.ts';
import { formatF32 } from './format-f32.ts';
import { NEEDS_ESCAPE, quote } from './quote.ts';

/** A generated compact JSON writer: one value in, JSON text out. */
export type FastJsonWriter = (value: unknown) => string;

/**
 * Generates the fast path of a compact JSON writer: string concatenation with the member labels
 * written in. Like the generated reader it handles the common values only and bails (throws) on
 * anything else; the caller then runs the closure writer, which gives the text or the exact
 * `WriteError`. Writing is pure, so running it twice is safe.
 */
export function generateJsonWriter(type: Type, maxDepth = DEFAULT_MAX_DEPTH): FastJsonWriter {
  const gen = new WriterGenerator(jsonWriterScope(false, maxDepth));
  const entry = gen.function(type);
  return buildFunction<FastJsonWriter>(gen.constants.values, `${gen.code.join('\n')}\nreturn ${entry};`);
}

class WriterGenerator {
  readonly constants = new Constants();
  readonly code: string[] = [];
  private count = 0;
  private readonly written = new Set<string>();
  /** The generated function of each container descriptor. */
  private readonly containers = new FunctionNames();

  constructor(private readonly scope: JsonWriterScope) {}

  function(type: Type): string {
    const name = `f${this.count++}`;
    this.code.push(`function ${name}(v) { return ${this.expr(type, 'v', 1)}; }`);
    return name;
  }

  ref(value: unknown): string {
    return this.constants.ref(value);
  }

  /** `x` passes the constraint `rule` (measured by the expression `measure`), as a condition joined with `&&`. */
  passes(rule: { passCode(x: string, ref: (value: unknown) => string): string } | undefined, measure: string): string {
    return rule === undefined ? '' : ` && ${rule.passCode(measure, (value) => this.ref(value))}`;
  }

  /** A JavaScript expression writing the identifier `x` as `type`, a value at `depth` (the root container's is 1). */
  expr(type: Type, x: string, depth: number): string {
    return visit(type, expressionOf, this, x, depth, this.ref(bailFn));
  }

  /** `x` passes the constraints of a number kind (measured by `measure`), as a condition joined with `&&`. */
  numberPasses(d: { readonly constraints: NumberConstraints<number | bigint> | undefined }, measure: string): string {
    return this.passes(d.constraints && numberRule(d.constraints), measure);
  }

  /**
   * A function writing a bigint of `kind`, generated once. A bigint that converts to a small
   * integer prints fastest as that number (bigint comparisons and printing are calls into V8,
   * number ones are not); the rest are checked and printed as bigints. Safe integers given as
   * numbers go to the closure writer.
   */
  bigIntWriter(type: BigIntType): string {
    const rule = BIGINT_RULES[type.kind];
    const name = `${type.kind}Text`;
    if (this.written.has(name)) return name;
    this.written.add(name);
    // Small integers (V8's Smi range, within the kind's bounds) need no bigint comparison.
    const [smallMin, smallMax] = [Math.max(Number(rule.min), -1073741824), Math.min(Number(rule.max), 1073741823)];
    this.code.push(`function ${name}(x) {
  const n = Number(x);
  if (n >= ${smallMin} && n <= ${smallMax}) return '' + n;
  return ${rule.rangeCode('x')} ? '' + x : ${this.closure(type, 1)}(x, '');
}`);
    return name;
  }

  /** The closure writer of `type` at `depth`, called from generated code. */
  closure(type: Type, depth: number): string {
    if (!dependsOnDepth(type)) return this.ref(compileJsonWriterAt(type, this.scope, depth, false));
    // One closure per descriptor and depth: a lazy target is compiled once for both uses of an array's element.
    return this.closures.get(type, depth, () => this.ref(compileJsonWriterAt(type, this.scope, depth, false)));
  }

  private readonly closures = new ByDepth<Type, string>();

  /**
   * The call writing `x` with the generated function of the container `type` at `depth`, whose
   * body `body` makes (given the bail function's name), generated once (per depth, for one that
   * `dependsOnDepth`).
   */
  container(type: Type, x: string, depth: number, body: (bail: string) => string): string {
    return `${this.containerFunction(type, depth, body)}(${x})`;
  }

  private containerFunction(d: Type, depth: number, body: (bail: string) => string): string {
    return this.containers.get(d, depth, () => {
      const name = `f${this.count++}`;
      this.code.push(`function ${name}(v) {\n  ${body(this.ref(bailFn))}\n}`);
      return name;
    });
  }

  /** An array, its elements at depth `inside`: its length is checked before any element is written. */
  arrayBody(d: ArrayType, bail: string, inside: number): string {
    return `${arrayCheckCode(d.constraints && arrayRule(d.constraints), bail, (value) => this.ref(value))}
  if (n === 0) return '[]';
  let x = v[0];${holeCheckCode(d.element, 'v', 'x', '0', bail)}
  let s = '[' + ${this.expr(d.element, 'x', inside)};
  for (let i = 1; i < n; i++) { x = v[i];${holeCheckCode(d.element, 'v', 'x', 'i', bail)} s += ',' + ${this.expr(d.element, 'x', inside)}; }
  return s + ']';`;
  }

  /** A tuple, its elements at depth `inside`. */
  tupleBody(d: TupleType, bail: string, inside: number): string {
    const check = `if (${notTupleCode('v', d.elements.length)}) ${bail}();`;
    // An empty tuple has no element to join: its text is a constant.
    return d.elements.length === 0
      ? `${check}\n  return '[]';`
      : `${check}
  ${d.elements.map((e, i) => `const x${i} = v[${i}];${holeCheckCode(e, 'v', `x${i}`, String(i), bail)}`).join(' ')}
  return '[' + ${d.elements.map((e, i) => this.expr(e, `x${i}`, inside)).join(" + ',' + ")} + ']';`;
  }

  /** A switch on the discriminant calling the member's function; anything else bails. */
  variantBody(type: VariantType, depth: number): string {
    const bail = this.ref(bailFn);
    const cases = [...type.byValue].map(
      ([value, member]) =>
        `case ${JSON.stringify(value)}: return ${this.containerFunction(member, depth, () => this.objectBody(member, depth + 1))}(v);`,
    );
    return `if (${notRecordCode('v')}) ${bail}();
  ${discriminantSwitchCode('v', type.key, cases, `${bail}();`, (value) => this.ref(value))}`;
  }

  /**
   * Every member of an object in one concatenation, the separators and labels written in. With
   * `plainStrings`, string members are known to need no escaping and are written between quotes
   * that join the neighbouring literals.
   */
  private concatenation(members: [string, Type][], plainStrings: boolean, depth: number): string {
    const parts: string[] = [];
    let literal = '';
    members.forEach(([key, field], i) => {
      literal += (i === 0 ? '{' : ',') + quote(key) + ':';
      if (plainStrings && isPlainString(field)) {
        parts.push(JSON.stringify(literal + '"'), `x${i}`);
        literal = '"';
      } else {
        parts.push(JSON.stringify(literal), this.expr(field, `x${i}`, depth));
        literal = '';
      }
    });
    parts.push(JSON.stringify(literal + '}'));
    return parts.join(' + ');
  }

  objectBody(type: ObjectType, depth: number): string {
    const bail = this.ref(bailFn);
    const lines = [`if (${notRecordCode('v')}) ${bail}();`];
    const members = Object.entries(type.fields);
    const absent = members.map(([, field]) => absentMember(field));
    members.forEach(([key], i) => lines.push(memberLoadCode(key, `x${i}`, absent[i]!, (value) => this.ref(value))));
    const label = (key: string) => JSON.stringify(quote(key) + ':');
    const skips = absent.map((a) => a.mode === 'skip');
    if (!skips.includes(true)) {
      // Every member is written: one concatenation with the separators written in.
      members.forEach((_, i) => lines.push(`if (x${i} === undefined) ${bail}();`));
      if (members.length === 0) return [...lines, "return '{}';"].join('\n  ');
      const strings = members.flatMap(([, field], i) => (isPlainString(field) ? [i] : []));
      if (strings.length > 0) {
        // When no string member needs escaping, their quotes join the labels around them: one
        // concatenation with fewer, larger literals, measurably faster than quoting each apart.
        // NEEDS_ESCAPE matches every surrogate, so a string it passes is Unicode text: the STRING
        // rule holds without its isWellFormed call.
        const escape = this.constants.ref(NEEDS_ESCAPE);
        const plain = strings.map((i) => `typeof x${i} === 'string' && !${escape}.test(x${i})`).join(' && ');
        lines.push(`if (${plain}) return ${this.concatenation(members, true, depth)};`);
      }
      lines.push(`return ${this.concatenation(members, false, depth)};`);
      return lines.join('\n  ');
    }
    lines.push("let s = '';");
    members.forEach(([key, field], i) => {
      const write = `s += (s === '' ? '{' : ',') + ${label(key)} + ${this.expr(field, `x${i}`, depth)};`;
      lines.push(skips[i] ? `if (x${i} !== undefined) ${write}` : `if (x${i} === undefined) ${bail}(); ${write}`);
    });
    lines.push("return s === '' ? '{}' : s + '}';");
    return lines.join('\n  ');
  }
}

const bailFn = bail;

/** Where an expression is generated: the generator, the identifier written, its depth, and the bail function's name. */
type At = [gen: WriterGenerator, x: string, depth: number, bail: string];

/** Bytes, timestamp, unknown, lazy, literal, enum, map and void use their closure writer inline. */
const closureCall = (d: Type, gen: WriterGenerator, x: string, depth: number) => `${gen.closure(d, depth)}(${x}, '')`;

const expressionOf: Visitor<string, At> = {
  string: (d, gen, x, _, bail) => {
    const pass = gen.passes(d.constraints && stringRule(d.constraints), x);
    return `(${STRING.isCode(x)}${pass} ? ${gen.ref(quote)}(${x}) : ${bail}())`;
  },
  bool: (_, __, x, ___, bail) => `(${BOOL.isCode(x)} ? (${x} ? 'true' : 'false') : ${bail}())`,
  int: (d, gen, x, _, bail) => `(${INT_RULES[d.kind].isCode(x)}${gen.numberPasses(d, x)} ? '' + ${x} : ${bail}())`,
  float: (d, gen, x, depth, bail) =>
    d.kind === 'f64'
      ? // Zero goes to the closure writer, which keeps the sign of -0.
        `(${F64.isCode(x)} && ${x} !== 0${gen.numberPasses(d, x)} ? '' + ${x} : ${gen.closure(d, depth)}(${x}, ''))`
      : `(${F32.isCode(x)}${gen.numberPasses(d, `Math.fround(${x})`)} ? ${gen.ref(formatF32)}(${x}) : ${bail}())`,
  bigint: (d, gen, x, depth) => {
    if (d.constraints === undefined && d.json === 'number')
      return `(typeof ${x} === 'bigint' ? ${gen.bigIntWriter(d)}(${x}) : ${gen.closure(d, depth)}(${x}, ''))`;
    // Bounds, or the string form: bigints in range written here, anything else by the closure writer.
    const pass = `${BIGINT_RULES[d.kind].rangeCode(x)}${gen.numberPasses(d, x)}`;
    const text = d.json === 'string' ? `'"' + ${x} + '"'` : `'' + ${x}`;
    return `(typeof ${x} === 'bigint' && ${pass} ? ${text} : ${gen.closure(d, depth)}(${x}, ''))`;
  },
  optional: (d, gen, x, depth) => `(${x} === null || ${x} === undefined ? 'null' : ${gen.expr(d.inner, x, depth)})`,
  nullable: (d, gen, x, depth) => `(${x} === null || ${x} === undefined ? 'null' : ${gen.expr(d.inner, x, depth)})`,
  array: (d, gen, x, depth) => gen.container(d, x, depth, (bail) => gen.arrayBody(d, bail, depth + 1)),
  tuple: (d, gen, x, depth) => gen.container(d, x, depth, (bail) => gen.tupleBody(d, bail, depth + 1)),
  object: (d, gen, x, depth) => gen.container(d, x, depth, () => gen.objectBody(d, depth + 1)),
  variant: (d, gen, x, depth) => gen.container(d, x, depth, () => gen.variantBody(d, depth)),
  bytes: closureCall,
  timestamp: closureCall,
  unknown: closureCall,
  lazy: closureCall,
  literal: closureCall,
  enum: closureCall,
  map: closureCall,
  void: closureCall,
};

/** A string member without constraints: one whose quotes may join the labels around it. */
function isPlainString(field: Type): boolean {
  return field.kind === 'string' && (field as AnyType & { kind: 'string' }).constraints === undefined;
}
