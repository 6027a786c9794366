/**
 * Values made once per key and depth: what readers and writers compile for a `t.lazy` target (one
 * per level of recursion it is met at, however often it is met there), and generated functions
 * whose code depends on the depth they are called at.
 */
export class ByDepth<K, V> {
  readonly #byKey = new Map<K, Map<number, V>>();

  /** The value for `key` at `depth`, made by `make` the first time it is asked for. */
  get(key: K, depth: number, make: () => V): V {
    let byDepth = this.#byKey.get(key);
    if (byDepth === undefined) this.#byKey.set(key, (byDepth = new Map()));
    let value = byDepth.get(depth);
    if (value === undefined) byDepth.set(depth, (value = make()));
    return value;
  }
}
