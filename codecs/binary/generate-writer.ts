import type { NullableType, ObjectType, OptionalType, Type, VariantType } from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { BOOL } from '../../core/kinds/bool.ts';
import { arrayRule, numberRule, stringRule, type ConstraintRule } from '../../core/kinds/constraints.ts';
import { F32, F64 } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { discriminantSwitchCode } from '../../core/kinds/containers.ts';
import { STRING } from '../../core/kinds/string.ts';
import { TIMESTAMP } from '../../core/kinds/timestamp.ts';
import { DEFAULT_MAX_DEPTH } from '../../core/options.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import { Constants, bail, buildFunction } from '../../core/codegen/codegen.ts';
import { absentMember, dependsOnDepth, memberLoadCode } from '../../core/write/absent.ts';
import { arrayCheckCode, holeCheckCode } from '../../core/write/array-bounds.ts';
import { notRecordCode } from '../../core/write/check-scalars.ts';
import { FunctionNames } from '../../core/write/function-names.ts';
import {
  binaryWriterScope,
  compileBinaryWriterAt,
  type BinaryWriter,
  type BinaryWriterScope,
} from './compile-writer.ts';
import { Sink } from './sink.ts';
import { MAX_HEAD, MAX_TIMESTAMP, type Wire } from './wire.ts';

/**
 * Generates the fast path of a binary writer: per descriptor a function that checks the common
 * values inline and writes them with the position in a local, member keys as inline bytes, and one
 * capacity check per run of bounded-size fields. Anything unusual bails (throws); the caller then
 * resets the sink and runs the closure writer, which gives the bytes or the exact `WriteError`.
 */
export function generateBinaryWriter(type: Type, wire: Wire, maxDepth = DEFAULT_MAX_DEPTH): BinaryWriter {
  const gen = new WriterGenerator(binaryWriterScope(wire, maxDepth));
  const entry = gen.function(type);
  return buildFunction<BinaryWriter>(gen.constants.values, `${gen.code.join('\n')}\nreturn ${entry};`);
}

/** Bytes a piece takes at most: a constant plus expressions evaluated before writing. */
interface Room {
  readonly bytes: number;
  readonly exprs: readonly string[];
}

/**
 * How one value (or a run of constant bytes) is written. A bounded piece has `check` statements
 * (which bail) and `write` statements that use `buf` and the local position `p` within room the
 * run made; an unbounded piece (`room` undefined) is a statement that makes room and moves `s.pos`.
 */
interface Piece {
  readonly check: string;
  readonly room: Room | undefined;
  readonly write: string;
}

const unbounded = (write: string): Piece => ({ check: '', room: undefined, write });

class WriterGenerator {
  readonly constants = new Constants();
  readonly code: string[] = [];
  private count = 0;
  private readonly functions = new FunctionNames();
  readonly wire: Wire;

  constructor(private readonly scope: BinaryWriterScope) {
    this.wire = scope.wire;
  }

  /**
   * The name of a generated `(s, v)` function writing `type`, a value at `depth` (the root
   * container's is 1); objects, arrays and variants get one each.
   */
  function(type: Type, depth = 1): string {
    return this.functions.get(type, depth, () => {
      const name = `f${this.count++}`;
      this.code.push(`function ${name}(s, v) {\n  let buf, p;\n  ${visit(type, functionBodyOf, this, depth)}\n}`);
      return name;
    });
  }

  /** `&& x passes rule`, or nothing without constraints. */
  passes(rule: ConstraintRule<never> | undefined, measure: string): string {
    return rule === undefined ? '' : ` && ${rule.passCode(measure, (value) => this.ref(value))}`;
  }

  /** The closure writer of `type` at `depth`, called from generated code. */
  closure(type: Type, depth: number): string {
    if (!dependsOnDepth(type)) return this.ref(compileBinaryWriterAt(type, this.scope, depth, false));
    // One closure per descriptor and depth: a lazy target is compiled once for both uses of an array's element.
    return this.closures.get(type, depth, () => this.ref(compileBinaryWriterAt(type, this.scope, depth, false)));
  }

  private readonly closures = new ByDepth<Type, string>();

  ref(value: unknown): string {
    return this.constants.ref(value);
  }

  /** Writes the identifier `x` as `type`, a value at `depth`. */
  piece(type: Type, x: string, depth: number): Piece {
    return visit(type, pieceOf, this, x, depth, this.ref(bailFn));
  }

  /** A bounded piece that bails unless `isCode` (the kind's rule, and constraints) holds, then calls the wire's writer `f`. */
  call(f: unknown, room: number, isCode: string, x: string, bail: string): Piece {
    return {
      check: checkCode(isCode, bail),
      room: { bytes: room, exprs: [] },
      write: `p = ${this.ref(f)}(s, p, ${x});`,
    };
  }

