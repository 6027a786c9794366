// Reading named parameters from a request target: path parameters from their decoded segments, the
// others from the query string. The parameters are read as the members of one object whose
// members they are, by the core's object reader (missing and unknown keys, defaults, `requiresKey`,
// every error listed), over a tree of the query's texts; only the leaves are the text forms'.
import { ObjectType } from '../../../core/descriptors/object.ts';
import type { Type } from '../../../core/descriptors/type.ts';
import { formOf, visit, type Visitor } from '../../../core/descriptors/visit.ts';
import { Failure, type CollectedError } from '../../../core/errors/failure.ts';
import { describeFailure } from '../../../core/errors/path-error.ts';
import { MAX_READ_ERRORS, ReadError, asReadError, checkInputSize } from '../../../core/errors/read-error.ts';
import { arrayRule } from '../../../core/kinds/constraints.ts';
import { isInheritedKey, memberValue } from '../../../core/kinds/member.ts';
import { resolveReadOptions, type Opts } from '../../../core/options.ts';
import { withAllErrors } from '../../../core/read/collect.ts';
import { unknownKey } from '../../../core/read/container-failures.ts';
import type { Reader, ReaderContext } from '../../../core/read/context.ts';
import { arrayReader } from '../../../core/read/read-collections.ts';
import { objectReader } from '../../../core/read/read-object.ts';
import { decodeComponent, forEachPair, undecodableDetail } from './form-urlencoded.ts';
import { paramsProblem, queryArray, queryKeysOf, type NamedParam } from './problems.ts';
import { textFormOf, type TextForm } from './scalar-text.ts';

/**
 * Reads the parameters of one request: `pathValues` are the decoded segments by parameter name,
 * `search` the query as sent, without `?` (possibly `''`). Returns the values by parameter name;
 * throws `ReadError` (every problem in `.errors`, each with the parameter's name in its path).
 */
export type TextReader = (pathValues: Readonly<Record<string, string>>, search: string) => Record<string, unknown>;

/**
 * Compiles the reader of a method's path and query parameters, once per endpoint. Throws a
 * `TypeError` naming the problem when a parameter has no text form (see `paramsProblem`).
 *
 * A target with no query, for a method without query parameters, reads each path segment by its
 * text form and nothing else: no query parsing, no tree, no second pass.
 */
export function textReader(
  path: readonly NamedParam[],
  query: readonly NamedParam[],
  opts?: Opts,
  credentials: readonly string[] = [],
): TextReader {
  const problem = paramsProblem(path, query);
  if (problem !== undefined) throw new TypeError(problem);
  const general = generalReader(path, query, opts, new Set(credentials));
  if (query.length > 0) return general;
  const names = path.map((p) => p.name);
  const inherited = names.map(isInheritedKey);
  const reads = path.map((p) => (textFormOf(p.type) as TextForm).read);
  return (pathValues, search) => {
    if (search !== '') return general(pathValues, search);
    const out: Record<string, unknown> = {};
    try {
      for (let i = 0; i < names.length; i++) {
        const text = memberValue(pathValues, names[i]!, inherited[i]!);
        if (typeof text !== 'string') return general(pathValues, search);
        out[names[i]!] = reads[i]!(text);
      }
    } catch {
      // The general reader fails too, with every error and its path.
      return general(pathValues, search);
    }
    return out;
  };
}

/** Where a query key's texts go in the tree. */
interface Slot {
  /** The object parameter spread over the query that declares the key, or `undefined` at the root. */
  readonly owner: string | undefined;
  readonly key: string;
  /** An array: every occurrence is an element. Otherwise a second occurrence makes a list the scalar's reader refuses. */
  readonly many: boolean;
  /** `isInheritedKey(key)`. */
  readonly inherited: boolean;
}

const isArray = (type: Type) => queryArray(type) !== undefined;

function generalReader(
  path: readonly NamedParam[],
  query: readonly NamedParam[],
  opts: Opts | undefined,
  credentials: ReadonlySet<string>,
): TextReader {
  const options = resolveReadOptions(opts);
  const ctx: ReaderContext = { ...options, source: 'binary' };
  const root = new ObjectType(Object.fromEntries([...path, ...query].map((p) => [p.name, p.type])));
  const read = withAllErrors(compileText(root, ctx), () => compileText(root, { ...ctx, collect: true }));

  const slots = new Map<string, Slot>();
  const spreads: string[] = [];
  for (const param of query) {
    if (formOf(param.type) === 'object') {
      const fields = (param.type as ObjectType).fields;
      for (const key of queryKeysOf(param))
        slots.set(key, { owner: param.name, key, many: isArray(fields[key]!), inherited: isInheritedKey(key) });
      spreads.push(param.name);
    } else {
      slots.set(param.name, {
        owner: undefined,
        key: param.name,
        many: isArray(param.type),
        inherited: isInheritedKey(param.name),
      });
    }
  }
  const pathNames = path.map((p) => [p.name, isInheritedKey(p.name)] as const);

  return (pathValues, search) => {
    // Declared keys only (never `__proto__`, which no object declares); a key such as `constructor`
    // is read as an own property only, here and by the object reader.
    const tree: Record<string, unknown> = {};
    for (const [name, inherited] of pathNames) {
      const text = memberValue(pathValues, name, inherited);
      if (typeof text === 'string') tree[name] = text;
    }
    // An object spread over the query is always there; its members, as every key, only when sent
    // (an absent array reads as any absent member does: the same rule as a body's).
    for (const name of spreads) tree[name] = {};
    const extra: Failure[] = [];
    try {
      checkInputSize(search.length, options.maxBytes);
    } catch (e) {
      throw asReadError(e);
    }
    if (search !== '') {
      const syntax = fillQuery(search, slots, tree, options.errorOnUnknownKeys, credentials, extra);
      if (syntax !== undefined) throw ReadError.from(syntax);
    }
    let out: Record<string, unknown>;
    try {
      out = read(tree) as Record<string, unknown>;
    } catch (e) {
      throw withExtra(e, extra);
    }
    if (extra.length > 0) throw withExtra(undefined, extra);
    return out;
  };
}

