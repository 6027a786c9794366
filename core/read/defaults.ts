import type { AnyType } from '../descriptors/index.ts';
import type { Type } from '../descriptors/type.ts';
import { isLeftOutWhenUndefined, resolveLazy } from './required.ts';

/** Makes the value an absent key becomes; a fresh one every call, so defaults are never shared. */
export type DefaultMaker = () => unknown;

/**
 * The default of a descriptor: its `.default()` (copied), else `0`, `0n`, `''`, `false`, `[]`, `{}`
 * per kind, each member of an object its own default, `undefined` for optional and unknown, `null`
 * for nullable, the epoch for a timestamp, the first member's default for a variant.
 */
export function compileDefault(type: Type): DefaultMaker {
  if (type.hasDefault) {
    const value = type.defaultValue;
    if (typeof value !== 'object' || value === null) return () => value;
    return () => structuredClone(value);
  }
  const d = type as AnyType;
  switch (d.kind) {
    case 'string': return () => '';
    case 'bool': return () => false;
    case 'i8': case 'i16': case 'i32': case 'u8': case 'u16': case 'u32':
    case 'f32': case 'f64': return () => 0;
    case 'i64': case 'u64': return () => 0n;
    case 'bytes': return () => new Uint8Array(0);
    case 'array': return () => [];
    case 'map': return () => ({});
    case 'literal': { const v = d.value; return () => v; }
    case 'enum': { const v = d.values[0]; return () => v; }
    case 'optional': case 'void': return () => undefined;
    case 'nullable': return () => null;
    case 'tuple': {
      const makers = d.elements.map(compileDefault);
      return () => makers.map((make) => make());
    }
    case 'timestamp': return () => new Date(0);
    case 'unknown': return () => undefined;
    case 'variant': return compileDefault(d.members[0]!);
    case 'lazy': {
      // Compiled on first call: the target may be the descriptor being compiled.
      let make: DefaultMaker | undefined;
      return () => (make ??= compileDefault(d.target))();
    }
    case 'object': {
      const members = Object.entries(d.fields).flatMap(([key, field]) => {
        const make = memberDefault(field);
        return make === undefined ? [] : [[key, make] as const];
      });
      return () => {
        const out: Record<string, unknown> = {};
        for (const [key, make] of members) out[key] = make();
        return out;
      };
    }
  }
}

/**
 * What an absent object member becomes: its default, or `undefined` when the member is left out
 * of the object (an optional or unknown member, also behind `t.lazy`, without a `.default()` or
 * with `.default(undefined)`: such a member reading as `undefined` is always left out, and the
 * writers skip it).
 */
export function memberDefault(field: Type): DefaultMaker | undefined {
  const resolved = resolveLazy(field);
  const leftOut = isLeftOutWhenUndefined(resolved) && (!resolved.hasDefault || resolved.defaultValue === undefined);
  return leftOut ? undefined : compileDefault(field);
}
