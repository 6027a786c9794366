import { memberDefault } from '../../core/read/defaults.ts';
import type { ReaderContext } from '../../core/read/context.ts';
import { isLeftOutWhenUndefined, isRequiredKey } from '../../core/read/required.ts';
import type { AnyType, LiteralType, ObjectType, Type, VariantType } from '../../core/descriptors/index.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { arrayRule, numberRule, stringRule } from '../../core/kinds/constraints.ts';
import { FLOAT_RULES } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import { Constants, bail, buildFunction, returnObject } from '../../core/codegen/codegen.ts';
import { compileDirectReader, variantReadable, type DirectReader, type InlineBytes, type ReadWire } from './direct-reader.ts';

import { BYTES_WEIGHT } from '../../core/options.ts';
import { GROWN_ARRAY_WEIGHT, PREALLOCATED } from './cursor.ts';
import { float32At, float64At, uint64At } from './read-numbers.ts';
import { readUtf8 } from './utf8.ts';

/**
 * Generates a direct reader: the closure reader of `direct-reader.ts` written out as JavaScript
 * per descriptor, taking and giving up on exactly the same input. The position lives in a local,
 * keys are compared byte by byte against literal numbers, the format's common heads and small
 * integers are decoded inline (anything else goes to the format's `ReadWire` calls), and each
 * object is built as one literal, so V8 sees one stable shape.
 *
 * Every generated function is `f(c, b, p)`: the cursor, its bytes and the position; it returns
 * the value and leaves the position after it in `c.pos`. Inside, `e` is the end, `x` and `n`
 * scratch. The templates are terse on purpose: they ship in the browser client.
 */
export function generateDirectReader(type: Type, ctx: ReaderContext, wire: ReadWire, encodeKey: (key: string) => Uint8Array): DirectReader {
  const gen = new DirectReaderGenerator(ctx, wire, encodeKey);
  const entry = gen.function(type, 1);
  // Short names for the helpers every reader uses.
  const helpers = [wire, bail, readUtf8, float64At, float32At, uint64At].map((h) => gen.constants.ref(h));
  const body = `const [W,B,T,F,G,U]=[${helpers.join()}];\n${gen.code.join('\n')}\nreturn c=>${entry}(c,c.bytes,c.pos);`;
  return buildFunction<DirectReader>(gen.constants.values, body);
}

class DirectReaderGenerator {
  readonly constants = new Constants();
  readonly code: string[] = [];
  private count = 0;
  private readonly x: InlineBytes;
  /** The closure readers of `t.lazy` targets, by target and depth (see `lazy`). */
  private readonly lazies = new ByDepth<Type, DirectReader>();

  constructor(private readonly ctx: ReaderContext, private readonly wire: ReadWire, private readonly encodeKey: (key: string) => Uint8Array) {
    this.x = wire.inline;
  }

  /** Emits `fN(c, b, p)` reading `type` at `depth`; returns its name. */
  function(type: Type, depth: number): string {
    const name = `f${this.count++}`;
    const d = type as AnyType;
    let body: string;
    if (d.kind === 'array' || d.kind === 'tuple' || d.kind === 'object' || d.kind === 'variant') {
      // Each container spends of the cursor's budget what the tree parser would (an array, once its length is known).
      const spend = d.kind === 'array' ? '' : 'if(--c.left<0)B();';
      body = depth > this.ctx.maxDepth ? 'B();' : `${spend}${this.container(d, depth + 1)}`;
    } else {
      body = `let v;${this.read(type, 'v', depth)}\nc.pos=p;return v;`;
    }
    this.code.push(`function ${name}(c,b,p){const e=c.end;let x,n,s;\n${body}}`);
    return name;
  }

