import { Failure, addSegment } from '../errors/failure.ts';
import { isInheritedKey, memberValue } from '../kinds/member.ts';
import { WireTimestamp } from '../kinds/timestamp.ts';
import type { ObjectType } from '../descriptors/object.ts';
import { readAt, recordAt } from './collect.ts';
import type { ReaderContext, Reader } from './context.ts';
import { memberDefault, type DefaultMaker } from './defaults.ts';
import { RawNumber } from '../kinds/raw-number.ts';
import { isLeftOutWhenUndefined, isRequiredKey } from './required.ts';
import { mismatch } from './read-scalars.ts';

interface Member {
  readonly key: string;
  readonly read: Reader;
  readonly required: boolean;
  /** Absent optional members without a default are left out of the result. */
  readonly makeDefault: DefaultMaker | undefined;
  /** A value reading as `undefined` is left out of the result (`t.optional`, `t.unknown`). */
  readonly optional: boolean;
  /** The key is also a property of `Object.prototype` (`constructor`, `toString`…): test ownership. */
  readonly inherited: boolean;
}

/**
 * True for a value that can be read as an object: not null, not an array, not bytes, not a number
 * token, not a timestamp.
 */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof RawNumber) &&
    !(v instanceof WireTimestamp) && !(v instanceof Date);
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
  const members: Member[] = Object.entries(type.fields).map(([key, field]) => ({
    key,
    read: compileMember(field),
    required: isRequiredKey(type, key, ctx.errorOnMissingKeys),
    makeDefault: memberDefault(field),
    optional: isLeftOutWhenUndefined(field),
    inherited: isInheritedKey(key),
  }));
  const declared = new Set(members.map((m) => m.key));
  const rejectUnknown = ctx.errorOnUnknownKeys;
  const expected = type.name === undefined ? 'an object' : `an object (${type.name})`;
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
          if (m.required) throw new Failure('missing_key', 'missing required key', m.key);
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
      let count = 0;
      for (const _ in v) count++;
      if (count !== present) {
        for (const k in v) {
          if (!declared.has(k)) addSegment(new Failure('unknown_key', 'unknown key', k), k);
        }
      }
    }
    return out;
  };
}

/** The object reader of the collecting pass: the same checks in the same order, each failure recorded. */
function collectingObjectReader(members: readonly Member[], declared: ReadonlySet<string>, rejectUnknown: boolean, expected: string): Reader {
  return (v) => {
    if (!isRecord(v)) throw mismatch(expected, v);
    const out: Record<string, unknown> = {};
    for (const m of members) {
      const x = memberValue(v, m.key, m.inherited);
      if (x === undefined) {
        if (m.required) recordAt(new Failure('missing_key', 'missing required key', m.key), m.key);
        else if (m.makeDefault !== undefined) out[m.key] = m.makeDefault();
        continue;
      }
      out[m.key] = readAt(m.read, x, m.key);
    }
    if (rejectUnknown) {
      for (const k in v) {
        if (!declared.has(k)) recordAt(new Failure('unknown_key', 'unknown key', k), k);
      }
    }
    return out;
  };
}
