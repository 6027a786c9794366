import { nullIsAbsent } from '../../core/read/optional-null.ts';
import type { ReaderContext } from '../../core/read/context.ts';
import { memberRules, type MemberRule } from '../../core/read/records.ts';
import type { LazyType, LiteralType, ObjectType, Type, VariantType } from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import { arrayRule, numberRule, stringRule, type ConstraintRule } from '../../core/kinds/constraints.ts';
import { FLOAT_RULES } from '../../core/kinds/float.ts';
import { INT_RULES } from '../../core/kinds/integer.ts';
import { BYTES_WEIGHT, itemLimit } from '../../core/options.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import { bail } from '../../core/codegen/codegen.ts';

import { arrayWeight, copyBytes } from './cursor.ts';
import { readUtf8 } from './utf8.ts';

/** A position in the input of a direct reader, and what is left of its item budget. */
export class DirectCursor {
  pos = 0;
  readonly end: number;
  /**
   * The `maxItems` budget left, spent as the tree parser spends it (a container 1, a byte string
   * 4): a reader that would go below zero gives up, and the tree parser refuses the input.
   */
  left: number;
  constructor(
    readonly bytes: Uint8Array,
    maxItems?: number,
  ) {
    this.end = bytes.length;
    this.left = itemLimit(maxItems, bytes.length);
  }
}

/**
 * What a format reads for a direct reader. Each call reads one item of the expected kind at the
 * cursor and moves past it, or returns `undefined` (or -1 for heads) without a promise about the
 * cursor when the item is anything else; the direct reader then gives up.
 */
export interface ReadWire {
  arrayHead(c: DirectCursor): number;
  mapHead(c: DirectCursor): number;
  /** Consumes a nil/null item and returns true, or returns false and consumes nothing. */
  nil(c: DirectCursor): boolean;
  string(c: DirectCursor): string | undefined;
  bool(c: DirectCursor): boolean | undefined;
  /** An integer that a `number` holds exactly. */
  int(c: DirectCursor): number | undefined;
  /** Any integer of the format's integer families. */
  bigint(c: DirectCursor): bigint | undefined;
  /** Any number: float items, and integers a `number` holds exactly. */
  float(c: DirectCursor): number | undefined;
  bytes(c: DirectCursor): Uint8Array | undefined;
  /**
   * A timestamp in the form lacquer writes it (MessagePack's extension -1, CBOR's tag 1 over an
   * integer or a float64) that a `Date` holds, as a new `Date`.
   */
  timestamp(c: DirectCursor): Date | undefined;
  /** The common item heads generated direct readers decode inline; everything else goes to the calls above. */
  readonly inline: InlineBytes;
}

/**
 * Initial bytes of a format's most common items. `[lo, hi]` ranges hold the length (or value) in
 * the byte itself, as `byte - lo`; `str8` and the `uintN` take an N-bit big-endian argument.
 */
export interface InlineBytes {
  readonly nil: number;
  readonly false: number;
  readonly true: number;
  readonly map: readonly [lo: number, hi: number];
  readonly array: readonly [lo: number, hi: number];
  readonly string: readonly [lo: number, hi: number];
  readonly str8: number;
  /** Non-negative integers 0..`smallUint` are the byte itself. */
  readonly smallUint: number;
  readonly uint8: number;
  readonly uint16: number;
  readonly uint32: number;
  readonly uint64: number;
  readonly float32: number;
  readonly float64: number;
}

/** `n` bytes of strict UTF-8 at the cursor (after a string head), or undefined. */
export function takeText(c: DirectCursor, n: number): string | undefined {
  const start = c.pos;
  if (n < 0 || start + n > c.end) return undefined;
  c.pos = start + n;
  return readUtf8(c.bytes, start, c.pos);
}

/** `n` bytes at the cursor (after a byte-string head), copied, or undefined. */
export function takeBytes(c: DirectCursor, n: number): Uint8Array | undefined {
  const start = c.pos;
  if (n < 0 || start + n > c.end) return undefined;
  c.pos = start + n;
  return copyBytes(c.bytes, start, c.pos);
}

/** Consumes the next item when it is exactly these bytes (a pre-encoded key); else consumes nothing. */
function matchKey(c: DirectCursor, encoded: Uint8Array): boolean {
  const bytes = c.bytes;
  const p = c.pos;
  if (p + encoded.length > c.end) return false;
  for (let i = 0; i < encoded.length; i++) if (bytes[p + i] !== encoded[i]) return false;
  c.pos = p + encoded.length;
  return true;
}

