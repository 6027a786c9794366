import { addSegment } from '../errors/failure.ts';
import { objectExpected } from '../kinds/containers.ts';
import { isInheritedKey, memberValue } from '../kinds/member.ts';
import type { ObjectType } from '../descriptors/object.ts';
import { readAt, recordAt } from './collect.ts';
import { missingKey, unknownKey } from './container-failures.ts';
import type { ReaderContext, Reader } from './context.ts';
import { isRecord, keyCount, memberRules, type MemberRule } from './records.ts';
import { mismatch } from './read-scalars.ts';

interface Member extends MemberRule {
  readonly read: Reader;
  /** The key is also a property of `Object.prototype` (`constructor`, `toString`…): test ownership. */
  readonly inherited: boolean;
}

/**
 * Reads a declared record: members in declared order, absent ones take their default or fail as
 * `missing_key`, undeclared ones fail as `unknown_key` or are dropped. The result is a new object
 * holding declared keys only, so `__proto__` and friends never reach it.
 */
export function objectReader(
  type: ObjectType,
  ctx: ReaderContext,
  compileMember: (member: ObjectType['fields'][string]) => Reader,
): Reader {
  const members: Member[] = memberRules(type, ctx.errorOnMissingKeys).map((m) => ({
    ...m,
    read: compileMember(m.field),
    inherited: isInheritedKey(m.key),
  }));
  const declared = new Set(members.map((m) => m.key));
  const rejectUnknown = ctx.errorOnUnknownKeys;
  const expected = objectExpected(type.name);
  if (ctx.collect) return collectingObjectReader(members, declared, rejectUnknown, expected);

  return (v) => {
    if (!isRecord(v)) throw mismatch(expected, v);
    const out: Record<string, unknown> = {};
    let present = 0;
    let i = 0;
    try {
      for (; i < members.length; i++) {
        const m = members[i]!;
        const x = memberValue(v, m.key, m.inherited);
        if (x === undefined) {
          // The catch below adds the key to the path, which then points at the missing key.
          if (m.required) throw missingKey(m.key);
          if (m.makeDefault !== undefined) out[m.key] = m.makeDefault();
          continue;
        }
        present++;
        const value = m.read(x);
        if (value !== undefined || !m.optional) out[m.key] = value;
      }
    } catch (e) {
      addSegment(e, members[i]!.key);
    }
    if (rejectUnknown) {
      if (keyCount(v) !== present) {
        for (const k in v) {
          if (!declared.has(k)) addSegment(unknownKey(k), k);
        }
      }
    }
    return out;
  };
}

/** The object reader of the collecting pass: the same checks in the same order, each failure recorded. */
function collectingObjectReader(
  members: readonly Member[],
  declared: ReadonlySet<string>,
  rejectUnknown: boolean,
  expected: string,
): Reader {
  return (v) => {
    if (!isRecord(v)) throw mismatch(expected, v);
    const out: Record<string, unknown> = {};
    for (const m of members) {
      const x = memberValue(v, m.key, m.inherited);
      if (x === undefined) {
        if (m.required) recordAt(missingKey(m.key), m.key);
        else if (m.makeDefault !== undefined) out[m.key] = m.makeDefault();
        continue;
      }
      out[m.key] = readAt(m.read, x, m.key);
    }
    if (rejectUnknown) {
      for (const k in v) {
        if (!declared.has(k)) recordAt(unknownKey(k), k);
      }
    }
    return out;
  };
}