/**
 * Puts the texts of the query into the tree at their slots; keys no parameter declares are unknown
 * keys (with `errorOnUnknownKeys`, else dropped) unless a security scheme reads them (`credentials`),
 * listed in `extra`. A key or value that does not decode is a `syntax_error` whatever the options:
 * the query is read no further, and that failure is returned (at the root for a key, at the
 * parameter, member or element for a value).
 */
function fillQuery(
  search: string,
  slots: ReadonlyMap<string, Slot>,
  tree: Record<string, unknown>,
  rejectUnknown: boolean,
  credentials: ReadonlySet<string>,
  extra: Failure[],
): Failure | undefined {
  let syntax: Failure | undefined;
  forEachPair(search, (rawKey, rawValue) => {
    const key = decodeComponent(rawKey);
    if (key === undefined) {
      syntax = new Failure('syntax_error', undecodableDetail(rawKey));
      return false;
    }
    const slot = slots.get(key);
    if (slot === undefined) {
      if (rejectUnknown && !credentials.has(key) && extra.length < MAX_READ_ERRORS) {
        const failure = unknownKey(key);
        failure.segments.push(key);
        extra.push(failure);
      }
      return true;
    }
    const target = slot.owner === undefined ? tree : (tree[slot.owner] as Record<string, unknown>);
    const had = memberValue(target, slot.key, slot.inherited);
    const text = decodeComponent(rawValue);
    if (text === undefined) {
      syntax = new Failure('syntax_error', undecodableDetail(rawValue));
      // Innermost first: an array's element, the key, the object spread over the query.
      if (slot.many) syntax.segments.push(had === undefined ? 0 : (had as unknown[]).length);
      syntax.segments.push(slot.key);
      if (slot.owner !== undefined) syntax.segments.push(slot.owner);
      return false;
    }
    if (had === undefined) target[slot.key] = slot.many ? [text] : text;
    else if (Array.isArray(had)) had.push(text);
    else target[slot.key] = [had, text];
    return true;
  });
  return syntax;
}

/** The `ReadError` of a failed read (or of none, `undefined`) with the query's own problems listed after the read's. */
function withExtra(error: unknown, extra: readonly Failure[]): unknown {
  if (extra.length === 0) return asReadError(error);
  const entries = extra.map(entryOf);
  if (error instanceof Failure) {
    error.collected = [...(error.collected ?? []), ...entries];
    return ReadError.from(error);
  }
  if (error !== undefined) return error;
  const first = extra[0]!;
  first.collected = entries;
  return ReadError.from(first);
}

function entryOf(f: Failure): CollectedError {
  const segments = f.segments.slice().reverse();
  const [code, path, message] = describeFailure(f.code, f.detail, f.key, segments);
  return { code, path: path.toWellFormed(), message: message.toWellFormed(), segments };
}

/** The reader of one parameter (or of the root object) over the tree of texts. */
function compileText(type: Type, ctx: ReaderContext): Reader {
  return visit(type, textReaders, ctx);
}

/** A scalar's texts: one decoded text, read by its text form. */
function leaf(type: Type): Reader {
  const form = textFormOf(type) as TextForm;
  return (v) => {
    if (typeof v === 'string') return form.read(v);
    throw new Failure('type_mismatch', `expected one value, got ${(v as readonly unknown[]).length}`);
  };
}

const refused = (): never => {
  // paramsProblem refuses these before anything is compiled.
  throw new TypeError('no text form');
};

const textReaders: Visitor<Reader, [ctx: ReaderContext]> = {
  string: leaf,
  bool: leaf,
  int: leaf,
  bigint: leaf,
  float: leaf,
  bytes: leaf,
  timestamp: leaf,
  literal: leaf,
  enum: leaf,
  // The object reader leaves an absent key out: the inner reader sees present texts only.
  optional: (d, ctx) => compileText(d.inner, ctx),
  array: (d, ctx) => arrayReader(compileText(d.element, ctx), d.constraints && arrayRule(d.constraints), ctx.collect),
  object: (d, ctx) => objectReader(d, ctx, (member) => compileText(member, ctx)),
  nullable: refused,
  unknown: refused,
  void: refused,
  map: refused,
  tuple: refused,
  variant: refused,
  lazy: refused,
};
