import { Failure, addSegment } from '../errors/failure.ts';
import { isInheritedKey, memberValue } from '../kinds/member.ts';
import type { ObjectType } from '../types/object.ts';
import type { ReaderContext, Reader } from './context.ts';
import { memberDefault, type DefaultMaker } from './defaults.ts';
import { RawNumber } from './raw-number.ts';
import { isRequiredKey } from './required.ts';
import { mismatch } from './read-scalars.ts';

interface Member {
  readonly key: string;
  readonly read: Reader;
  readonly required: boolean;
  /** Absent optional members without a default are left out of the result. */
  readonly makeDefault: DefaultMaker | undefined;
  readonly optional: boolean;
  /** The key is also a property of `Object.prototype` (`constructor`, `toString`…): test ownership. */
  readonly inherited: boolean;
}

/** True for a value that can be read as an object: not null, not an array, not bytes, not a number token. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof RawNumber);
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
    optional: field.kind === 'optional',
    inherited: isInheritedKey(key),
  }));
  const declared = new Set(members.map((m) => m.key));
  const rejectUnknown = ctx.errorOnUnknownKeys;
  const expected = type.name === undefined ? 'an object' : `an object (${type.name})`;

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
