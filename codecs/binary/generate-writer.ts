import type { AnyType, ObjectType, Type } from '../../core/types/index.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { BOOL } from '../../core/kinds/bool.ts';
import { F32, F64 } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { memberCode } from '../../core/kinds/member.ts';
import { STRING } from '../../core/kinds/string.ts';
import { Constants, bail, buildFunction } from '../../core/util/codegen.ts';
import { compileBinaryWriter, type BinaryWriter } from './compile-writer.ts';
import { Sink } from './sink.ts';
import { MAX_HEAD, type Wire } from './wire.ts';

/**
 * Generates the fast path of a binary writer: per descriptor a function that checks the common
 * values inline and writes them with the position in a local, member keys as inline bytes, and one
 * capacity check per run of bounded-size fields. Anything unusual bails (throws); the caller then
 * resets the sink and runs the closure writer, which gives the bytes or the exact `WriteError`.
 */
export function generateBinaryWriter(type: Type, wire: Wire): BinaryWriter {
  const gen = new WriterGenerator(wire);
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
  private readonly functions = new Map<Type, string>();

  constructor(private readonly wire: Wire) {}

  /** The name of a generated `(s, v)` function writing `type`; objects and arrays get one each. */
  function(type: Type): string {
    let name = this.functions.get(type);
    if (name !== undefined) return name;
    name = `f${this.count++}`;
    this.functions.set(type, name);
    const d = type as AnyType;
    const body =
      d.kind === 'object' ? this.objectBody(d)
      : d.kind === 'array' ? this.arrayBody(d.element)
      : this.runs([this.piece(type, 'v')]);
    this.code.push(`function ${name}(s, v) {\n  let buf, p;\n  ${body}\n}`);
    return name;
  }

  private ref(value: unknown): string {
    return this.constants.ref(value);
  }

  /** Writes the identifier `x` as `type`. */
  private piece(type: Type, x: string): Piece {
    const d = type as AnyType;
    const at = this.wire.at;
    const bail = this.ref(bailFn);
    // Bails unless the value is one the kind's rule takes.
    const check = (isCode: string) => `if (!(${isCode})) ${bail}();`;
    const call = (f: unknown, room: number, isCode: string): Piece => ({ check: check(isCode), room: { bytes: room, exprs: [] }, write: `p = ${this.ref(f)}(s, p, ${x});` });
    switch (d.kind) {
      case 'string':
        return {
          check: check(STRING.isCode(x)),
          room: { bytes: MAX_HEAD, exprs: [`3 * ${x}.length`] },
          write: `p = ${this.ref(at.string)}(s, p, ${x});`,
        };
      case 'bool':
        return {
          check: check(BOOL.isCode(x)),
          room: { bytes: 1, exprs: [] },
          write: `buf[p++] = ${x} ? ${at.true} : ${at.false};`,
        };
      case 'void': return { check: '', room: { bytes: 1, exprs: [] }, write: `buf[p++] = ${at.nil};` };
      case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32':
        return call(at.int, 9, INT_RULES[d.kind].isCode(x));
      case 'i64': case 'u64':
        // As the closure writer: bigints in range exactly, safe-integer numbers as integers.
        return {
          check: check(BIGINT_RULES[d.kind].isCode(x)),
          room: { bytes: 9, exprs: [] },
          write: `p = typeof ${x} === 'bigint' ? ${this.ref(at.bigint)}(s, p, ${x}) : ${this.ref(at.int)}(s, p, ${x});`,
        };
      case 'f32': return call(at.float32, 5, F32.isCode(x));
      case 'f64': return call(at.float64, 9, F64.isCode(x));
      case 'optional': case 'nullable':
        return this.branch(`${x} !== null && ${x} !== undefined`, [this.piece(d.inner, x)], [this.bytes(Uint8Array.of(at.nil))]);
      case 'array': case 'object': return unbounded(`${this.function(type)}(s, ${x});`);
      default:
        // bytes, literal, enum, map and tuple use their closure writer.
        return unbounded(`${this.ref(compileBinaryWriter(type, this.wire))}(s, ${x});`);
    }
  }

  /** `then` where `present` holds, else `otherwise` (nothing or nil): one bounded piece if both are. */
  private branch(present: string, then: Piece[], otherwise: Piece[]): Piece {
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
  private bytes(bytes: Uint8Array): Piece {
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
  private runs(pieces: readonly Piece[]): string {
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

  private arrayBody(element: Type): string {
    return `if (!Array.isArray(v)) ${this.ref(bailFn)}();
  const n = v.length;
  s.ensure(${MAX_HEAD});
  s.pos = ${this.ref(this.wire.at.arrayHead)}(s, s.pos, n);
  for (let i = 0; i < n; i++) {
    const x = v[i];
    ${this.runs([this.piece(element, 'x')])}
  }`;
  }

  private objectBody(type: ObjectType): string {
    const bail = this.ref(bailFn);
    const members = Object.entries(type.fields);
    const lines = [`if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array) ${bail}();`];
    members.forEach(([key], i) => lines.push(`const x${i} = ${memberCode('v', key, (value) => this.ref(value))};`));
    const pieces: Piece[] = [];
    const optional = members.map(([, f]) => f.kind === 'optional');
    if (optional.includes(true)) {
      // Absent optional members are not written, so the map head counts only present ones.
      lines.push(`let size = ${members.length};`);
      optional.forEach((o, i) => o && lines.push(`if (x${i} === undefined) size--;`));
      pieces.push({ check: '', room: { bytes: MAX_HEAD, exprs: [] }, write: `p = ${this.ref(this.wire.at.mapHead)}(s, p, size);` });
    } else {
      const head = new Sink(MAX_HEAD); // written ahead of time
      pieces.push(this.bytes(head.buf.slice(0, this.wire.at.mapHead(head, 0, members.length))));
    }
    members.forEach(([key, field], i) => {
      const x = `x${i}`;
      const keyPiece = this.bytes(this.wire.encodeKey(key));
      const value = this.piece(field, x);
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
    check: pieces.map((p) => p.check).filter((c) => c !== '').join('\n  '),
    room: { bytes: pieces.reduce((n, p) => n + p.room!.bytes, 0), exprs: pieces.flatMap((p) => p.room!.exprs) },
    write: pieces.map((p) => p.write).join('\n  '),
  };
}

const bailFn = bail;
