const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The inherited-key rule: a declared member is read, and written, from the object's own properties
 * only. For most names a plain property load does that, as the prototype has no such property; a
 * name that `Object.prototype` also has (`constructor`, `toString`, `valueOf`…) counts only as an
 * own property, so a member's value never comes from the prototype.
 */
export function isInheritedKey(key: string): boolean {
  return key in Object.prototype;
}

/** Member `key` of `o`, `undefined` when absent; `inherited` is `isInheritedKey(key)`, worked out once per member. */
export function memberValue(o: Record<string, unknown>, key: string, inherited: boolean): unknown {
  return inherited && !hasOwn.call(o, key) ? undefined : o[key];
}

/**
 * `memberValue` as JavaScript source: an expression loading member `key` of the identifier `o`.
 * `ref` gives the name under which the generated code sees a constant.
 */
export function memberCode(o: string, key: string, ref: (value: unknown) => string): string {
  const k = JSON.stringify(key);
  return isInheritedKey(key) ? `(${ref(hasOwn)}.call(${o}, ${k}) ? ${o}[${k}] : undefined)` : `${o}[${k}]`;
}