  /**
   * Statements reading one `type` item at `p` into the variable `v` and moving `p` past it, or
   * bailing. `depth` is the nesting of the item itself, as in the closure reader (the root is 1).
   */
  private read(type: Type, v: string, depth: number): string {
    const d = type as AnyType;
    const x = this.x;
    switch (d.kind) {
      case 'string':
        // `x` becomes the start of the text; an `n` read past the end is undefined and fails `n>=0`.
        return `\nx=b[p];if(x>=${x.string[0]}&&x<=${x.string[1]}){n=x-${x.string[0]};x=p+1}else if(x===${x.str8}){n=b[p+1];x=p+2}else n=-1;
if(n>=0&&x+n<=e){${v}=T(b,x,x+n);p=x+n}else${this.call('string', v)}if(${v}===undefined)B();${
  d.constraints === undefined ? '' : this.constrained(stringRule(d.constraints).passCode(v, (c) => this.constants.ref(c)))}`;
      case 'bool':
        return `\nx=b[p];if(x===${x.true})${v}=true;else if(x===${x.false})${v}=false;else B();p++;`;
      // Integer items hold integers, so the kind's rule has only its bounds left to check.
      case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32':
        return `${this.uint(v, '')}else${this.call('int', v)}if(${v}===undefined||!(${INT_RULES[d.kind].rangeCode(v)}))B();${this.bounds(d, v)}`;
      case 'i64': case 'u64':
        return `${this.uint(v, 'BigInt')}else if(x===${x.uint64}&&p+9<=e){${v}=U(b,p+1);p+=9}
else${this.call('bigint', v)}if(${v}===undefined||!(${BIGINT_RULES[d.kind].rangeCode(v)}))B();${this.bounds(d, v)}`;
      case 'f32': case 'f64': {
        const rule = FLOAT_RULES[d.kind];
        const read = rule.readCode(v);
        // Bounds apply to the value read (an f32 rounded).
        return `${this.float(v)}if(${v}===undefined||!(${rule.rangeCode(v)}))B();${read === v ? '' : `${v}=${read};`}${this.bounds(d, v)}`;
      }
      case 'timestamp':
        return `${this.call('timestamp', v)}if(${v}===undefined)B();`;
      case 'lazy':
        return `\n{c.pos=p;${v}=${this.lazy(d.target, depth)}(c);p=c.pos}`;
      case 'bytes':
        return `${this.call('bytes', v)}if(${v}===undefined||(c.left-=${BYTES_WEIGHT})<0)B();`;
      case 'optional': case 'nullable':
        // The wrapper adds no nesting: the inner item is read at the same depth.
        return `\nif(b[p]===${x.nil}){p++;${v}=${d.kind === 'optional' ? 'undefined' : 'null'}}else{${this.read(d.inner, v, depth)}}`;
      case 'array': case 'tuple': case 'object': case 'variant':
        return `\n${v}=${this.function(type, depth)}(c,b,p);p=c.pos;`;
      // Maps, literals, enums, void and t.unknown: the tree path reads them, as in the closure reader.
      default: return 'B();';
    }
  }

  /** Bails unless `pass` (a constraint's check) holds: the read pass gives the error. */
  private constrained(pass: string): string {
    return `if(!(${pass}))B();`;
  }