/**
 * Whether a direct reader can read `type` at all: not when it holds a kind the direct readers
 * leave to the tree path (maps, literals, enums, void, `t.unknown`, a variant whose discriminant
 * is not the first member of each of its objects), or containers nested deeper than `maxDepth`.
 * Such a descriptor would make every decode try, throw and start over; its decodes go straight to
 * the parser instead. A `t.lazy` is followed once: met again, it adds nothing new.
 */
export function directlyReadable(type: Type, maxDepth: number, depth = 1, seen?: Set<Type>): boolean {
  return visit(type, readable, maxDepth, depth, seen);
}

const yes = () => true;
const no = () => false;

const readable: Visitor<boolean, [maxDepth: number, depth: number, seen: Set<Type> | undefined]> = {
  string: yes,
  bool: yes,
  int: yes,
  bigint: yes,
  float: yes,
  bytes: yes,
  timestamp: yes,
  map: no,
  literal: no,
  enum: no,
  void: no,
  unknown: no,
  optional: (d, maxDepth, depth, seen) => directlyReadable(d.inner, maxDepth, depth, seen),
  nullable: (d, maxDepth, depth, seen) => directlyReadable(d.inner, maxDepth, depth, seen),
  lazy: (d, maxDepth, depth, seen = new Set()) => {
    if (seen.has(d)) return true;
    seen.add(d);
    return directlyReadable(d.target, maxDepth, depth, seen);
  },
  array: (d, maxDepth, depth, seen) => depth <= maxDepth && directlyReadable(d.element, maxDepth, depth + 1, seen),
  tuple: (d, maxDepth, depth, seen) =>
    depth <= maxDepth && d.elements.every((e) => directlyReadable(e, maxDepth, depth + 1, seen)),
  object: (d, maxDepth, depth, seen) =>
    depth <= maxDepth && Object.values(d.fields).every((f) => directlyReadable(f, maxDepth, depth + 1, seen)),
  // The member objects, at the variant's depth, less their discriminant, which the variant reads.
  variant: (d, maxDepth, depth, seen) =>
    depth <= maxDepth &&
    d.members.every(
      (m) =>
        discriminantFirst(d, m) &&
        Object.values(m.fields)
          .slice(1)
          .every((f) => directlyReadable(f, maxDepth, depth + 1, seen)),
    ),
};

/** Whether every member of the variant declares its discriminant first: what the direct readers take. */
export function variantReadable(variant: VariantType): boolean {
  return variant.members.every((m) => discriminantFirst(variant, m));
}

/** Whether the variant's discriminant is the first declared member of `member`: writers write it first. */
function discriminantFirst(variant: VariantType, member: ObjectType): boolean {
  for (const key in member.fields) return key === variant.key;
  return false;
}

/** Reads one value of a descriptor straight from the bytes, or bails. */
export type DirectReader = (c: DirectCursor) => unknown;

/** Each `t.lazy` target's reader by depth, compiled on first use and shared by every `t.lazy` naming it. */
export type LazyReaders = ByDepth<Type, DirectReader>;

/**
 * Compiles a direct reader: bytes to the final value in one pass, no intermediate tree, map keys
 * compared as bytes instead of decoded. It takes the input writers like lacquer's produce —
 * members in declared order, the expected wire types — and bails on anything else (another key
 * order, an unknown key, a value out of range or failing a constraint, a tag), leaving the
 * decision, the exact value or the exact error, to the parser and the shared read pass. So it adds
 * speed, never rules.
 */
export function compileDirectReader(
  type: Type,
  ctx: ReaderContext,
  wire: ReadWire,
  encodeKey: (key: string) => Uint8Array,
  depth = 1,
  lazies: LazyReaders = new ByDepth(),
): DirectReader {
  return readerAt(type, { ctx, wire, encodeKey, lazies }, depth);
}

/** What the direct readers compiled for one descriptor share. */
interface DirectScope {
  readonly ctx: ReaderContext;
  readonly wire: ReadWire;
  readonly encodeKey: (key: string) => Uint8Array;
  readonly lazies: LazyReaders;
}

function readerAt(type: Type, scope: DirectScope, depth: number): DirectReader {
  return visit(type, readerOf, scope, depth);
}

const got = <T>(v: T | undefined): T => (v === undefined ? bail() : v);

/** A container's reader, or a bail when it sits deeper than `maxDepth` (the read pass fails there). */
const container = (scope: DirectScope, depth: number, make: () => DirectReader): DirectReader =>
  depth > scope.ctx.maxDepth ? bail : make();

