import { addSegment } from '../../core/errors/failure.ts';
import { mapRule } from '../../core/kinds/constraints.ts';
import { MAP_EXPECTED, objectExpected } from '../../core/kinds/containers.ts';
import { isInheritedKey, memberValue } from '../../core/kinds/member.ts';
import { DEFAULT_MAX_DEPTH } from '../../core/options.ts';
import { ByDepth } from '../../core/util/by-depth.ts';
import type { LazyType, NullableType, ObjectType, OptionalType, Type } from '../../core/descriptors/index.ts';
import { visit, type Visitor } from '../../core/descriptors/visit.ts';
import { encodeBase64 } from '../../core/util/base64.ts';
import {
  arrayChecker,
  bigIntCheckerOf,
  floatCheckerOf,
  intCheckerOf,
  stringChecker,
} from '../../core/write/check-descriptor.ts';
import { absentMember, type AbsentMember } from '../../core/write/absent.ts';
import { variantMember } from '../../core/write/variant-member.ts';
import {
  checkArray,
  checkBool,
  checkBytes,
  checkRecord,
  checkTimestamp,
  elementAt,
  missingMember,
  oneOfChecker,
  timestampText,
  containerWriter,
  tooDeep,
} from '../../core/write/check-scalars.ts';
import { checkKey, definedEntries, mapEntries, unknownForm } from '../../core/write/check-unknown.ts';
import { formatF32, formatF64 } from './format-f32.ts';
import { quote } from './quote.ts';

/** A compiled JSON writer. `indent` is the current indentation when prettifying, else unused. */
export type JsonWriter = (value: unknown, indent: string) => string;

const INDENT = '  ';
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * What the writers compiled for one descriptor share: the output form, the depth limit of
 * `t.lazy` recursion and `t.unknown` values, and the writers of lazy targets compiled so far, by
 * target and depth (a recursive descriptor compiles at most one writer per level).
 */
export interface JsonWriterScope {
  readonly pretty: boolean;
  readonly maxDepth: number;
  readonly targets: ByDepth<Type, JsonWriter>;
}

export function jsonWriterScope(pretty: boolean, maxDepth = DEFAULT_MAX_DEPTH): JsonWriterScope {
  return { pretty, maxDepth, targets: new ByDepth() };
}

/**
 * Compiles a descriptor into a JSON writer, once. The writer projects the value onto the
 * descriptor (undeclared properties never leak out) and refuses what a reader would reject.
 * `maxDepth` bounds recursion through `t.lazy` and the nesting of `t.unknown` values.
 */
export function compileJsonWriter(type: Type, pretty: boolean, maxDepth = DEFAULT_MAX_DEPTH): JsonWriter {
  return compileJsonWriterAt(type, jsonWriterScope(pretty, maxDepth), 1, false);
}

/**
 * The writer of `type` for a value at `depth` (the root container is at depth 1, as reading
 * counts). `bounded`: below a `t.lazy`, where a container deeper than `maxDepth` fails with
 * `limit_exceeded`; elsewhere the descriptor bounds the depth, and it is written as it is.
 */
export function compileJsonWriterAt(type: Type, scope: JsonWriterScope, depth: number, bounded: boolean): JsonWriter {
  return visit(type, writerOf, scope, depth, bounded);
}

/** Where a writer is compiled: the scope, the depth of the value, and whether it is below a `t.lazy`. */
type At = [scope: JsonWriterScope, depth: number, bounded: boolean];

/** The writer of a container's item, one level deeper. */
const inner = (t: Type, scope: JsonWriterScope, depth: number, bounded: boolean) =>
  compileJsonWriterAt(t, scope, depth + 1, bounded);

/** `t.optional` and `t.nullable`: `null` for either absence, else the inner writer at the same depth. */
const wrapper = (
  d: OptionalType | NullableType,
  scope: JsonWriterScope,
  depth: number,
  bounded: boolean,
): JsonWriter => {
  const write = compileJsonWriterAt(d.inner, scope, depth, bounded);
  return (v, ind) => (v === null || v === undefined ? 'null' : write(v, ind));
};

const oneOf = (values: readonly unknown[]): JsonWriter => {
  const check = oneOfChecker(values);
  return (v) => JSON.stringify(check(v));
};

