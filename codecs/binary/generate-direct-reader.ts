import { nullIsAbsent } from '../../core/read/optional-null.ts';
import type { ReaderContext } from '../../core/read/context.ts';
import { memberRules, returnMembersCode } from '../../core/read/records.ts';
import type {
  ArrayType,
  BigIntType,
  FloatType,
  IntType,
  LazyType,
  LiteralType,
  ObjectType,
  TupleType,
  Type,
  VariantType,
} from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { arrayRule, numberRule, stringRule } from '../../core/kinds/constraints.ts';
import { FLOAT_RULES } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import { Constants, bail, buildFunction } from '../../core/codegen/codegen.ts';
import {
  lazyDirectReader,
  variantReadable,
  type DirectReader,
  type InlineBytes,
  type LazyReaders,
  type ReadWire,
} from './direct-reader.ts';

import { BYTES_WEIGHT } from '../../core/options.ts';
import { arrayWeightCode } from './cursor.ts';
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
export function generateDirectReader(
  type: Type,
  ctx: ReaderContext,
  wire: ReadWire,
  encodeKey: (key: string) => Uint8Array,
): DirectReader {
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
  readonly x: InlineBytes;
  /** The closure readers of `t.lazy` targets, by target and depth (see `lazy`). */
  private readonly lazies: LazyReaders = new ByDepth();

  constructor(
    private readonly ctx: ReaderContext,
    private readonly wire: ReadWire,
    private readonly encodeKey: (key: string) => Uint8Array,
  ) {
    this.x = wire.inline;
  }

  /** Emits `fN(c, b, p)` reading `type` at `depth`; returns its name. */
  function(type: Type, depth: number): string {
    const name = `f${this.count++}`;
    this.code.push(`function ${name}(c,b,p){const e=c.end;let x,n,s;\n${visit(type, functionBodyOf, this, depth)}}`);
    return name;
  }

  /**
   * The body of the function of a container at `depth`, whose items `body` reads (at `depth + 1`).
   * Each container spends of the cursor's budget what the tree parser would: one item here
   * (`spendsOne`), or, for an array, what its length makes it spend, once read.
   */
  container(depth: number, spendsOne: boolean, body: (inner: number) => string): string {
    if (depth > this.ctx.maxDepth) return 'B();';
    return `${spendsOne ? 'if(--c.left<0)B();' : ''}${body(depth + 1)}`;
  }

  /**
   * Statements reading one `type` item at `p` into the variable `v` and moving `p` past it, or
   * bailing. `depth` is the nesting of the item itself, as in the closure reader (the root is 1).
   */
  read(type: Type, v: string, depth: number): string {
    return visit(type, readOf, this, v, depth);
  }

  /** Bails unless `pass` (a constraint's check) holds: the read pass gives the error. */
  constrained(pass: string): string {
    return `if(!(${pass}))B();`;
  }

  /** A number kind's constraints on `v`, or nothing. */
  bounds(d: IntType | BigIntType | FloatType, v: string): string {
    return d.constraints === undefined
      ? ''
      : this.constrained(numberRule(d.constraints).passCode(v, (c) => this.constants.ref(c)));
  }

  /**
   * A `t.lazy` at `depth`: the closure direct reader of its target, compiled on its first call
   * (never while generating, which a recursive descriptor would never finish).
   */
  lazy(type: LazyType, depth: number): string {
    return this.constants.ref(lazyDirectReader(type, this.ctx, this.wire, this.encodeKey, depth, this.lazies));
  }

  /** A fallback: the format's `ReadWire` call reads the item at `p` into `v`. */
  call(method: keyof ReadWire, v: string): string {
    return `{c.pos=p;${v}=W.${method}(c);p=c.pos}`;
  }

  /**
   * The common unsigned integers (below 2^32) into `v`, passed through `wrap` (`BigInt` or
   * nothing); an `else` branch must follow for the other items.
   */
  uint(v: string, wrap: string): string {
    const x = this.x;
    return `\nx=b[p];if(x<=${x.smallUint}){${v}=${wrap}(x);p++}
else if(x===${x.uint8}&&p+2<=e){${v}=${wrap}(b[p+1]);p+=2}
else if(x===${x.uint16}&&p+3<=e){${v}=${wrap}(b[p+1]<<8|b[p+2]);p+=3}
else if(x===${x.uint32}&&p+5<=e){${v}=${wrap}(b[p+1]*16777216+(b[p+2]<<16|b[p+3]<<8|b[p+4]));p+=5}\n`;
  }

  /** A number into `v`: float items, and integers a number holds exactly (or undefined). */
  float(v: string): string {
    const x = this.x;
    return `\nx=b[p];if(x===${x.float64}&&p+9<=e){${v}=F(b,p+1);p+=9}else if(x===${x.float32}&&p+5<=e){${v}=G(b,p+1);p+=5}
else${this.call('float', v)}`;
  }

  /** An array's items at `depth`. Every element takes at least one byte: a longer announcement is the parser's to refuse. */
  arrayBody(d: ArrayType, depth: number): string {
    return `${this.head('array')}if(!(s>=0&&s<=e-p)||(c.left-=${arrayWeightCode('s')})<0)B();${
      d.constraints === undefined
        ? ''
        : this.constrained(arrayRule(d.constraints).passCode('s', (c) => this.constants.ref(c)))
    }const out=[];
for(let i=0;i<s;i++){let v;${this.read(d.element, 'v', depth)}\nout.push(v)}c.pos=p;return out;`;
  }

  /** A tuple's items at `depth`. */
  tupleBody(d: TupleType, depth: number): string {
    const names = d.elements.map((_, i) => `v${i}`);
    const reads = d.elements.map((element, i) => this.read(element, names[i]!, depth));
    // An empty tuple declares no variable (`let ;` is no JavaScript).
    const declare = names.length === 0 ? '' : `let ${names.join()};`;
    return `${this.head('array')}if(s!==${names.length})B();${declare}${reads.join('')}\nc.pos=p;return[${names.join()}];`;
  }

  /** A map or array head into `s` (the size, or -1 when the item is another). */
  private head(kind: 'map' | 'array'): string {
    const [lo, hi] = this.x[kind];
    return `x=b[p];if(x>=${lo}&&x<=${hi}){s=x-${lo};p++}else${this.call(kind === 'map' ? 'mapHead' : 'arrayHead', 's')}\n`;
  }

  /** Members in declared order, as the closure reader takes them; anything else bails. */
  object(type: ObjectType, depth: number): string {
    return this.head('map') + this.members(type, depth, 0);
  }

  /**
   * Reads the members of `type` from `from` on (the ones before are in locals `a0`… already) out of
   * a map of `s` entries whose head is read, and returns the object.
   */
  private members(type: ObjectType, depth: number, from: number): string {
    const members = memberRules(type, this.ctx.errorOnMissingKeys);
    const allRequired = members.every((m, i) => m.required || i < from);
    // Every member present: the size says it all, and no count is kept.
    let code = allRequired ? `if(s!==${members.length})B();` : from === 0 ? 'if(s<0)B();let k=0;' : `let k=${from};`;
    members.forEach(({ key, field, required, makeDefault }, i) => {
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
      let absent = '';
      if (required) absent = 'B();';
      else if (makeDefault !== undefined) absent = `${a}=${this.constants.ref(makeDefault)}();`;
      code += `\nlet ${a};if(k<s&&${match}){k++;${present}}else{${absent}}`;
    });
    // Keys left over are unknown, out of order or repeated: the tree path decides.
    if (!allRequired) code += '\nif(k!==s)B();';
    return `${code}\nc.pos=p;${returnMembersCode(members).join('')}`;
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
  variant(type: VariantType, depth: number): string {
    // Members are read from their second key on: a variant whose discriminant comes later is the tree path's.
    if (!variantReadable(type)) return `B();`;
    const key = this.encodeKey(type.key);
    let code = `${this.head('map')}if(s<1||!(${this.match(key)}))B();p+=${key.length};`;
    let numberRead = false;
    for (const member of type.members) {
      const value = (member.fields[type.key] as LiteralType).value as string | number | boolean;
      const name = `f${this.count++}`;
      this.code.push(
        `function ${name}(c,b,p,s){const e=c.end;let x,n;const a0=${this.constants.ref(value)};\n${this.members(member, depth, 1)}}`,
      );
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

/** Where a read is generated: the generator, the variable read into, and the item's depth. */
type At = [gen: DirectReaderGenerator, v: string, depth: number];

/** Maps, literals, enums, void and t.unknown: the tree path reads them, as in the closure reader. */
const treePath = () => 'B();';

/** Containers get a function of their own. */
const ownFunction = (d: Type, gen: DirectReaderGenerator, v: string, depth: number) =>
  `\n${v}=${gen.function(d, depth)}(c,b,p);p=c.pos;`;

const readOf: Visitor<string, At> = {
  string: (d, gen, v) => {
    const x = gen.x;
    // `x` becomes the start of the text; an `n` read past the end is undefined and fails `n>=0`.
    return `\nx=b[p];if(x>=${x.string[0]}&&x<=${x.string[1]}){n=x-${x.string[0]};x=p+1}else if(x===${x.str8}){n=b[p+1];x=p+2}else n=-1;
if(n>=0&&x+n<=e){${v}=T(b,x,x+n);p=x+n}else${gen.call('string', v)}if(${v}===undefined)B();${
      d.constraints === undefined
        ? ''
        : gen.constrained(stringRule(d.constraints).passCode(v, (c) => gen.constants.ref(c)))
    }`;
  },
  bool: (_, gen, v) => `\nx=b[p];if(x===${gen.x.true})${v}=true;else if(x===${gen.x.false})${v}=false;else B();p++;`,
  // Integer items hold integers, so the kind's rule has only its bounds left to check.
  int: (d, gen, v) =>
    `${gen.uint(v, '')}else${gen.call('int', v)}if(${v}===undefined||!(${INT_RULES[d.kind].rangeCode(v)}))B();${gen.bounds(d, v)}`,
  bigint: (d, gen, v) => `${gen.uint(v, 'BigInt')}else if(x===${gen.x.uint64}&&p+9<=e){${v}=U(b,p+1);p+=9}
else${gen.call('bigint', v)}if(${v}===undefined||!(${BIGINT_RULES[d.kind].rangeCode(v)}))B();${gen.bounds(d, v)}`,
  float: (d, gen, v) => {
    const rule = FLOAT_RULES[d.kind];
    const read = rule.readCode(v);
    // Bounds apply to the value read (an f32 rounded).
    return `${gen.float(v)}if(${v}===undefined||!(${rule.rangeCode(v)}))B();${read === v ? '' : `${v}=${read};`}${gen.bounds(d, v)}`;
  },
  timestamp: (_, gen, v) => `${gen.call('timestamp', v)}if(${v}===undefined)B();`,
  lazy: (d, gen, v, depth) => `\n{c.pos=p;${v}=${gen.lazy(d, depth)}(c);p=c.pos}`,
  bytes: (_, gen, v) => `${gen.call('bytes', v)}if(${v}===undefined||(c.left-=${BYTES_WEIGHT})<0)B();`,
  // The wrappers add no nesting: the inner item is read at the same depth.
  optional: (d, gen, v, depth) =>
    nullIsAbsent(d)
      ? `\nif(b[p]===${gen.x.nil}){p++;${v}=undefined}else{${gen.read(d.inner, v, depth)}}`
      : gen.read(d.inner, v, depth),
  nullable: (d, gen, v, depth) => `\nif(b[p]===${gen.x.nil}){p++;${v}=null}else{${gen.read(d.inner, v, depth)}}`,
  array: ownFunction,
  tuple: ownFunction,
  object: ownFunction,
  variant: ownFunction,
  map: treePath,
  literal: treePath,
  enum: treePath,
  void: treePath,
  unknown: treePath,
};

/** The body of `fN(c, b, p)` reading an item at `depth`: a container's own, or one read into `v`. */
const item = (d: Type, gen: DirectReaderGenerator, depth: number) =>
  `let v;${gen.read(d, 'v', depth)}\nc.pos=p;return v;`;

const functionBodyOf: Visitor<string, [gen: DirectReaderGenerator, depth: number]> = {
  array: (d, gen, depth) => gen.container(depth, false, (inner) => gen.arrayBody(d, inner)),
  tuple: (d, gen, depth) => gen.container(depth, true, (inner) => gen.tupleBody(d, inner)),
  object: (d, gen, depth) => gen.container(depth, true, (inner) => gen.object(d, inner)),
  variant: (d, gen, depth) => gen.container(depth, true, (inner) => gen.variant(d, inner)),
  string: item,
  bool: item,
  int: item,
  bigint: item,
  float: item,
  bytes: item,
  timestamp: item,
  unknown: item,
  void: item,
  literal: item,
  enum: item,
  map: item,
  lazy: item,
  optional: item,
  nullable: item,
};
