/** Sets a map entry; a `__proto__` key becomes an own property, never the prototype (as with `JSON.parse`). */
export function setEntry(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