  /** A number kind's constraints on `v`, or nothing. */
  private bounds(d: AnyType & { kind: 'i8' | 'i16' | 'i32' | 'u8' | 'u16' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64' }, v: string): string {
    return d.constraints === undefined ? '' : this.constrained(numberRule(d.constraints).passCode(v, (c) => this.constants.ref(c)));
  }

  /**
   * A `t.lazy` target at `depth`: the closure direct reader, compiled on its first call (never
   * while generating, which a recursive descriptor would never finish), once per target and depth.
   */
  private lazy(target: Type, depth: number): string {
    const { ctx, wire, encodeKey, lazies } = this;
    let read: DirectReader | undefined;
    const first: DirectReader = (c) => (read ??= lazies.get(target, depth, () => compileDirectReader(target, ctx, wire, encodeKey, depth, lazies)))(c);
    return this.constants.ref(first);
  }

  /** A fallback: the format's `ReadWire` call reads the item at `p` into `v`. */
  private call(method: keyof ReadWire, v: string): string {
    return `{c.pos=p;${v}=W.${method}(c);p=c.pos}`;
  }

  /**
   * The common unsigned integers (below 2^32) into `v`, passed through `wrap` (`BigInt` or
   * nothing); an `else` branch must follow for the other items.
   */
  private uint(v: string, wrap: string): string {
    const x = this.x;
    return `\nx=b[p];if(x<=${x.smallUint}){${v}=${wrap}(x);p++}
else if(x===${x.uint8}&&p+2<=e){${v}=${wrap}(b[p+1]);p+=2}
else if(x===${x.uint16}&&p+3<=e){${v}=${wrap}(b[p+1]<<8|b[p+2]);p+=3}
else if(x===${x.uint32}&&p+5<=e){${v}=${wrap}(b[p+1]*16777216+(b[p+2]<<16|b[p+3]<<8|b[p+4]));p+=5}\n`;
  }

  /** A number into `v`: float items, and integers a number holds exactly (or undefined). */
  private float(v: string): string {
    const x = this.x;
    return `\nx=b[p];if(x===${x.float64}&&p+9<=e){${v}=F(b,p+1);p+=9}else if(x===${x.float32}&&p+5<=e){${v}=G(b,p+1);p+=5}
else${this.call('float', v)}`;
  }

  /** The body of a container's function; `depth` is the nesting of its items. */
  private container(d: AnyType & { kind: 'array' | 'tuple' | 'object' | 'variant' }, depth: number): string {
    switch (d.kind) {
      case 'array':
        // Every element takes at least one byte: a longer announcement is the parser's to refuse.
        return `${this.head('array')}if(!(s>=0&&s<=e-p)||(c.left-=s>${PREALLOCATED}?${GROWN_ARRAY_WEIGHT}:1)<0)B();${
  d.constraints === undefined ? '' : this.constrained(arrayRule(d.constraints).passCode('s', (c) => this.constants.ref(c)))}const out=[];
for(let i=0;i<s;i++){let v;${this.read(d.element, 'v', depth)}\nout.push(v)}c.pos=p;return out;`;
      case 'tuple': {
        const names = d.elements.map((_, i) => `v${i}`);
        const reads = d.elements.map((element, i) => this.read(element, names[i]!, depth));
        // An empty tuple declares no variable (`let ;` is no JavaScript).
        const declare = names.length === 0 ? '' : `let ${names.join()};`;
        return `${this.head('array')}if(s!==${names.length})B();${declare}${reads.join('')}\nc.pos=p;return[${names.join()}];`;
      }
      case 'object':
        return this.object(d, depth);
      case 'variant':
        return this.variant(d, depth);
    }
  }

  /** A map or array head into `s` (the size, or -1 when the item is another). */
  private head(kind: 'map' | 'array'): string {
    const [lo, hi] = this.x[kind];
    return `x=b[p];if(x>=${lo}&&x<=${hi}){s=x-${lo};p++}else${this.call(kind === 'map' ? 'mapHead' : 'arrayHead', 's')}\n`;
  }

  /** Members in declared order, as the closure reader takes them; anything else bails. */
  private object(type: ObjectType, depth: number): string {
    return this.head('map') + this.members(type, depth, 0);
  }

  /**
   * Reads the members of `type` from `from` on (the ones before are in locals `a0`… already) out of
   * a map of `s` entries whose head is read, and returns the object.
   */
  private members(type: ObjectType, depth: number, from: number): string {
    const members = Object.entries(type.fields);
    const required = members.map(([key]) => isRequiredKey(type, key, this.ctx.errorOnMissingKeys));
    const allRequired = required.every((r, i) => r || i < from);
    // Every member present: the size says it all, and no count is kept.
    let code = allRequired ? `if(s!==${members.length})B();` : from === 0 ? 'if(s<0)B();let k=0;' : `let k=${from};`;
    members.forEach(([key, field], i) => {
      if (i < from) return;
      const encoded = this.encodeKey(key);
      const a = `a${i}`;
      // Past the end `b[i]` is undefined, which equals no byte.
      const match = this.match(encoded);
      const present = `p+=${encoded.length};${this.read(field, a, depth)}`;
      if (allRequired) {
        code += `\nlet ${a};if(!(${match}))B();${present}`;
        return;
      }
      const makeDefault = memberDefault(field);
      let absent = '';
      if (required[i]) absent = 'B();';
      else if (makeDefault !== undefined) absent = `${a}=${this.constants.ref(makeDefault)}();`;
      code += `\nlet ${a};if(k<s&&${match}){k++;${present}}else{${absent}}`;
    });
    // Keys left over are unknown, out of order or repeated: the tree path decides.
    if (!allRequired) code += '\nif(k!==s)B();';
    // A member left out when `undefined` (`t.optional`, also behind `t.lazy`) is set key by key.
    const shapes = members.map(([key, field]) => [key, { kind: isLeftOutWhenUndefined(field) ? 'optional' : field.kind }] as const);
    return `${code}\nc.pos=p;${returnObject(shapes).join('')}`;
  }

  /** Whether the bytes at `p` are `encoded`, as an expression. */
  private match(encoded: Uint8Array): string {
    return Array.from(encoded, (byte, j) => `b[p+${j}]===${byte}`).join('&&');
  }

  /**
   * A variant whose discriminant comes first in each member (`directlyReadable` makes sure): the
   * key, then the discriminant's value, compared as the bytes lacquer writes for it (or read, for a
   * number), picks the member's function, which reads the rest of the map. The member object
   * stands where the variant does: its members are items at `depth`.
   */
  private variant(type: VariantType, depth: number): string {
    // Members are read from their second key on: a variant whose discriminant comes later is the tree path's.
    if (!variantReadable(type)) return `B();`;
    const key = this.encodeKey(type.key);
    let code = `${this.head('map')}if(s<1||!(${this.match(key)}))B();p+=${key.length};`;
    let numberRead = false;
    for (const member of type.members) {
      const value = (member.fields[type.key] as LiteralType).value as string | number | boolean;
      const name = `f${this.count++}`;
      this.code.push(`function ${name}(c,b,p,s){const e=c.end;let x,n;const a0=${this.constants.ref(value)};\n${this.members(member, depth, 1)}}`);
      if (typeof value === 'string') {
        const encoded = this.encodeKey(value);
        code += `\nif(${this.match(encoded)})return ${name}(c,b,p+${encoded.length},s);`;
      } else if (typeof value === 'boolean') {
        code += `\nif(b[p]===${value ? this.x.true : this.x.false})return ${name}(c,b,p+1,s);`;
      } else {
        if (!numberRead) code += `\nc.pos=p;x=W.float(c);n=c.pos;`;
        numberRead = true;
        code += `\nif(x===${this.constants.ref(value)})return ${name}(c,b,n,s);`;
      }
    }
    return `${code}\nB();`;
  }
}