  /** `then` where `present` holds, else `otherwise` (nothing or nil): one bounded piece if both are. */
  branch(present: string, then: Piece[], otherwise: Piece[]): Piece {
    const a = concat(then);
    const b = concat(otherwise);
    if (a === undefined || b === undefined) {
      return unbounded(`if (${present}) {\n  ${this.runs(then)}\n  } else {\n  ${this.runs(otherwise)}\n  }`);
    }
    return {
      check: a.check === '' ? '' : `if (${present}) { ${a.check} }`,
      // The sizes of a value that is absent are not evaluated.
      room: { bytes: a.room!.bytes + b.room!.bytes, exprs: a.room!.exprs.map((e) => `(${present} ? ${e} : 0)`) },
      write: `if (${present}) { ${a.write} } else { ${b.write} }`,
    };
  }

  /** Constant bytes, written inline (keys are short) or with one `set`. */
  bytes(bytes: Uint8Array): Piece {
    const write =
      bytes.length <= 16
        ? `${Array.from(bytes, (b, i) => `buf[p${i === 0 ? '' : ` + ${i}`}] = ${b};`).join(' ')} p += ${bytes.length};`
        : `buf.set(${this.ref(bytes)}, p); p += ${bytes.length};`;
    return { check: '', room: { bytes: bytes.length, exprs: [] }, write };
  }

  /**
   * Statements writing `pieces` in order: each run of bounded pieces checks its values, makes room
   * once and writes with the position in `p`; unbounded pieces write through the sink in between.
   */
  runs(pieces: readonly Piece[]): string {
    const out: string[] = [];
    let run: Piece[] = [];
    const flush = () => {
      const r = concat(run);
      if (r === undefined || run.length === 0) return;
      const room = [String(r.room!.bytes), ...r.room!.exprs].join(' + ');
      if (r.check !== '') out.push(r.check);
      out.push(`s.ensure(${room}); buf = s.buf; p = s.pos;`, r.write, 's.pos = p;');
      run = [];
    };
    for (const piece of pieces) {
      if (piece.room === undefined) {
        flush();
        out.push(piece.write);
      } else {
        run.push(piece);
      }
    }
    flush();
    return out.join('\n  ');
  }

  arrayBody(element: Type, count: ConstraintRule<number> | undefined, depth: number): string {
    const bail = this.ref(bailFn);
    return `${arrayCheckCode(count, bail, (value) => this.ref(value))}
  s.ensure(${MAX_HEAD});
  s.pos = ${this.ref(this.wire.at.arrayHead)}(s, s.pos, n);
  for (let i = 0; i < n; i++) {
    const x = v[i];${holeCheckCode(element, 'v', 'x', 'i', bail)}
    ${this.runs([this.piece(element, 'x', depth)])}
  }`;
  }

  /** A switch on the discriminant calling the member's function; anything else bails. */
  variantBody(type: VariantType, depth: number): string {
    const bail = this.ref(bailFn);
    const cases = [...type.byValue].map(
      ([value, member]) => `case ${JSON.stringify(value)}: ${this.function(member, depth)}(s, v); return;`,
    );
    return `if (${notRecordCode('v')}) ${bail}();
  ${discriminantSwitchCode('v', type.key, cases, `${bail}();`, (value) => this.ref(value))}`;
  }

  objectBody(type: ObjectType, depth: number): string {
    const bail = this.ref(bailFn);
    const members = Object.entries(type.fields);
    const lines = [`if (${notRecordCode('v')}) ${bail}();`];
    const absent = members.map(([, field]) => absentMember(field));
    members.forEach(([key], i) => lines.push(memberLoadCode(key, `x${i}`, absent[i]!, (value) => this.ref(value))));
    const pieces: Piece[] = [];
    const optional = absent.map((a) => a.mode === 'skip');
    if (optional.includes(true)) {
      // Absent optional members are not written, so the map head counts only present ones.
      lines.push(`let size = ${members.length};`);
      optional.forEach((o, i) => o && lines.push(`if (x${i} === undefined) size--;`));
      pieces.push({
        check: '',
        room: { bytes: MAX_HEAD, exprs: [] },
        write: `p = ${this.ref(this.wire.at.mapHead)}(s, p, size);`,
      });
    } else {
      const head = new Sink(MAX_HEAD); // written ahead of time
      pieces.push(this.bytes(head.buf.slice(0, this.wire.at.mapHead(head, 0, members.length))));
    }
    members.forEach(([key, field], i) => {
      const x = `x${i}`;
      const keyPiece = this.bytes(this.wire.encodeKey(key));
      const value = this.piece(field, x, depth);
      if (optional[i]) pieces.push(this.branch(`${x} !== undefined`, [keyPiece, value], []));
      else pieces.push({ ...keyPiece, check: `if (${x} === undefined) ${bail}();` }, value);
    });
    return [...lines, this.runs(pieces)].join('\n  ');
  }
}

/** Bounded pieces as one, or `undefined` if one of them is unbounded. */
function concat(pieces: readonly Piece[]): Piece | undefined {
  if (pieces.some((p) => p.room === undefined)) return undefined;
  return {
    check: pieces
      .map((p) => p.check)
      .filter((c) => c !== '')
      .join('\n  '),
    room: { bytes: pieces.reduce((n, p) => n + p.room!.bytes, 0), exprs: pieces.flatMap((p) => p.room!.exprs) },
    write: pieces.map((p) => p.write).join('\n  '),
  };
}

