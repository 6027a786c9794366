import { Failure, addSegment } from '../../core/errors/failure.ts';
import { mapRule, numberRule, type ConstraintRule } from '../../core/kinds/constraints.ts';
import { objectExpected } from '../../core/kinds/containers.ts';
import { isInheritedKey, memberValue } from '../../core/kinds/member.ts';
import { DEFAULT_MAX_DEPTH } from '../../core/options.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import type { LazyType, NullableType, ObjectType, OptionalType, Type } from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import type { BigIntKind } from '../../core/kinds/ranges.ts';
import { arrayChecker, floatCheckerOf, intCheckerOf, stringChecker } from '../../core/write/check-descriptor.ts';
import { absentMember, type AbsentMember } from '../../core/write/absent.ts';
import { variantMember } from '../../core/write/variant-member.ts';
import {
  bigIntChecker,
  checkArray,
  checkBool,
  checkBytes,
  checkConstraint,
  checkRecord,
  checkTimestamp,
  elementAt,
  missingMember,
  oneOfChecker,
  containerWriter,
  tooDeep,
} from '../../core/write/check-scalars.ts';
import { definedEntries, mapEntries, unknownForm } from '../../core/write/check-unknown.ts';
import type { Sink } from './sink.ts';
import type { Wire } from './wire.ts';

/** A compiled binary writer: checks `value` against its descriptor and appends it to the sink. */
export type BinaryWriter = (s: Sink, value: unknown) => void;

/**
 * What the writers compiled for one descriptor share: the format, the depth limit of `t.lazy`
 * recursion and `t.unknown` values, and the writers of lazy targets compiled so far, by target
 * and depth (a recursive descriptor compiles at most one writer per level).
 */
export interface BinaryWriterScope {
  readonly wire: Wire;
  readonly maxDepth: number;
  readonly targets: ByDepth<Type, BinaryWriter>;
}

export function binaryWriterScope(wire: Wire, maxDepth = DEFAULT_MAX_DEPTH): BinaryWriterScope {
  return { wire, maxDepth, targets: new ByDepth() };
}

/**
 * Compiles a descriptor into a writer for one binary format, once. The descriptor picks the wire
 * type of every field (`f32` as float32, `u64` as an exact integer…), the value checks are those
 * of the JSON writer, and only declared members are written, in declared order. `maxDepth`
 * bounds recursion through `t.lazy` and the nesting of `t.unknown` values.
 */
export function compileBinaryWriter(type: Type, wire: Wire, maxDepth = DEFAULT_MAX_DEPTH): BinaryWriter {
  return compileBinaryWriterAt(type, binaryWriterScope(wire, maxDepth), 1, false);
}

/**
 * The writer of `type` for a value at `depth` (the root container is at depth 1, as reading
 * counts). `bounded`: below a `t.lazy`, where a container deeper than `maxDepth` fails with
 * `limit_exceeded`; elsewhere the descriptor bounds the depth, and it is written as it is.
 */
export function compileBinaryWriterAt(
  type: Type,
  scope: BinaryWriterScope,
  depth: number,
  bounded: boolean,
): BinaryWriter {
  return visit(type, writerOf, scope, depth, bounded);
}

/** Where a writer is compiled: the scope, the depth of the value, and whether it is below a `t.lazy`. */
type At = [scope: BinaryWriterScope, depth: number, bounded: boolean];

/** The writer of a container's item, one level deeper. */
const inner = (t: Type, scope: BinaryWriterScope, depth: number, bounded: boolean) =>
  compileBinaryWriterAt(t, scope, depth + 1, bounded);

/** `t.optional` and `t.nullable`: nil for either absence, else the inner writer at the same depth. */
const wrapper = (
  d: OptionalType | NullableType,
  scope: BinaryWriterScope,
  depth: number,
  bounded: boolean,
): BinaryWriter => {
  const write = compileBinaryWriterAt(d.inner, scope, depth, bounded);
  const wire = scope.wire;
  return (s, v) => (v === null || v === undefined ? wire.nil(s) : write(s, v));
};

const oneOf = (values: readonly unknown[], wire: Wire): BinaryWriter => {
  const check = oneOfChecker(values);
  return (s, v) => writeScalar(s, check(v), wire);
};

