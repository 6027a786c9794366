import { unwrapLazy } from '../descriptors/unwrap-lazy.ts';
import type { Type } from '../descriptors/type.ts';
import { visit, type Visitor } from '../descriptors/visit.ts';
import { memberCode } from '../kinds/member.ts';

/**
 * What a writer does with an object member whose value is `undefined`: writes its `.default()`
 * (checked by the member's writer), skips it (`t.optional`, `t.unknown`), or fails with
 * `missing_key`. A `t.lazy` member is its target, unless it has a default of its own.
 */
export type AbsentMember =
  | { readonly mode: 'default'; readonly value: unknown }
  | { readonly mode: 'skip' }
  | { readonly mode: 'missing' };

const SKIP: AbsentMember = { mode: 'skip' };
const MISSING: AbsentMember = { mode: 'missing' };

/** How a writer treats member `field` when it is absent. Resolves `t.lazy` targets (it compiles nothing). */
export function absentMember(field: Type): AbsentMember {
  const d = unwrapLazy(field, true);
  if (d.hasDefault && d.defaultValue !== undefined) return { mode: 'default', value: d.defaultValue };
  return d.kind === 'optional' || d.kind === 'unknown' ? SKIP : MISSING;
}

/**
 * For generated writers: a statement loading member `key` of `v` into a new local `x`, its default
 * in place of an absent value when it has one (`absent`, from `absentMember`). `ref` names the
 * constants it uses.
 */
export function memberLoadCode(key: string, x: string, absent: AbsentMember, ref: (value: unknown) => string): string {
  const load = memberCode('v', key, ref);
  return absent.mode === 'default'
    ? `let ${x} = ${load}; if (${x} === undefined) ${x} = ${ref(absent.value)};`
    : `const ${x} = ${load};`;
}

/**
 * Whether writing `type` depends on how deep it sits: it holds a `t.lazy` (whose recursion is
 * bounded by `maxDepth`) or a `t.unknown` (whose values may nest, or cycle). Lazy targets are not
 * followed: the lazy node itself answers.
 */
export function dependsOnDepth(type: Type): boolean {
  let known = depthMemo.get(type);
  if (known === undefined) {
    depthMemo.set(type, false); // a descriptor reached again through itself adds nothing
    known = visit(type, holdsDepthBound);
    depthMemo.set(type, known);
  }
  return known;
}

const depthMemo = new WeakMap<Type, boolean>();

const no = () => false;
const yes = () => true;

/** Whether a descriptor holds a `t.lazy` or a `t.unknown`, its own lazy nodes answering for their targets. */
const holdsDepthBound: Visitor<boolean> = {
  string: no,
  bool: no,
  int: no,
  bigint: no,
  float: no,
  bytes: no,
  timestamp: no,
  void: no,
  literal: no,
  enum: no,
  lazy: yes,
  unknown: yes,
  optional: (d) => dependsOnDepth(d.inner),
  nullable: (d) => dependsOnDepth(d.inner),
  array: (d) => dependsOnDepth(d.element),
  map: (d) => dependsOnDepth(d.values),
  tuple: (d) => d.elements.some(dependsOnDepth),
  object: (d) => Object.values(d.fields).some(dependsOnDepth),
  variant: (d) => d.members.some(dependsOnDepth),
};
