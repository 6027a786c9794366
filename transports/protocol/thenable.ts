/**
 * Whether `value` is a promise or promise-like. What user code returns is awaited only then: a
 * promise made for every call that answers at once is a visible share of a small call's cost.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
