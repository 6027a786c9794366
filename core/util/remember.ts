/** How many entries a memo of outside texts holds before it is cleared. */
export const MEMO_ENTRIES = 256;
/** The longest key a memo of outside texts keeps, in UTF-16 units. */
export const MEMO_KEY_LENGTH = 512;

/**
 * Stores `value` under `key` in a memo keyed by texts lacquer does not choose (header values,
 * request targets, the members of a problem document, the names of descriptors made at run time),
 * and returns it: every such memo of lacquer goes through here. Bounded: a key longer than
 * `MEMO_KEY_LENGTH` is not kept, and a memo of `entries` keys is cleared before a new one goes in,
 * so that texts that never repeat cost a clear now and then, never memory. A memo keyed by what
 * the code makes (descriptors, codec lists) is bounded by them instead.
 */
export function remember<V>(map: Map<string, V>, key: string, value: V, entries = MEMO_ENTRIES): V {
  if (key.length <= MEMO_KEY_LENGTH) {
    if (map.size >= entries && !map.has(key)) map.clear();
    map.set(key, value);
  }
  return value;
}