const writerOf: Visitor<BinaryWriter, At> = {
  string: (d, { wire }) => {
    const check = stringChecker(d);
    return (s, v) => wire.string(s, check(v));
  },
  bool:
    (_, { wire }) =>
    (s, v) =>
      wire.bool(s, checkBool(v)),
  void:
    (_, { wire }) =>
    (s) =>
      wire.nil(s),
  int: (d, { wire }) => {
    const check = intCheckerOf(d);
    return (s, v) => wire.int(s, check(v));
  },
  bigint: (d, { wire }) => bigIntWriter(d.kind, wire, d.constraints && numberRule(d.constraints)),
  float: (d, { wire }) => {
    const check = floatCheckerOf(d);
    return d.kind === 'f32' ? (s, v) => wire.float32(s, check(v)) : (s, v) => wire.float64(s, check(v));
  },
  bytes:
    (_, { wire }) =>
    (s, v) =>
      wire.bytes(s, checkBytes(v)),
  timestamp:
    (_, { wire }) =>
    (s, v) =>
      wire.timestamp(s, checkTimestamp(v).getTime()),
  unknown: (_, scope, depth) => (s, v) => writeUnknown(s, v, depth, scope),
  literal: (d, { wire }) => oneOf([d.value], wire),
  enum: (d, { wire }) => oneOf(d.values, wire),
  optional: wrapper,
  nullable: wrapper,
  array: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () => {
      const write = inner(d.element, scope, depth, bounded);
      const check = arrayChecker(d);
      const wire = scope.wire;
      return (s, v) => {
        const a = check(v);
        wire.arrayHead(s, a.length);
        let i = 0;
        try {
          for (; i < a.length; i++) write(s, elementAt(a, i));
        } catch (e) {
          addSegment(e, i);
        }
      };
    }),
  tuple: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () => {
      const writes = d.elements.map((e) => inner(e, scope, depth, bounded));
      const wire = scope.wire;
      return (s, v) => {
        const a = checkArray(v, writes.length);
        wire.arrayHead(s, writes.length);
        let i = 0;
        try {
          for (; i < writes.length; i++) writes[i]!(s, elementAt(a, i));
        } catch (e) {
          addSegment(e, i);
        }
      };
    }),
  map: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () =>
      mapWriter(inner(d.values, scope, depth, bounded), scope.wire, d.constraints && mapRule(d.constraints)),
    ),
  object: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () =>
      objectWriter(d, (t) => inner(t, scope, depth, bounded), scope.wire),
    ),
  variant: (d, scope, depth, bounded) => {
    const pick = variantMember(d, (member) => compileBinaryWriterAt(member, scope, depth, bounded));
    return (s, v) => pick(v)(s, v);
  },
  lazy: (d, scope, depth) => lazyWriter(d, scope, depth),
};

/**
 * `t.lazy`: its target's writer at the same depth (a lazy node is no container), compiled on the
 * first value and shared by every lazy node reaching that target at that depth. Below it,
 * containers count towards `maxDepth`, which ends recursion, and cyclic values.
 */
function lazyWriter(type: LazyType, scope: BinaryWriterScope, depth: number): BinaryWriter {
  let write: BinaryWriter | undefined;
  return (s, v) => {
    if (write === undefined) {
      const target = type.target;
      write = scope.targets.get(target, depth, () => compileBinaryWriterAt(target, scope, depth, true));
    }
    write(s, v);
  };
}

/** `i64`/`u64`: bigints, or safe-integer numbers, written exactly (never as a double). */
function bigIntWriter(kind: BigIntKind, wire: Wire, bounds: ConstraintRule<number | bigint> | undefined): BinaryWriter {
  const rule = BIGINT_RULES[kind];
  const check = bigIntChecker(kind);
  if (bounds !== undefined) {
    return (s, v) => {
      const b = check(v);
      checkConstraint(bounds, b);
      wire.bigint(s, b);
    };
  }
  return (s, v) => {
    if (typeof v === 'bigint' && rule.accepts(v)) wire.bigint(s, v);
    else if (typeof v === 'number' && rule.acceptsNumber(v)) wire.int(s, v);
    else wire.bigint(s, check(v)); // throws the same failure as the JSON writer
  };
}

/** A literal or enum value: a string, an integer, a number, a boolean or `null`. */
function writeScalar(s: Sink, v: unknown, wire: Wire): void {
  if (typeof v === 'string') wire.string(s, v);
  else if (typeof v === 'number') Number.isSafeInteger(v) && !Object.is(v, -0) ? wire.int(s, v) : wire.float64(s, v);
  else if (typeof v === 'boolean') wire.bool(s, v);
  else wire.nil(s);
}

function mapWriter(write: BinaryWriter, wire: Wire, count: ConstraintRule<number> | undefined): BinaryWriter {
  return (s, v) => {
    // Entries whose value is undefined are skipped (as in JSON), so the header needs the count
    // first, and each value is read once, so that the header counts exactly the entries written.
    const { keys, values } = mapEntries(v, count);
    writeEntries(s, keys, values, write, wire);
  };
}