const writerOf: Visitor<JsonWriter, At> = {
  string: (d) => {
    const check = stringChecker(d);
    return (v) => quote(check(v));
  },
  bool: () => (v) => (checkBool(v) ? 'true' : 'false'),
  void: () => () => 'null',
  int: (d) => {
    const check = intCheckerOf(d);
    return (v) => String(check(v));
  },
  bigint: (d) => {
    const check = bigIntCheckerOf(d);
    return d.json === 'string' ? (v) => '"' + String(check(v)) + '"' : (v) => String(check(v));
  },
  float: (d) => {
    const check = floatCheckerOf(d);
    return d.kind === 'f32' ? (v) => formatF32(check(v)) : (v) => formatF64(check(v));
  },
  bytes: () => (v) => '"' + encodeBase64(checkBytes(v)) + '"',
  timestamp: () => (v) => '"' + timestampText(checkTimestamp(v)) + '"',
  unknown: (_, scope, depth) => (v, ind) => writeUnknown(v, ind, depth, scope),
  literal: (d) => oneOf([d.value]),
  enum: (d) => oneOf(d.values),
  optional: wrapper,
  nullable: wrapper,
  array: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () => {
      const write = inner(d.element, scope, depth, bounded);
      const check = arrayChecker(d);
      return sequenceWriter(check, () => write, scope.pretty);
    }),
  tuple: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () => {
      const writes = d.elements.map((e) => inner(e, scope, depth, bounded));
      return sequenceWriter(
        (v) => checkArray(v, writes.length),
        (i) => writes[i]!,
        scope.pretty,
      );
    }),
  map: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () => {
      const write = inner(d.values, scope, depth, bounded);
      return d.constraints === undefined
        ? mapWriter(write, scope.pretty)
        : constrainedMapWriter(write, scope.pretty, mapRule(d.constraints));
    }),
  object: (d, scope, depth, bounded) =>
    containerWriter(scope.maxDepth, depth, bounded, () =>
      objectWriter(d, (t) => inner(t, scope, depth, bounded), scope.pretty),
    ),
  variant: (d, scope, depth, bounded) => {
    const pick = variantMember(d, (member) => compileJsonWriterAt(member, scope, depth, bounded));
    return (v, ind) => pick(v)(v, ind);
  },
  lazy: (d, scope, depth) => lazyWriter(d, scope, depth),
};

/**
 * `t.lazy`: its target's writer at the same depth (a lazy node is no container), compiled on the
 * first value and shared by every lazy node reaching that target at that depth. Below it,
 * containers count towards `maxDepth`, which ends recursion, and cyclic values.
 */
function lazyWriter(type: LazyType, scope: JsonWriterScope, depth: number): JsonWriter {
  let write: JsonWriter | undefined;
  return (v, ind) => {
    if (write === undefined) {
      const target = type.target;
      write = scope.targets.get(target, depth, () => compileJsonWriterAt(target, scope, depth, true));
    }
    return write(v, ind);
  };
}

function sequenceWriter(
  check: (v: unknown) => unknown[],
  element: (i: number) => JsonWriter,
  pretty: boolean,
): JsonWriter {
  return (v, ind) => elementsText(check(v), element, ind, pretty);
}

/** `[value,…]` of an array already checked, `element(i)` writing element `i`; a failure gets the element's index. */
function elementsText(a: readonly unknown[], element: (i: number) => JsonWriter, ind: string, pretty: boolean): string {
  if (a.length === 0) return '[]';
  const inside = pretty ? ind + INDENT : '';
  const sep = pretty ? ',\n' + inside : ',';
  let s = pretty ? '[\n' + inside : '[';
  let i = 0;
  try {
    for (; i < a.length; i++) s += (i === 0 ? '' : sep) + element(i)(elementAt(a, i), inside);
  } catch (e) {
    addSegment(e, i);
  }
  return s + (pretty ? '\n' + ind + ']' : ']');
}

function mapWriter(write: JsonWriter, pretty: boolean): JsonWriter {
  return (v, ind) => {
    const o = checkRecord(v, MAP_EXPECTED);
    const inside = pretty ? ind + INDENT : '';
    let s = '';
    let key = '';
    try {
      for (key in o) {
        if (!hasOwn.call(o, key)) continue;
        const x = o[key]; // read once: a getter may answer differently the next time
        if (x === undefined) continue;
        s +=
          (s === '' ? '' : ',') +
          (pretty ? '\n' + inside : '') +
          quote(checkKey(key)) +
          (pretty ? ': ' : ':') +
          write(x, inside);
      }
    } catch (e) {
      addSegment(e, key);
    }
    return s === '' ? '{}' : '{' + s + (pretty ? '\n' + ind + '}' : '}');
  };
}

