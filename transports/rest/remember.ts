const ENTRIES = 256;
const KEY_LENGTH = 512;

/**
 * Stores `value` under `key` in a memo keyed by texts clients choose (header values, request
 * targets, the members of a problem document), and returns it: every such memo of lacquer goes
 * through here. Bounded: a key longer than 512 characters is not kept, and a memo of 256 entries is
 * cleared before the next one, so that texts that never repeat cost a clear now and then, never
 * memory. A memo keyed by what the code makes (descriptors, codec lists) is bounded by them instead.
 */
export function remember<V>(map: Map<string, V>, key: string, value: V): V {
  if (key.length <= KEY_LENGTH) {
    if (map.size >= ENTRIES) map.clear();
    map.set(key, value);
  }
  return value;
}
