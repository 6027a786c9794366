import type { ObjectType } from '../types/object.ts';
import type { Type } from '../types/type.ts';

/** `t.optional` and `t.nullable` are the nullable kinds of the specification. */
export function isNullableKind(type: Type): boolean {
  return type.kind === 'optional' || type.kind === 'nullable';
}

/**
 * Whether reading rejects an absent `key` as `missing_key`. Shared by the reader and the JSON
 * Schema writer, so `required` lists exactly what reading enforces.
 */
export function isRequiredKey(object: ObjectType, key: string, errorOnMissingKeys: boolean): boolean {
  if (!errorOnMissingKeys) return false;
  const field = object.fields[key];
  if (field === undefined) return false;
  const nullable = isNullableKind(field);
  return object.requiresKey ? object.requiresKey(key, nullable) : !nullable;
}
