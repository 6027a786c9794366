// Writing named parameters into a request target, for the typed client: the inverse of
// text-reader.ts. Every value is checked (kind and constraints, as any writer checks it) before
// anything is sent; a path value that could not arrive as one segment is refused too.
import type { ArrayType, ObjectType, OptionalType } from '../../../core/descriptors/index.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { formOf } from '../../../core/descriptors/visit.ts';
import { Failure, addSegment, quoteText } from '../../../core/errors/failure.ts';
import { asWriteError } from '../../../core/errors/write-error.ts';
import { objectExpected } from '../../../core/kinds/containers.ts';
import { isInheritedKey, memberValue } from '../../../core/kinds/member.ts';
import { absentMember, type AbsentMember } from '../../../core/write/absent.ts';
import { arrayChecker } from '../../../core/write/check-descriptor.ts';
import { checkRecord, elementAt, missingMember } from '../../../core/write/check-scalars.ts';
import { encodeComponent } from './form-urlencoded.ts';
import { paramsProblem, type NamedParam } from './problems.ts';
import { textFormOf, type TextForm } from './scalar-text.ts';

/** Writes the path segments and the query of a call from its arguments (by parameter name). */
export interface TextWriter {
  /** The percent-encoded segment of each path parameter, by name. Throws `WriteError`. */
  segments(args: Readonly<Record<string, unknown>>): Record<string, string>;
  /** The query without `?`: `''`, or `a=1&tag=x&tag=y`, percent-encoded. Throws `WriteError`. */
  query(args: Readonly<Record<string, unknown>>): string;
}

/**
 * Compiles the writer of a method's path and query parameters, once. Throws a `TypeError` naming
 * the problem when a parameter has no text form (see `paramsProblem`).
 */
export function textWriter(path: readonly NamedParam[], query: readonly NamedParam[]): TextWriter {
  const problem = paramsProblem(path, query);
  if (problem !== undefined) throw new TypeError(problem);
  const segments = path.map((p) => ({ ...member(p.name, p.type), form: textFormOf(p.type) as TextForm }));
  const params = query.map((p) => ({ ...member(p.name, p.type), write: queryWriter(p.name, p.type) }));
  return {
    segments(args) {
      const out: Record<string, string> = {};
      let i = -1;
      try {
        checkRecord(args);
        for (i = 0; i < segments.length; i++) {
          const s = segments[i]!;
          out[s.name] = encodeComponent(segmentText(s.form.write(valueOf(args, s))));
        }
      } catch (e) {
        throw asWriteError(at(e, segments[i]?.name));
      }
      return out;
    },
    query(args) {
      const parts: string[] = [];
      let i = -1;
      try {
        checkRecord(args);
        for (i = 0; i < params.length; i++) {
          const p = params[i]!;
          const x = valueOf(args, p);
          if (x !== undefined) p.write(x, parts);
        }
      } catch (e) {
        throw asWriteError(at(e, params[i]?.name));
      }
      return parts.join('&');
    },
  };
}

/** Writes one value's `key=value` pairs into `parts`; a failure carries its place below the parameter. */
type PairsWriter = (value: unknown, parts: string[]) => void;

interface Member {
  readonly name: string;
  readonly inherited: boolean;
  readonly absent: AbsentMember;
}

function member(name: string, type: Type): Member {
  return { name, inherited: isInheritedKey(name), absent: absentMember(type) };
}

/** A member's value, or its default when absent; `undefined` for an absent member left out; `missing_key` otherwise. */
function valueOf(o: Readonly<Record<string, unknown>>, m: Member): unknown {
  const x = memberValue(o, m.name, m.inherited);
  if (x !== undefined) return x;
  if (m.absent.mode === 'default') return m.absent.value;
  if (m.absent.mode === 'skip') return undefined;
  throw missingMember(m.name);
}

/** A failure of the parameter `name` (`undefined`: of the arguments themselves) gets the name in its path. */
function at(e: unknown, name: string | undefined): unknown {
  if (name !== undefined && e instanceof Failure) e.segments.push(name);
  return e;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The text, when it can be one path segment: servers refuse (400) dot segments, encoded
 * separators and control characters in any path, and a segment is never empty.
 */
function segmentText(text: string): string {
  let why: string | undefined;
  if (text === '') why = 'it is empty';
  else if (text === '.' || text === '..') why = 'it is a dot segment';
  else if (text.includes('/') || text.includes('\\')) why = 'it holds a / or \\';
  else if (CONTROL.test(text)) why = 'it holds a control character';
  if (why !== undefined)
    throw new Failure('invalid_format', `cannot write ${quoteText(text)} as a path segment: ${why}`);
  return text;
}

/** The writer of one query parameter (or member of an object spread over the query) named `key`. */
function queryWriter(key: string, type: Type): PairsWriter {
  const form = formOf(type);
  if (form === 'object') return spreadWriter(type as ObjectType);
  if (form === 'optional') {
    // An optional value's `null` is absent, as it reads (JSON writes it as null, read back as absent).
    const inner = queryWriter(key, (type as OptionalType).inner);
    return (v, parts) => {
      if (v !== null) inner(v, parts);
    };
  }
  const prefix = encodeComponent(key) + '=';
  if (form === 'array') {
    // The empty array is no pair at all: the reader's absent key.
    const check = arrayChecker(type as ArrayType);
    const text = textFormOf((type as ArrayType).element) as TextForm;
    return (v, parts) => {
      const a = check(v);
      let i = 0;
      try {
        for (; i < a.length; i++) parts.push(prefix + encodeComponent(text.write(elementAt(a, i))));
      } catch (e) {
        addSegment(e, i);
      }
    };
  }
  const text = textFormOf(type) as TextForm;
  return (v, parts) => {
    parts.push(prefix + encodeComponent(text.write(v)));
  };
}

/** An object spread over the query: each member's pairs under the member's name. */
function spreadWriter(type: ObjectType): PairsWriter {
  const members = Object.entries(type.fields).map(([key, field]) => ({
    ...member(key, field),
    write: queryWriter(key, field),
  }));
  const expected = objectExpected(type.name);
  return (v, parts) => {
    const o = checkRecord(v, expected);
    let i = 0;
    try {
      for (; i < members.length; i++) {
        const m = members[i]!;
        const x = valueOf(o, m);
        if (x !== undefined) m.write(x, parts);
      }
    } catch (e) {
      addSegment(e, members[i]!.name);
    }
  };
}
