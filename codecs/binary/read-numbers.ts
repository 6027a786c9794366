// Big-endian numbers out of a byte array without a DataView over it: one scratch view is shared,
// so a direct reader never allocates one per input. Callers have checked the bounds.

const scratch = new DataView(new ArrayBuffer(8));

function load(b: Uint8Array, p: number, n: number): void {
  for (let i = 0; i < n; i++) scratch.setUint8(i, b[p + i]!);
}

/** The big-endian binary64 at `b[p, p + 8)`. */
export function float64At(b: Uint8Array, p: number): number {
  load(b, p, 8);
  return scratch.getFloat64(0);
}

/** The big-endian binary32 at `b[p, p + 4)`. */
export function float32At(b: Uint8Array, p: number): number {
  load(b, p, 4);
  return scratch.getFloat32(0);
}

/** The big-endian unsigned 64-bit integer at `b[p, p + 8)`. */
export function uint64At(b: Uint8Array, p: number): bigint {
  load(b, p, 8);
  return scratch.getBigUint64(0);
}
