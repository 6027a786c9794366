// Which descriptors a path segment and a query string can carry, and why the others cannot: a
// sentence for `Registry.on()` to refuse a route with, never a silent misreading.
import { formOf } from '../../../core/descriptors/visit.ts';
import type { ArrayType, OptionalType } from '../../../core/descriptors/index.ts';
import type { ObjectType } from '../../../core/descriptors/object.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { textFormOf } from './scalar-text.ts';

/** A named parameter of a method: its name (a path's `:name`, a query key) and its descriptor. */
export interface NamedParam {
  readonly name: string;
  readonly type: Type;
}

/** Why `type` has no text form, or `undefined` when it is a scalar that has one. */
function scalarProblem(type: Type): string | undefined {
  const form = textFormOf(type);
  return typeof form === 'string' ? form : undefined;
}

/**
 * Why a descriptor cannot be one path segment, or `undefined` when it can: a scalar (integers,
 * 64-bit ones included, floats, strings with their constraints, enums, literals, bools,
 * timestamps). Not optional (a segment is always there), not nullable, no bytes (base64 text may
 * hold `/`, which a segment cannot), no container.
 */
export function segmentProblem(type: Type): string | undefined {
  const form = formOf(type);
  if (form === 'optional') return 'a path segment is always present: an optional value (t.optional) cannot be one';
  if (form === 'bytes') return "bytes (t.bytes) cannot be a path segment: their base64 text may hold '/'";
  return scalarProblem(type);
}

/**
 * Why a parameter cannot come from the query string, or `undefined` when it can: a scalar once
 * (`limit=5`), an optional scalar (left out when absent), an array of scalars as a repeated key
 * (`tag=a&tag=b`), optional or not, or an object whose members are each of those, spread over the
 * query (`query=x&limit=5`).
 */
export function queryProblem(type: Type): string | undefined {
  if (formOf(type) === 'object') {
    for (const [key, member] of Object.entries((type as ObjectType).fields)) {
      const problem = memberProblem(member);
      if (problem !== undefined) return `its member '${key}': ${problem}`;
    }
    return undefined;
  }
  return memberProblem(type);
}

/** What one query key can carry: a scalar or an array of scalars, each optional or not. */
function memberProblem(type: Type): string | undefined {
  const form = formOf(type);
  if (form === 'object') return 'an object (t.object) inside a parameter has no text form: the query is flat';
  if (queryArray(type) !== undefined) return arrayProblem(type);
  if (form === 'optional') {
    const problem = scalarProblem((type as OptionalType).inner);
    return problem === undefined
      ? undefined
      : `an optional value holds a scalar or an array only in a query: ${problem}`;
  }
  return scalarProblem(type);
}

/**
 * An array of scalars travels as a repeated key, and the empty array as no key at all, which reads
 * as the array's `.default()`: a default other than `[]` would turn a sent `[]` into itself.
 */
function arrayProblem(type: Type): string | undefined {
  const array = queryArray(type)!;
  const problem = scalarProblem(array.element);
  if (problem !== undefined) return `an array holds scalars only in a query (a repeated key): ${problem}`;
  const value = type.defaultValue;
  if (type.hasDefault && value !== undefined && !(Array.isArray(value) && value.length === 0)) {
    return 'an array whose .default() is not [] cannot be in a query: [] is sent as no key, read as the default';
  }
  return undefined;
}

/** The array a query key repeats: `t.array(T)` or `t.optional(t.array(T))`; `undefined` for any other descriptor. */
export function queryArray(type: Type): ArrayType | undefined {
  const form = formOf(type);
  if (form === 'array') return type as ArrayType;
  const inner = form === 'optional' ? (type as OptionalType).inner : undefined;
  return inner !== undefined && formOf(inner) === 'array' ? (inner as ArrayType) : undefined;
}

/** The query keys of a parameter: its name, or each member of an object spread over the query. */
export function queryKeysOf(param: NamedParam): readonly string[] {
  return formOf(param.type) === 'object' ? Object.keys((param.type as ObjectType).fields) : [param.name];
}

/**
 * Why these path and query parameters cannot be read from (and written to) a request target, or
 * `undefined`: each must have its text form, names are unique (Unicode text, not `__proto__`), and
 * no two parameters claim one query key (two objects spread over the query declaring one member, or
 * a member named as another query parameter).
 */
export function paramsProblem(path: readonly NamedParam[], query: readonly NamedParam[]): string | undefined {
  const names = new Set<string>();
  for (const { name } of [...path, ...query]) {
    // The parameters are read as the members of one object: the names any object member may have.
    if (name === '__proto__') return "a parameter may not be named '__proto__'";
    if (!name.isWellFormed()) return `the name ${JSON.stringify(name)} holds a lone surrogate, which no text can carry`;
    if (names.has(name)) return `two parameters are named '${name}'`;
    names.add(name);
  }
  for (const { name, type } of path) {
    const problem = segmentProblem(type);
    if (problem !== undefined) return `the path parameter '${name}': ${problem}`;
  }
  const owners = new Map<string, string>();
  for (const param of query) {
    const problem = queryProblem(param.type);
    if (problem !== undefined) return `the query parameter '${param.name}': ${problem}`;
    for (const key of queryKeysOf(param)) {
      const owner = owners.get(key);
      if (owner !== undefined) return `the query key '${key}' belongs to both '${owner}' and '${param.name}'`;
      owners.set(key, param.name);
    }
  }
  return undefined;
}
