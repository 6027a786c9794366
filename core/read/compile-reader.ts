import { Failure, allowedText, showValue } from '../errors/failure.ts';
import { arrayRule, mapRule, numberRule, stringRule } from '../kinds/constraints.ts';
import type { AnyType } from '../descriptors/index.ts';
import type { Type } from '../descriptors/type.ts';
import type { Reader, ReaderContext } from './context.ts';
import { arrayReader, mapReader, tupleReader } from './read-collections.ts';
import { objectReader } from './read-object.ts';
import {
  bigIntReader, bytesReader, constrained, floatReader, intReader, mismatch, readBool, readString, readVoid, timestampReader,
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
  const d = type as AnyType;
  const inner = (t: Type) => compileReader(t, ctx, depth + 1);
  const container = (make: () => Reader): Reader => (depth > ctx.maxDepth ? tooDeep(ctx.maxDepth) : make());
  switch (d.kind) {
    case 'string': return d.constraints === undefined ? readString : constrained(readString, stringRule(d.constraints));
    case 'bool': return readBool;
    case 'void': return readVoid;
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': case 'f32': case 'f64': {
      const read = d.kind === 'f32' || d.kind === 'f64' ? floatReader(d.kind) : intReader(d.kind);
      return d.constraints === undefined ? read : constrained(read, numberRule(d.constraints));
    }
    case 'i64': case 'u64': {
      const read = bigIntReader(d.kind, ctx.source, d.json);
      return d.constraints === undefined ? read : constrained(read, numberRule(d.constraints));
    }
    case 'bytes': return bytesReader(ctx.source);
    case 'timestamp': return timestampReader(ctx.source);
    case 'unknown': return unknownReader(ctx.source, depth, ctx.maxDepth);
    case 'literal': return oneOfReader([d.value]);
    case 'enum': return oneOfReader(d.values);
    case 'optional': {
      const read = compileReader(d.inner, ctx, depth);
      return (v) => (v === null || v === undefined ? undefined : read(v));
    }
    case 'nullable': {
      const read = compileReader(d.inner, ctx, depth);
      return (v) => (v === null ? null : read(v));
    }
    case 'lazy': return lazyReader(d.target, ctx, depth);
    case 'array': return container(() => arrayReader(inner(d.element), d.constraints && arrayRule(d.constraints), ctx.collect));
    case 'map': return container(() => mapReader(inner(d.values), d.constraints && mapRule(d.constraints), ctx.collect));
    case 'tuple': return container(() => tupleReader(d.elements.map(inner), ctx.collect));
    case 'object': return container(() => objectReader(d, ctx, inner));
    // Not a container: its member objects are, at this same depth.
    case 'variant': return container(() => variantReader(d, (member) => compileReader(member, ctx, depth)));
  }
}

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
    throw new Failure('limit_exceeded', `nesting deeper than maxDepth (${maxDepth})`);
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
