import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';
import { isLeftOutWhenAbsent } from './required.ts';

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
  return visit(type, kindDefault);
}

/**
 * The default of each form, for a descriptor without `.default()`: a maker per descriptor, as
 * generated readers refer to each by name.
 */
const kindDefault: Visitor<DefaultMaker> = {
  string: () => () => '',
  bool: () => () => false,
  int: () => () => 0,
  float: () => () => 0,
  bigint: () => () => 0n,
  bytes: () => () => new Uint8Array(0),
  array: () => () => [],
  map: () => () => ({}),
  literal: (d) => {
    const v = d.value;
    return () => v;
  },
  enum: (d) => {
    const v = d.values[0];
    return () => v;
  },
  optional: () => () => undefined,
  void: () => () => undefined,
  nullable: () => () => null,
  tuple: (d) => {
    const makers = d.elements.map(compileDefault);
    return () => makers.map((make) => make());
  },
  timestamp: () => () => new Date(0),
  unknown: () => () => undefined,
  variant: (d) => compileDefault(d.members[0]!),
  lazy: (d) => {
    // Compiled on first call: the target may be the descriptor being compiled.
    let make: DefaultMaker | undefined;
    return () => (make ??= compileDefault(d.target))();
  },
  object: (d) => {
    const members = Object.entries(d.fields).flatMap(([key, field]) => {
      const make = memberDefault(field);
      return make === undefined ? [] : [[key, make] as const];
    });
    return () => {
      const out: Record<string, unknown> = {};
      for (const [key, make] of members) out[key] = make();
      return out;
    };
  },
};

/**
 * What an absent object member becomes: its default, or `undefined` when the member is left out
 * of the object (an optional or unknown member, also behind `t.lazy`, without a `.default()` or
 * with `.default(undefined)`: such a member reading as `undefined` is always left out, and the
 * writers skip it).
 */
export function memberDefault(field: Type): DefaultMaker | undefined {
  return isLeftOutWhenAbsent(field) ? undefined : compileDefault(field);
}
