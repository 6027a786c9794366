import { Failure } from '../errors/failure.ts';
import type { AnyType } from '../types/index.ts';
import type { Type } from '../types/type.ts';
import type { Reader, ReaderContext } from './context.ts';
import { arrayReader, mapReader, tupleReader } from './read-collections.ts';
import { objectReader } from './read-object.ts';
import {
  bigIntReader, bytesReader, floatReader, intReader, mismatch, readBool, readString, readVoid,
} from './read-scalars.ts';

/**
 * Compiles a descriptor into a reader, once: the descriptor tree is walked here, never per value.
 * `depth` is the nesting of the value this reader will see (the root container is depth 1), so
 * the `maxDepth` limit costs nothing at run time.
 */
export function compileReader(type: Type, ctx: ReaderContext, depth = 1): Reader {
  const d = type as AnyType;
  const inner = (t: Type) => compileReader(t, ctx, depth + 1);
  const container = (make: () => Reader): Reader => (depth > ctx.maxDepth ? tooDeep(ctx.maxDepth) : make());
  switch (d.kind) {
    case 'string': return readString;
    case 'bool': return readBool;
    case 'void': return readVoid;
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32': return intReader(d.kind);
    case 'i64': case 'u64': return bigIntReader(d.kind, ctx.source);
    case 'f32': case 'f64': return floatReader(d.kind);
    case 'bytes': return bytesReader(ctx.source);
    case 'literal': return literalReader(d.value);
    case 'enum': return enumReader(d.values);
    case 'optional': {
      const read = compileReader(d.inner, ctx, depth);
      return (v) => (v === null || v === undefined ? undefined : read(v));
    }
    case 'nullable': {
      const read = compileReader(d.inner, ctx, depth);
      return (v) => (v === null ? null : read(v));
    }
    case 'array': return container(() => arrayReader(inner(d.element)));
    case 'map': return container(() => mapReader(inner(d.values)));
    case 'tuple': return container(() => tupleReader(d.elements.map(inner)));
    case 'timestamp': case 'unknown': case 'variant': case 'lazy': throw new TypeError(`lacquer: ${d.kind} is not supported here yet`);
    case 'object': return container(() => objectReader(d, ctx, inner));
  }
}

function tooDeep(maxDepth: number): Reader {
  return () => {
    throw new Failure('limit_exceeded', `nesting deeper than maxDepth (${maxDepth})`);
  };
}

function literalReader(value: unknown): Reader {
  const expected = JSON.stringify(value);
  return (v) => {
    if (v === value) return value;
    throw mismatch(expected, v);
  };
}

function enumReader(values: readonly (string | number)[]): Reader {
  const allowed = new Set<unknown>(values);
  const expected = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return (v) => {
    if (allowed.has(v)) return v;
    throw mismatch(expected, v);
  };
}
