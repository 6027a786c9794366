import { Failure, addSegment } from '../../core/errors/failure.ts';
import { isInheritedKey, memberValue } from '../../core/kinds/member.ts';
import { loneSurrogate } from '../../core/kinds/string.ts';
import type { AnyType, ObjectType, Type } from '../../core/types/index.ts';
import { encodeBase64 } from '../../core/util/base64.ts';
import {
  bigIntChecker, checkArray, checkBool, checkBytes, checkRecord, checkString, floatChecker, intChecker,
  missingMember, oneOfChecker,
} from '../../core/write/check-scalars.ts';
import { formatF32, formatF64 } from './format-f32.ts';
import { quote } from './quote.ts';

/** A compiled JSON writer. `indent` is the current indentation when prettifying, else unused. */
export type JsonWriter = (value: unknown, indent: string) => string;

const INDENT = '  ';
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Compiles a descriptor into a JSON writer, once. The writer projects the value onto the
 * descriptor (undeclared properties never leak out) and refuses what a reader would reject.
 */
export function compileJsonWriter(type: Type, pretty: boolean): JsonWriter {
  const d = type as AnyType;
  const inner = (t: Type) => compileJsonWriter(t, pretty);
  switch (d.kind) {
    case 'string': return (v) => quote(checkString(v));
    case 'bool': return (v) => (checkBool(v) ? 'true' : 'false');
    case 'void': return () => 'null';
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': {
      const check = intChecker(d.kind);
      return (v) => String(check(v));
    }
    case 'i64': case 'u64': {
      const check = bigIntChecker(d.kind);
      return (v) => String(check(v));
    }
    case 'f32': {
      const check = floatChecker('f32');
      return (v) => formatF32(check(v));
    }
    case 'f64': {
      const check = floatChecker('f64');
      return (v) => formatF64(check(v));
    }
    case 'bytes': return (v) => '"' + encodeBase64(checkBytes(v)) + '"';
    case 'literal': case 'enum': {
      const check = oneOfChecker(d.kind === 'literal' ? [d.value] : d.values);
      return (v) => JSON.stringify(check(v));
    }
    case 'optional': case 'nullable': {
      const write = inner(d.inner);
      return (v, ind) => (v === null || v === undefined ? 'null' : write(v, ind));
    }
    case 'array': {
      const write = inner(d.element);
      return sequenceWriter((v) => checkArray(v), () => write, pretty);
    }
    case 'tuple': {
      const writes = d.elements.map(inner);
      return sequenceWriter((v) => checkArray(v, writes.length), (i) => writes[i]!, pretty);
    }
    case 'map': return mapWriter(inner(d.values), pretty);
    case 'timestamp': case 'unknown': case 'variant': case 'lazy': throw new TypeError(`lacquer: ${d.kind} is not supported here yet`);
    case 'object': return objectWriter(d, inner, pretty);
  }
}

function sequenceWriter(check: (v: unknown) => unknown[], element: (i: number) => JsonWriter, pretty: boolean): JsonWriter {
  return (v, ind) => {
    const a = check(v);
    if (a.length === 0) return '[]';
    const inside = pretty ? ind + INDENT : '';
    const sep = pretty ? ',\n' + inside : ',';
    let s = pretty ? '[\n' + inside : '[';
    let i = 0;
    try {
      for (; i < a.length; i++) s += (i === 0 ? '' : sep) + element(i)(a[i], inside);
    } catch (e) {
      addSegment(e, i);
    }
    return s + (pretty ? '\n' + ind + ']' : ']');
  };
}

function mapWriter(write: JsonWriter, pretty: boolean): JsonWriter {
  return (v, ind) => {
    const o = checkRecord(v, 'an object (map)');
    const inside = pretty ? ind + INDENT : '';
    let s = '';
    let key = '';
    try {
      for (key in o) {
        if (!hasOwn.call(o, key)) continue;
        const x = o[key]; // read once: a getter may answer differently the next time
        if (x === undefined) continue;
        if (!key.isWellFormed()) throw new Failure('type_mismatch', `cannot write ${loneSurrogate(key)} as a key: it is not Unicode text`);
        s += (s === '' ? '' : ',') + (pretty ? '\n' + inside : '') + quote(key) + (pretty ? ': ' : ':') + write(x, inside);
      }
    } catch (e) {
      addSegment(e, key);
    }
    return s === '' ? '{}' : '{' + s + (pretty ? '\n' + ind + '}' : '}');
  };
}

function objectWriter(type: ObjectType, inner: (t: Type) => JsonWriter, pretty: boolean): JsonWriter {
  const members = Object.entries(type.fields).map(([key, field]) => ({
    key,
    label: quote(key) + (pretty ? ': ' : ':'),
    write: inner(field),
    optional: field.kind === 'optional',
    inherited: isInheritedKey(key),
  }));
  const expected = type.name === undefined ? 'an object' : `an object (${type.name})`;
  return (v, ind) => {
    const o = checkRecord(v, expected);
    const inside = pretty ? ind + INDENT : '';
    let s = '';
    let i = 0;
    try {
      for (; i < members.length; i++) {
        const m = members[i]!;
        const x = memberValue(o, m.key, m.inherited);
        if (x === undefined) {
          if (m.optional) continue;
          throw missingMember(m.key);
        }
        s += (s === '' ? '' : ',') + (pretty ? '\n' + inside : '') + m.label + m.write(x, inside);
      }
    } catch (e) {
      addSegment(e, members[i]!.key);
    }
    return s === '' ? '{}' : '{' + s + (pretty ? '\n' + ind + '}' : '}');
  };
}