/** A map head and entries already read; a failure gets the entry's key. */
function writeEntries(
  s: Sink,
  keys: readonly string[],
  values: readonly unknown[],
  write: BinaryWriter,
  wire: Wire,
): void {
  wire.mapHead(s, keys.length);
  let i = 0;
  try {
    for (; i < keys.length; i++) {
      wire.string(s, keys[i]!);
      write(s, values[i]);
    }
  } catch (e) {
    addSegment(e, keys[i]!);
  }
}

interface Member {
  readonly key: string;
  readonly encodedKey: Uint8Array;
  readonly write: BinaryWriter;
  /** What an `undefined` value is written as (see `absentMember`). */
  readonly absent: AbsentMember;
  readonly inherited: boolean;
}

function objectWriter(type: ObjectType, inner: (t: Type) => BinaryWriter, wire: Wire): BinaryWriter {
  const members: Member[] = Object.entries(type.fields).map(([key, field]) => ({
    key,
    encodedKey: wire.encodeKey(key),
    write: inner(field),
    absent: absentMember(field),
    inherited: isInheritedKey(key),
  }));
  // Members that may be absent (skipped, or written as their default) need their values read first.
  const readFirst = members.some((m) => m.absent.mode !== 'missing');
  const expected = objectExpected(type.name);
  return (s, v) => {
    const o = checkRecord(v, expected);
    // Absent optional members are not written, so the map header counts only present ones; with
    // such members, each value is read once, before the header (a getter may change its mind).
    let size = members.length;
    let values: unknown[] | undefined;
    if (readFirst) {
      values = members.map((m) => {
        const x = memberValue(o, m.key, m.inherited);
        return x === undefined && m.absent.mode === 'default' ? m.absent.value : x;
      });
      for (const x of values) if (x === undefined) size--;
    }
    wire.mapHead(s, size);
    let i = 0;
    try {
      for (; i < members.length; i++) {
        const m = members[i]!;
        const x = values === undefined ? memberValue(o, m.key, m.inherited) : values[i];
        if (x === undefined) {
          if (m.absent.mode === 'skip') continue;
          throw missingMember(m.key);
        }
        s.raw(m.encodedKey);
        m.write(s, x);
      }
    } catch (e) {
      addSegment(e, members[i]!.key);
    }
  };
}

/** The bounds of a 64-bit integer in MessagePack and CBOR: i64's minimum to u64's maximum. */
const [MIN_WIRE_INT, MAX_WIRE_INT] = [BIGINT_RULES.i64.min, BIGINT_RULES.u64.max];

/**
 * A value of `t.unknown()` at `depth`, in the format's native form: safe integers as integers,
 * other numbers as float64, bigints as 64-bit integers, bytes as byte strings, Dates as
 * timestamps; containers count towards `maxDepth` (which also ends a cyclic value).
 */
function writeUnknown(s: Sink, v: unknown, depth: number, scope: BinaryWriterScope): void {
  const wire = scope.wire;
  switch (unknownForm(v)) {
    case 'null':
      return wire.nil(s);
    case 'boolean':
      return wire.bool(s, v as boolean);
    case 'number':
      return Number.isSafeInteger(v) && !Object.is(v, -0) ? wire.int(s, v as number) : wire.float64(s, v as number);
    case 'string':
      return wire.string(s, v as string);
    case 'bigint': {
      const b = v as bigint;
      if (b < MIN_WIRE_INT || b > MAX_WIRE_INT)
        throw new Failure('out_of_range', `${b} is outside the 64-bit integers (${MIN_WIRE_INT}..${MAX_WIRE_INT})`);
      return wire.bigint(s, b);
    }
    case 'bytes':
      return wire.bytes(s, v as Uint8Array);
    case 'timestamp':
      return wire.timestamp(s, (v as Date).getTime());
    case 'array': {
      if (depth > scope.maxDepth) throw tooDeep(scope.maxDepth);
      const a = checkArray(v);
      wire.arrayHead(s, a.length);
      let i = 0;
      try {
        for (; i < a.length; i++) writeUnknown(s, elementAt(a, i), depth + 1, scope);
      } catch (e) {
        addSegment(e, i);
      }
      return;
    }
    case 'object': {
      if (depth > scope.maxDepth) throw tooDeep(scope.maxDepth);
      const { keys, values } = definedEntries(v as object);
      return writeEntries(s, keys, values, (sink, x) => writeUnknown(sink, x, depth + 1, scope), wire);
    }
  }
}
