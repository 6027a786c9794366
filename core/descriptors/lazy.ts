import { Type, type Infer, type InferInput } from './type.ts';

/**
 * A descriptor given by a function, called on first use: how a recursive descriptor refers to
 * itself (`children: t.array(t.lazy(() => Tree))`). A recursive descriptor should be a named
 * `t.object`, which JSON Schema and OpenAPI write once and refer to with `$ref`.
 */
export class LazyType<T extends Type = Type> extends Type<Infer<T>, InferInput<T>> {
  readonly kind = 'lazy';
  /** The resolved descriptor; a plain property, so that `.describe()` and `.default()` copies keep it. */
  private resolved: T | undefined = undefined;

  constructor(private readonly get: () => T) {
    super();
    if (typeof get !== 'function') throw new TypeError('t.lazy(): give a function returning the descriptor');
  }

  /**
   * The descriptor the function returns, resolved once. A chain of `t.lazy`, `t.optional` and
   * `t.nullable` that comes back to itself without passing a container (an object, an array…)
   * describes no value, and is refused with a `TypeError`.
   */
  get target(): T {
    if (this.resolved !== undefined) return this.resolved;
    const target = this.get();
    if (!(target instanceof Type))
      throw new TypeError(
        `t.lazy(): the function returned ${target === undefined ? 'undefined (is the descriptor declared after its use?)' : typeof target}, not a descriptor`,
      );
    this.resolved = target;
    try {
      refuseEmptyCycle(this);
    } catch (e) {
      this.resolved = undefined;
      throw e;
    }
    return target;
  }
}

/** Follows `t.lazy`, `t.optional` and `t.nullable` from `start` and refuses coming back to any of them. */
function refuseEmptyCycle(start: LazyType): void {
  const seen = new Set<Type>();
  let next: Type = start;
  while (!seen.has(next)) {
    seen.add(next);
    if (next instanceof LazyType) next = next.target;
    else if (next.kind === 'optional' || next.kind === 'nullable')
      next = (next as unknown as { readonly inner: Type }).inner;
    else return;
  }
  throw new TypeError(
    't.lazy(): the descriptor refers to itself without an object, array, map, tuple or variant in between, so it describes no value',
  );
}