/** The reader of a container's item, one level deeper. */
const inner = (scope: DirectScope, depth: number) => (t: Type) => readerAt(t, scope, depth + 1);

/** Maps (keys must be decoded), literals, enums, void and t.unknown are rare in hot payloads: the tree path reads them. */
const treePath = () => bail;

const readerOf: Visitor<DirectReader, [scope: DirectScope, depth: number]> = {
  string: (d, { wire }) => {
    if (d.constraints === undefined) return (c) => got(wire.string(c));
    return checked(stringRule(d.constraints), (c) => got(wire.string(c)));
  },
  bool:
    (_, { wire }) =>
    (c) =>
      got(wire.bool(c)),
  // The wire's integer items hold integers, so the kind's rule has only its bounds left to check.
  int: (d, { wire }) => {
    const rule = INT_RULES[d.kind];
    const read: DirectReader = (c) => {
      const v = wire.int(c);
      return v !== undefined && rule.inRange(v) ? v : bail();
    };
    return d.constraints === undefined ? read : checked(numberRule(d.constraints), read);
  },
  bigint: (d, { wire }) => {
    const rule = BIGINT_RULES[d.kind];
    const read: DirectReader = (c) => {
      const v = wire.bigint(c);
      return v !== undefined && rule.accepts(v) ? v : bail();
    };
    return d.constraints === undefined ? read : checked(numberRule(d.constraints), read);
  },
  float: (d, { wire }) => {
    const rule = FLOAT_RULES[d.kind];
    const read: DirectReader = (c) => {
      const v = wire.float(c);
      return v !== undefined && rule.accepts(v) ? rule.read(v) : bail();
    };
    // Bounds apply to the value read (an f32 rounded).
    return d.constraints === undefined ? read : checked(numberRule(d.constraints), read);
  },
  bytes:
    (_, { wire }) =>
    (c) => {
      const bytes = got(wire.bytes(c));
      if ((c.left -= BYTES_WEIGHT) < 0) bail();
      return bytes;
    },
  timestamp:
    (_, { wire }) =>
    (c) =>
      got(wire.timestamp(c)),
  optional: (d, scope, depth) => {
    const read = readerAt(d.inner, scope, depth);
    // An optional that holds null leaves the nil to its inner descriptor.
    if (!nullIsAbsent(d)) return read;
    const wire = scope.wire;
    return (c) => (wire.nil(c) ? undefined : read(c));
  },
  nullable: (d, scope, depth) => {
    const read = readerAt(d.inner, scope, depth);
    const wire = scope.wire;
    return (c) => (wire.nil(c) ? null : read(c));
  },
  lazy: (d, scope, depth) => lazyReader(d, scope, depth),
  array: (d, scope, depth) =>
    container(scope, depth, () => {
      const read = inner(scope, depth)(d.element);
      const count = d.constraints === undefined ? undefined : arrayRule(d.constraints);
      const wire = scope.wire;
      return (c) => {
        const n = wire.arrayHead(c);
        // Every element takes at least one byte: a longer announcement is the parser's to refuse.
        if (n < 0 || n > c.end - c.pos || (c.left -= arrayWeight(n)) < 0) bail();
        if (count !== undefined && count.failure(n) !== undefined) bail();
        const out: unknown[] = [];
        for (let i = 0; i < n; i++) out.push(read(c));
        return out;
      };
    }),
  tuple: (d, scope, depth) =>
    container(scope, depth, () => {
      const reads = d.elements.map(inner(scope, depth));
      const wire = scope.wire;
      return (c) => {
        if (wire.arrayHead(c) !== reads.length || --c.left < 0) bail();
        const out: unknown[] = [];
        for (let i = 0; i < reads.length; i++) out.push(reads[i]!(c));
        return out;
      };
    }),
  object: (d, scope, depth) =>
    container(scope, depth, () => objectReader(d, scope.ctx, scope.encodeKey, scope.wire, inner(scope, depth))),
  variant: (d, scope, depth) =>
    container(scope, depth, () => variantReader(d, scope.ctx, scope.encodeKey, scope.wire, inner(scope, depth))),
  map: treePath,
  literal: treePath,
  enum: treePath,
  void: treePath,
  unknown: treePath,
};

/**
 * `t.lazy` at `depth`: its target's reader, compiled on first use (a recursive descriptor would
 * compile for ever), once per target and depth; the generated direct readers call it too.
 */
