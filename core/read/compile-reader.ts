import { nullIsAbsent } from './optional-null.ts';
import { Failure, allowedText, showValue } from '../errors/failure.ts';
import { arrayRule, mapRule, numberRule, stringRule } from '../kinds/constraints.ts';
import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';
import { nestingTooDeep } from './container-failures.ts';
import type { Reader, ReaderContext } from './context.ts';
import { arrayReader, mapReader, tupleReader } from './read-collections.ts';
import { objectReader } from './read-object.ts';
import {
  bigIntReader,
  bytesReader,
  constrained,
  floatReader,
  intReader,
  readBool,
  readString,
  readVoid,
  timestampReader,
} from './read-scalars.ts';
import { unknownReader } from './read-unknown.ts';
import { variantReader } from './read-variant.ts';
import { ByDepth } from '../util/by-depth.ts';

/**
 * Compiles a descriptor into a reader, once: the descriptor tree is walked here, never per value.
 * `depth` is the nesting of the value this reader will see (the root container is depth 1), so
 * the `maxDepth` limit costs nothing at run time. `t.lazy` compiles its target on first use.
 */
export function compileReader(type: Type, ctx: ReaderContext, depth = 1): Reader {
  return visit(type, readerOf, ctx, depth);
}

/** Where a reader is compiled: the context, and the nesting of the value it will see. */
type At = [ctx: ReaderContext, depth: number];

/** The reader of a container's item, one level deeper. */
const inner = (t: Type, ctx: ReaderContext, depth: number) => compileReader(t, ctx, depth + 1);

/** A container's reader, or one that fails when the container sits deeper than `maxDepth`. */
const container = (ctx: ReaderContext, depth: number, make: () => Reader): Reader =>
  depth > ctx.maxDepth ? tooDeep(ctx.maxDepth) : make();

const readerOf: Visitor<Reader, At> = {
  string: (d) => constrained(readString, d.constraints && stringRule(d.constraints)),
  bool: () => readBool,
  void: () => readVoid,
  int: (d) => constrained(intReader(d.kind), d.constraints && numberRule(d.constraints)),
  float: (d) => constrained(floatReader(d.kind), d.constraints && numberRule(d.constraints)),
  bigint: (d, ctx) => constrained(bigIntReader(d.kind, ctx.source, d.json), d.constraints && numberRule(d.constraints)),
  bytes: (_, ctx) => bytesReader(ctx.source),
  timestamp: (_, ctx) => timestampReader(ctx.source),
  unknown: (_, ctx, depth) => unknownReader(ctx.source, depth, ctx.maxDepth),
  literal: (d) => oneOfReader([d.value]),
  enum: (d) => oneOfReader(d.values),
  optional: (d, ctx, depth) => {
    const read = compileReader(d.inner, ctx, depth);
    if (!nullIsAbsent(d)) return (v) => (v === undefined ? undefined : read(v));
    return (v) => (v === null || v === undefined ? undefined : read(v));
  },
  nullable: (d, ctx, depth) => {
    const read = compileReader(d.inner, ctx, depth);
    return (v) => (v === null ? null : read(v));
  },
  lazy: (d, ctx, depth) => lazyReader(d.target, ctx, depth),
  array: (d, ctx, depth) =>
    container(ctx, depth, () =>
      arrayReader(inner(d.element, ctx, depth), d.constraints && arrayRule(d.constraints), ctx.collect),
    ),
  map: (d, ctx, depth) =>
    container(ctx, depth, () =>
      mapReader(inner(d.values, ctx, depth), d.constraints && mapRule(d.constraints), ctx.collect),
    ),
  tuple: (d, ctx, depth) =>
    container(ctx, depth, () =>
      tupleReader(
        d.elements.map((e) => inner(e, ctx, depth)),
        ctx.collect,
      ),
    ),
  object: (d, ctx, depth) => container(ctx, depth, () => objectReader(d, ctx, (t) => inner(t, ctx, depth))),
  // Not a container: its member objects are, at this same depth.
  variant: (d, ctx, depth) =>
    container(ctx, depth, () => variantReader(d, (member) => compileReader(member, ctx, depth))),
};

/**
 * The readers of `t.lazy` targets, by context, target and depth: a recursive descriptor compiles
 * one reader per depth level it is met at, however many times it is met there, and none beyond
 * `maxDepth` (its containers become `tooDeep` there).
 */
const lazyTargets = new WeakMap<ReaderContext, ByDepth<Type, Reader>>();

/** `t.lazy`: the target's reader at the same depth (the lazy node is no container), compiled on first call. */
function lazyReader(target: Type, ctx: ReaderContext, depth: number): Reader {
  let read: Reader | undefined;
  return (v) => {
    if (read === undefined) {
      let targets = lazyTargets.get(ctx);
      if (targets === undefined) lazyTargets.set(ctx, (targets = new ByDepth()));
      read = targets.get(target, depth, () => compileReader(target, ctx, depth));
    }
    return read(v);
  };
}

function tooDeep(maxDepth: number): Reader {
  return () => {
    throw nestingTooDeep(maxDepth);
  };
}

/** A literal (one value) or an enum: a value not allowed is named in the failure. */
function oneOfReader(values: readonly unknown[]): Reader {
  const allowed = new Set<unknown>(values);
  const expected = allowedText(values);
  return (v) => {
    if (allowed.has(v)) return v;
    throw new Failure('type_mismatch', `expected ${expected}, got ${showValue(v)}`);
  };
}
