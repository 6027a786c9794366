import { addSegment } from '../../core/errors/failure.ts';
import { isInheritedKey, memberValue } from '../../core/kinds/member.ts';
import type { AnyType, ObjectType, Type } from '../../core/types/index.ts';
import { BIGINT_RULES } from '../../core/kinds/bigint.ts';
import type { BigIntKind } from '../../core/types/ranges.ts';
import {
  bigIntChecker, checkArray, checkBool, checkBytes, checkRecord, checkString, floatChecker, intChecker,
  missingMember, oneOfChecker,
} from '../../core/write/check-scalars.ts';
import type { Sink } from './sink.ts';
import type { Wire } from './wire.ts';

/** A compiled binary writer: checks `value` against its descriptor and appends it to the sink. */
export type BinaryWriter = (s: Sink, value: unknown) => void;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Compiles a descriptor into a writer for one binary format, once. The descriptor picks the wire
 * type of every field (`f32` as float32, `u64` as an exact integer…), the value checks are those
 * of the JSON writer, and only declared members are written, in declared order.
 */
export function compileBinaryWriter(type: Type, wire: Wire): BinaryWriter {
  const d = type as AnyType;
  const inner = (t: Type) => compileBinaryWriter(t, wire);
  switch (d.kind) {
    case 'string': return (s, v) => wire.string(s, checkString(v));
    case 'bool': return (s, v) => wire.bool(s, checkBool(v));
    case 'void': return (s) => wire.nil(s);
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': {
      const check = intChecker(d.kind);
      return (s, v) => wire.int(s, check(v));
    }
    case 'i64': case 'u64': return bigIntWriter(d.kind, wire);
    case 'f32': {
      const check = floatChecker('f32');
      return (s, v) => wire.float32(s, check(v));
    }
    case 'f64': {
      const check = floatChecker('f64');
      return (s, v) => wire.float64(s, check(v));
    }
    case 'bytes': return (s, v) => wire.bytes(s, checkBytes(v));
    case 'literal': case 'enum': {
      const check = oneOfChecker(d.kind === 'literal' ? [d.value] : d.values);
      return (s, v) => writeScalar(s, check(v), wire);
    }
    case 'optional': case 'nullable': {
      const write = inner(d.inner);
      return (s, v) => (v === null || v === undefined ? wire.nil(s) : write(s, v));
    }
    case 'array': {
      const write = inner(d.element);
      return (s, v) => {
        const a = checkArray(v);
        wire.arrayHead(s, a.length);
        let i = 0;
        try {
          for (; i < a.length; i++) write(s, a[i]);
        } catch (e) {
          addSegment(e, i);
        }
      };
    }
    case 'tuple': {
      const writes = d.elements.map(inner);
      return (s, v) => {
        const a = checkArray(v, writes.length);
        wire.arrayHead(s, writes.length);
        let i = 0;
        try {
          for (; i < writes.length; i++) writes[i]!(s, a[i]);
        } catch (e) {
          addSegment(e, i);
        }
      };
    }
    case 'map': return mapWriter(inner(d.values), wire);
    case 'timestamp': case 'unknown': case 'variant': case 'lazy': throw new TypeError(`lacquer: ${d.kind} is not supported here yet`);
    case 'object': return objectWriter(d, inner, wire);
  }
}

/** `i64`/`u64`: bigints, or safe-integer numbers, written exactly (never as a double). */
function bigIntWriter(kind: BigIntKind, wire: Wire): BinaryWriter {
  const rule = BIGINT_RULES[kind];
  const check = bigIntChecker(kind);
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

function mapWriter(write: BinaryWriter, wire: Wire): BinaryWriter {
  return (s, v) => {
    const o = checkRecord(v, 'an object (map)');
    // Entries whose value is undefined are skipped (as in JSON), so the header needs the count
    // first. Each value is read once: a getter or a Proxy may answer differently the next time,
    // and the header must count exactly the entries written.
    const keys: string[] = [];
    const values: unknown[] = [];
    for (const key in o) {
      if (!hasOwn.call(o, key)) continue;
      const x = o[key];
      if (x === undefined) continue;
      keys.push(key);
      values.push(x);
    }
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
  };
}

interface Member {
  readonly key: string;
  readonly encodedKey: Uint8Array;
  readonly write: BinaryWriter;
  readonly optional: boolean;
  readonly inherited: boolean;
}

function objectWriter(type: ObjectType, inner: (t: Type) => BinaryWriter, wire: Wire): BinaryWriter {
  const members: Member[] = Object.entries(type.fields).map(([key, field]) => ({
    key,
    encodedKey: wire.encodeKey(key),
    write: inner(field),
    optional: field.kind === 'optional',
    inherited: isInheritedKey(key),
  }));
  const optionals = members.filter((m) => m.optional).length;
  const expected = type.name === undefined ? 'an object' : `an object (${type.name})`;
  return (s, v) => {
    const o = checkRecord(v, expected);
    // Absent optional members are not written, so the map header counts only present ones; with
    // optional members, each value is read once, before the header (a getter may change its mind).
    let size = members.length;
    const values = optionals === 0 ? undefined : members.map((m) => memberValue(o, m.key, m.inherited));
    if (values !== undefined) for (const x of values) if (x === undefined) size--;
    wire.mapHead(s, size);
    let i = 0;
    try {
      for (; i < members.length; i++) {
        const m = members[i]!;
        const x = values === undefined ? memberValue(o, m.key, m.inherited) : values[i];
        if (x === undefined) {
          if (m.optional) continue;
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