export function lazyDirectReader(
  type: LazyType,
  ctx: ReaderContext,
  wire: ReadWire,
  encodeKey: (key: string) => Uint8Array,
  depth: number,
  lazies: LazyReaders,
): DirectReader {
  return lazyReader(type, { ctx, wire, encodeKey, lazies }, depth);
}

function lazyReader(type: LazyType, scope: DirectScope, depth: number): DirectReader {
  let read: DirectReader | undefined;
  return (c) => (read ??= scope.lazies.get(type.target, depth, () => readerAt(type.target, scope, depth)))(c);
}

/** `read`, then bails unless the value passes `rule`: the read pass gives the error. */
function checked<V>(rule: ConstraintRule<V>, read: DirectReader): DirectReader {
  return (c) => {
    const v = read(c) as V;
    return rule.failure(v) === undefined ? v : bail();
  };
}

/** What an object reader knows of one member. */
interface Member extends MemberRule {
  readonly encoded: Uint8Array;
  readonly read: DirectReader;
}

function membersOf(
  type: ObjectType,
  ctx: ReaderContext,
  encodeKey: (key: string) => Uint8Array,
  inner: (t: Type) => DirectReader,
): Member[] {
  return memberRules(type, ctx.errorOnMissingKeys).map((m) => ({
    ...m,
    encoded: encodeKey(m.key),
    read: inner(m.field),
  }));
}

/**
 * Reads members `from` on into `out`, in declared order, out of a map of `size` entries of which
 * `found` are read already; bails unless every entry is a declared member, in order.
 */
function readMembers(
  c: DirectCursor,
  members: readonly Member[],
  from: number,
  size: number,
  found: number,
  out: Record<string, unknown>,
): Record<string, unknown> {
  for (let i = from; i < members.length; i++) {
    const m = members[i]!;
    if (found < size && matchKey(c, m.encoded)) {
      found++;
      const value = m.read(c);
      if (value !== undefined || !m.optional) out[m.key] = value;
    } else if (m.required) {
      bail();
    } else if (m.makeDefault !== undefined) {
      out[m.key] = m.makeDefault();
    }
  }
  // Keys left over are unknown, out of order or repeated: the tree path decides.
  if (found !== size) bail();
  return out;
}

function objectReader(
  type: ObjectType,
  ctx: ReaderContext,
  encodeKey: (key: string) => Uint8Array,
  wire: ReadWire,
  inner: (t: Type) => DirectReader,
): DirectReader {
  const members = membersOf(type, ctx, encodeKey, inner);
  return (c) => {
    const size = wire.mapHead(c);
    if (size < 0 || --c.left < 0) bail();
    return readMembers(c, members, 0, size, 0, {});
  };
}

/**
 * A variant whose discriminant comes first: the key, then its value picks the member object,
 * which reads the rest of the map. The member object stands where the variant does (same depth).
 */
function variantReader(
  type: VariantType,
  ctx: ReaderContext,
  encodeKey: (key: string) => Uint8Array,
  wire: ReadWire,
  inner: (t: Type) => DirectReader,
): DirectReader {
  // Members read from their second key on: a variant whose discriminant comes later is the tree path's.
  if (!variantReadable(type)) return bail;
  const key = encodeKey(type.key);
  const cases = type.members.map((member) => {
    const value = (member.fields[type.key] as LiteralType).value as string | number | boolean;
    return { value, match: discriminant(value, wire, encodeKey), members: membersOf(member, ctx, encodeKey, inner) };
  });
  return (c) => {
    const size = wire.mapHead(c);
    if (size < 1 || --c.left < 0 || !matchKey(c, key)) bail();
    for (let i = 0; i < cases.length; i++) {
      const k = cases[i]!;
      if (k.match(c)) return readMembers(c, k.members, 1, size, 1, { [type.key]: k.value });
    }
    return bail();
  };
}

/** Consumes the discriminant item when it is `value` (as lacquer writes it); else consumes nothing. */
function discriminant(
  value: string | number | boolean,
  wire: ReadWire,
  encodeKey: (key: string) => Uint8Array,
): (c: DirectCursor) => boolean {
  if (typeof value === 'string') {
    const encoded = encodeKey(value);
    return (c) => matchKey(c, encoded);
  }
  const read = typeof value === 'boolean' ? wire.bool : wire.float;
  return (c) => {
    const p = c.pos;
    if (read(c) === value) return true;
    c.pos = p;
    return false;
  };
}
