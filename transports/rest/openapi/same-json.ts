/**
 * Whether two schemas are the same JSON data. A `$ref` placeholder of the document under
 * construction (whose text is set at the end) is compared through `refKey`: the component it will
 * point to. Its other members (a `default` beside the `$ref`) are compared as data.
 */
export function sameJson(a: unknown, b: unknown, refKey: (value: object) => string | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (refKey(a) !== refKey(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k, i) =>
      k === kb[i] &&
      ((k === '$ref' && refKey(a) !== undefined) ||
        sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], refKey)),
  );
}
