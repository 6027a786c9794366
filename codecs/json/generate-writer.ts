import type { AnyType, BigIntType, ObjectType, Type } from '../../core/types/index.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { BOOL } from '../../core/kinds/bool.ts';
import { F32, F64 } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { memberCode } from '../../core/kinds/member.ts';
import { STRING } from '../../core/kinds/string.ts';
import { Constants, bail, buildFunction } from '../../core/util/codegen.ts';
import { compileJsonWriter } from './compile-writer.ts';
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
export function generateJsonWriter(type: Type): FastJsonWriter {
  const gen = new WriterGenerator();
  const entry = gen.function(type);
  return buildFunction<FastJsonWriter>(gen.constants.values, `${gen.code.join('\n')}\nreturn ${entry};`);
}

class WriterGenerator {
  readonly constants = new Constants();
  readonly code: string[] = [];
  private count = 0;
  private readonly written = new Set<string>();
  /** The generated function of each container descriptor: an array's element is written in two places. */
  private readonly containers = new Map<Type, string>();

  function(type: Type): string {
    const name = `f${this.count++}`;
    this.code.push(`function ${name}(v) { return ${this.expr(type, 'v')}; }`);
    return name;
  }

  /** A JavaScript expression writing the identifier `x` as `type`. */
  private expr(type: Type, x: string): string {
    const d = type as AnyType;
    const bail = this.constants.ref(bailFn);
    switch (d.kind) {
      case 'string': return `(${STRING.isCode(x)} ? ${this.constants.ref(quote)}(${x}) : ${bail}())`;
      case 'bool': return `(${BOOL.isCode(x)} ? (${x} ? 'true' : 'false') : ${bail}())`;
      case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32':
        return `(${INT_RULES[d.kind].isCode(x)} ? '' + ${x} : ${bail}())`;
      // Zero goes to the closure writer, which keeps the sign of -0.
      case 'f64': return `(${F64.isCode(x)} && ${x} !== 0 ? '' + ${x} : ${this.closure(type)}(${x}, ''))`;
      case 'f32': return `(${F32.isCode(x)} ? ${this.constants.ref(formatF32)}(${x}) : ${bail}())`;
      case 'i64': case 'u64': return `(typeof ${x} === 'bigint' ? ${this.bigIntWriter(d)}(${x}) : ${this.closure(type)}(${x}, ''))`;
      case 'optional': case 'nullable': return `(${x} === null || ${x} === undefined ? 'null' : ${this.expr(d.inner, x)})`;
      case 'array': case 'tuple': case 'object': return `${this.container(d)}(${x})`;
      default:
        // Bytes, literal, enum, map and void use their closure writer inline.
        return `${this.closure(type)}(${x}, '')`;
    }
  }

  /**
   * A function writing a bigint of `kind`, generated once. A bigint that converts to a small
   * integer prints fastest as that number (bigint comparisons and printing are calls into V8,
   * number ones are not); the rest are checked and printed as bigints. Safe integers given as
   * numbers go to the closure writer.
   */
  private bigIntWriter(type: BigIntType): string {
    const rule = BIGINT_RULES[type.kind];
    const name = `${type.kind}Text`;
    if (this.written.has(name)) return name;
    this.written.add(name);
    // Small integers (V8's Smi range, within the kind's bounds) need no bigint comparison.
    const [smallMin, smallMax] = [Math.max(Number(rule.min), -1073741824), Math.min(Number(rule.max), 1073741823)];
    this.code.push(`function ${name}(x) {
  const n = Number(x);
  if (n >= ${smallMin} && n <= ${smallMax}) return '' + n;
  return ${rule.rangeCode('x')} ? '' + x : ${this.closure(type)}(x, '');
}`);
    return name;
  }

  private closure(type: Type): string {
    return this.constants.ref(compileJsonWriter(type, false));
  }