/** A map with `minProperties`/`maxProperties`: its entries are counted (as reading counts them) before any is written. */
function constrainedMapWriter(write: JsonWriter, pretty: boolean, rule: ReturnType<typeof mapRule>): JsonWriter {
  return (v, ind) => {
    const { keys, values } = mapEntries(v, rule);
    return entriesText(keys, values, (x, inside) => write(x, inside), ind, pretty);
  };
}

/** `{"key":value,…}` of entries already read; a failure gets the entry's key. */
function entriesText(
  keys: readonly string[],
  values: readonly unknown[],
  write: JsonWriter,
  ind: string,
  pretty: boolean,
): string {
  if (keys.length === 0) return '{}';
  const inside = pretty ? ind + INDENT : '';
  let s = '';
  let i = 0;
  try {
    for (; i < keys.length; i++) {
      s +=
        (i === 0 ? '' : ',') +
        (pretty ? '\n' + inside : '') +
        quote(checkKey(keys[i]!)) +
        (pretty ? ': ' : ':') +
        write(values[i], inside);
    }
  } catch (e) {
    addSegment(e, keys[i]!);
  }
  return '{' + s + (pretty ? '\n' + ind + '}' : '}');
}

/** One member of an object writer. */
interface Member {
  readonly key: string;
  readonly label: string;
  readonly write: JsonWriter;
  /** What an `undefined` value is written as (see `absentMember`). */
  readonly absent: AbsentMember;
  readonly inherited: boolean;
}

function objectWriter(type: ObjectType, inner: (t: Type) => JsonWriter, pretty: boolean): JsonWriter {
  const members: Member[] = Object.entries(type.fields).map(([key, field]) => ({
    key,
    label: quote(key) + (pretty ? ': ' : ':'),
    write: inner(field),
    absent: absentMember(field),
    inherited: isInheritedKey(key),
  }));
  const expected = objectExpected(type.name);
  return (v, ind) => {
    const o = checkRecord(v, expected);
    const inside = pretty ? ind + INDENT : '';
    let s = '';
    let i = 0;
    try {
      for (; i < members.length; i++) {
        const m = members[i]!;
        let x = memberValue(o, m.key, m.inherited);
        if (x === undefined) {
          const absent = m.absent;
          if (absent.mode === 'skip') continue;
          if (absent.mode === 'missing') throw missingMember(m.key);
          x = absent.value;
        }
        s += (s === '' ? '' : ',') + (pretty ? '\n' + inside : '') + m.label + m.write(x, inside);
      }
    } catch (e) {
      addSegment(e, members[i]!.key);
    }
    return s === '' ? '{}' : '{' + s + (pretty ? '\n' + ind + '}' : '}');
  };
}

/**
 * A value of `t.unknown()` at `depth`: JSON values as they are, bigints as integer text, bytes as
 * base64 text, Dates as RFC 3339 text; containers count towards `maxDepth` (which also ends a
 * cyclic value).
 */
function writeUnknown(v: unknown, ind: string, depth: number, scope: JsonWriterScope): string {
  switch (unknownForm(v)) {
    case 'null':
      return 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return formatF64(v as number);
    case 'string':
      return quote(v as string);
    case 'bigint':
      return String(v);
    case 'bytes':
      return '"' + encodeBase64(v as Uint8Array) + '"';
    case 'timestamp':
      return '"' + timestampText(v as Date) + '"';
    case 'array': {
      if (depth > scope.maxDepth) throw tooDeep(scope.maxDepth);
      const write: JsonWriter = (x, inside) => writeUnknown(x, inside, depth + 1, scope);
      return elementsText(checkArray(v), () => write, ind, scope.pretty);
    }
    case 'object': {
      if (depth > scope.maxDepth) throw tooDeep(scope.maxDepth);
      const { keys, values } = definedEntries(v as object);
      return entriesText(keys, values, (x, inside) => writeUnknown(x, inside, depth + 1, scope), ind, scope.pretty);
    }
  }
}
