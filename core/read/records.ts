import { WireTimestamp } from '../kinds/timestamp.ts';
import type { ObjectType } from '../descriptors/object.ts';
import type { MissingKeys } from '../options.ts';
import type { Type } from '../descriptors/type.ts';
import { returnObject } from '../codegen/codegen.ts';
import type { TreeSource } from './context.ts';
import { memberDefault, type DefaultMaker } from './defaults.ts';
import { RawNumber } from '../kinds/raw-number.ts';
import { isLeftOutWhenUndefined, isRequiredKey } from './required.ts';

// What reading takes as a record, and how it treats each declared member of an object: stated
// once for the closure readers, the generated readers and the direct readers of every codec.

/**
 * True for a value that can be read as an object: not null, not an array, not bytes, not a number
 * token, not a timestamp.
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Uint8Array) &&
    !(v instanceof RawNumber) &&
    !(v instanceof WireTimestamp) &&
    !(v instanceof Date)
  );
}

/**
 * The number of keys of a record as `for…in` counts them: what the unknown-key check (against the
 * declared members read) and the `minProperties`/`maxProperties` check compare.
 */
export function keyCount(v: object): number {
  let n = 0;
  for (const _ in v) n++;
  return n;
}

/** `keyCount` as JavaScript source: a statement leaving the key count of the identifier `v` in a new local `n`. */
export function keyCountCode(v: string): string {
  return `let n = 0; for (const _ in ${v}) n++;`;
}

/**
 * `!isRecord(v)` as JavaScript source, for generated readers; `ref` names the constants it uses. A
 * `JSON.parse` tree holds no bytes, no `RawNumber` (exact-parser trees go to the closures) and no
 * timestamps: for `json` trees the test is shorter.
 */
export function notRecordCode(v: string, source: TreeSource, ref: (value: unknown) => string): string {
  const plain = `typeof ${v} !== 'object' || ${v} === null || Array.isArray(${v})`;
  if (source === 'json') return plain;
  return `${plain} || ${v} instanceof Uint8Array || ${v} instanceof ${ref(RawNumber)} || ${v} instanceof ${ref(WireTimestamp)} || ${v} instanceof Date`;
}

/** How every reader (closure, generated, direct) treats one declared member of an object. */
export interface MemberRule {
  readonly key: string;
  readonly field: Type;
  /** An absent key fails as `missing_key` (see `isRequiredKey`). */
  readonly required: boolean;
  /** What an absent key that is not required becomes; without one (an optional member), it is left out of the result. */
  readonly makeDefault: DefaultMaker | undefined;
  /** A value reading as `undefined` is left out of the result (`t.optional`, `t.unknown`, also behind `t.lazy`). */
  readonly optional: boolean;
}

/** The rule of each member of `type`, in declared order. */
export function memberRules(type: ObjectType, errorOnMissingKeys: MissingKeys): MemberRule[] {
  return Object.entries(type.fields).map(([key, field]) => ({
    key,
    field,
    required: isRequiredKey(type, key, errorOnMissingKeys),
    makeDefault: memberDefault(field),
    optional: isLeftOutWhenUndefined(field),
  }));
}

/**
 * For generated readers: statements returning the object of `members` from the locals `a0`, `a1`,
 * …, leaving out the members a value reading as `undefined` is left out of.
 */
export function returnMembersCode(members: readonly MemberRule[]): string[] {
  return returnObject(members.map((m) => [m.key, { kind: m.optional ? 'optional' : m.field.kind }] as const));
}