  private container(d: AnyType & { kind: 'array' | 'tuple' | 'object' }): string {
    const known = this.containers.get(d);
    if (known !== undefined) return known;
    const name = `f${this.count++}`;
    this.containers.set(d, name);
    const bail = this.constants.ref(bailFn);
    let body: string;
    switch (d.kind) {
      case 'array':
        body = `if (!Array.isArray(v)) ${bail}();
  const n = v.length;
  if (n === 0) return '[]';
  let x = v[0];
  let s = '[' + ${this.expr(d.element, 'x')};
  for (let i = 1; i < n; i++) { x = v[i]; s += ',' + ${this.expr(d.element, 'x')}; }
  return s + ']';`;
        break;
      case 'tuple':
        body = `if (!Array.isArray(v) || v.length !== ${d.elements.length}) ${bail}();
  ${d.elements.map((_, i) => `const x${i} = v[${i}];`).join(' ')}
  return '[' + ${d.elements.map((e, i) => this.expr(e, `x${i}`)).join(" + ',' + ")} + ']';`;
        break;
      case 'object':
        body = this.objectBody(d);
        break;
    }
    this.code.push(`function ${name}(v) {\n  ${body}\n}`);
    return name;
  }

  /**
   * Every member of an object in one concatenation, the separators and labels written in. With
   * `plainStrings`, string members are known to need no escaping and are written between quotes
   * that join the neighbouring literals.
   */
  private concatenation(members: [string, Type][], plainStrings: boolean): string {
    const parts: string[] = [];
    let literal = '';
    members.forEach(([key, field], i) => {
      literal += (i === 0 ? '{' : ',') + quote(key) + ':';
      if (plainStrings && field.kind === 'string') {
        parts.push(JSON.stringify(literal + '"'), `x${i}`);
        literal = '"';
      } else {
        parts.push(JSON.stringify(literal), this.expr(field, `x${i}`));
        literal = '';
      }
    });
    parts.push(JSON.stringify(literal + '}'));
    return parts.join(' + ');
  }

  private objectBody(type: ObjectType): string {
    const bail = this.constants.ref(bailFn);
    const lines = [`if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) ${bail}();`];
    const members = Object.entries(type.fields);
    members.forEach(([key], i) => lines.push(`const x${i} = ${memberCode('v', key, (value) => this.constants.ref(value))};`));
    const label = (key: string) => JSON.stringify(quote(key) + ':');
    if (!members.some(([, f]) => f.kind === 'optional')) {
      // Every member is written: one concatenation with the separators written in.
      members.forEach((_, i) => lines.push(`if (x${i} === undefined) ${bail}();`));
      if (members.length === 0) return [...lines, "return '{}';"].join('\n  ');
      const strings = members.flatMap(([, field], i) => (field.kind === 'string' ? [i] : []));
      if (strings.length > 0) {
        // When no string member needs escaping, their quotes join the labels around them: one
        // concatenation with fewer, larger literals, measurably faster than quoting each apart.
        // NEEDS_ESCAPE matches every surrogate, so a string it passes is Unicode text: the STRING
        // rule holds without its isWellFormed call.
        const escape = this.constants.ref(NEEDS_ESCAPE);
        const plain = strings.map((i) => `typeof x${i} === 'string' && !${escape}.test(x${i})`).join(' && ');
        lines.push(`if (${plain}) return ${this.concatenation(members, true)};`);
      }
      lines.push(`return ${this.concatenation(members, false)};`);
      return lines.join('\n  ');
    }
    lines.push("let s = '';");
    members.forEach(([key, field], i) => {
      const write = `s += (s === '' ? '{' : ',') + ${label(key)} + ${this.expr(field, `x${i}`)};`;
      lines.push(field.kind === 'optional' ? `if (x${i} !== undefined) ${write}` : `if (x${i} === undefined) ${bail}(); ${write}`);
    });
    lines.push("return s === '' ? '{}' : s + '}';");
    return lines.join('\n  ');
  }
}

const bailFn = bail;