const bailFn = bail;

/** Bails unless `isCode` holds: the value is one the kind's rule takes. */
const checkCode = (isCode: string, bail: string) => `if (!(${isCode})) ${bail}();`;

/** Where a piece is generated: the generator, the identifier written, its depth, and the bail function's name. */
type At = [gen: WriterGenerator, x: string, depth: number, bail: string];

/** Containers but tuples get a function of their own. */
const ownFunction = (d: Type, gen: WriterGenerator, x: string, depth: number) =>
  unbounded(`${gen.function(d, depth)}(s, ${x});`);

/** Bytes, unknown, lazy, literal, enum, map and tuple use their closure writer. */
const closureCall = (d: Type, gen: WriterGenerator, x: string, depth: number) =>
  unbounded(`${gen.closure(d, depth)}(s, ${x});`);

/** `t.optional` and `t.nullable`: nil for either absence. */
const wrapper = (d: OptionalType | NullableType, gen: WriterGenerator, x: string, depth: number) =>
  gen.branch(
    `${x} !== null && ${x} !== undefined`,
    [gen.piece(d.inner, x, depth)],
    [gen.bytes(Uint8Array.of(gen.wire.at.nil))],
  );

const pieceOf: Visitor<Piece, At> = {
  string: (d, gen, x, _, bail) => ({
    check: checkCode(STRING.isCode(x) + gen.passes(d.constraints && stringRule(d.constraints), x), bail),
    room: { bytes: MAX_HEAD, exprs: [`3 * ${x}.length`] },
    write: `p = ${gen.ref(gen.wire.at.string)}(s, p, ${x});`,
  }),
  bool: (_, gen, x, __, bail) => ({
    check: checkCode(BOOL.isCode(x), bail),
    room: { bytes: 1, exprs: [] },
    write: `buf[p++] = ${x} ? ${gen.wire.at.true} : ${gen.wire.at.false};`,
  }),
  void: (_, gen) => ({ check: '', room: { bytes: 1, exprs: [] }, write: `buf[p++] = ${gen.wire.at.nil};` }),
  int: (d, gen, x, _, bail) =>
    gen.call(
      gen.wire.at.int,
      9,
      INT_RULES[d.kind].isCode(x) + gen.passes(d.constraints && numberRule(d.constraints), x),
      x,
      bail,
    ),
  // As the closure writer: bigints in range exactly, safe-integer numbers as integers.
  bigint: (d, gen, x, _, bail) => ({
    check: checkCode(BIGINT_RULES[d.kind].isCode(x) + gen.passes(d.constraints && numberRule(d.constraints), x), bail),
    room: { bytes: 9, exprs: [] },
    write: `p = typeof ${x} === 'bigint' ? ${gen.ref(gen.wire.at.bigint)}(s, p, ${x}) : ${gen.ref(gen.wire.at.int)}(s, p, ${x});`,
  }),
  float: (d, gen, x, _, bail) =>
    d.kind === 'f32'
      ? gen.call(
          gen.wire.at.float32,
          5,
          F32.isCode(x) + gen.passes(d.constraints && numberRule(d.constraints), `Math.fround(${x})`),
          x,
          bail,
        )
      : gen.call(
          gen.wire.at.float64,
          9,
          F64.isCode(x) + gen.passes(d.constraints && numberRule(d.constraints), x),
          x,
          bail,
        ),
  timestamp: (_, gen, x, __, bail) => ({
    check: checkCode(TIMESTAMP.isCode(x), bail),
    room: { bytes: MAX_TIMESTAMP, exprs: [] },
    write: `p = ${gen.ref(gen.wire.at.timestamp)}(s, p, ${x}.getTime());`,
  }),
  optional: wrapper,
  nullable: wrapper,
  array: ownFunction,
  object: ownFunction,
  variant: ownFunction,
  bytes: closureCall,
  unknown: closureCall,
  lazy: closureCall,
  literal: closureCall,
  enum: closureCall,
  map: closureCall,
  tuple: closureCall,
};

/** The body of a generated `(s, v)` function: a container's own, or the runs of one piece. */
const piecesOf = (d: Type, gen: WriterGenerator, depth: number) => gen.runs([gen.piece(d, 'v', depth)]);

const functionBodyOf: Visitor<string, [gen: WriterGenerator, depth: number]> = {
  object: (d, gen, depth) => gen.objectBody(d, depth + 1),
  array: (d, gen, depth) => gen.arrayBody(d.element, d.constraints && arrayRule(d.constraints), depth + 1),
  variant: (d, gen, depth) => gen.variantBody(d, depth),
  string: piecesOf,
  bool: piecesOf,
  int: piecesOf,
  bigint: piecesOf,
  float: piecesOf,
  bytes: piecesOf,
  timestamp: piecesOf,
  unknown: piecesOf,
  void: piecesOf,
  literal: piecesOf,
  enum: piecesOf,
  map: piecesOf,
  tuple: piecesOf,
  lazy: piecesOf,
  optional: piecesOf,
  nullable: piecesOf,
};
