// Big-endian numbers out of a byte array without a DataView over it (integers up to 32 bits by
// shifts, the rest through one shared scratch view), so a direct reader never allocates a view
// per input. Callers have checked the bounds.

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

/** The big-endian signed 64-bit integer at `b[p, p + 8)`. */
export function int64At(b: Uint8Array, p: number): bigint {
  load(b, p, 8);
  return scratch.getBigInt64(0);
}

/** The big-endian unsigned 16-bit integer at `b[p, p + 2)`. */
export function uint16At(b: Uint8Array, p: number): number {
  return (b[p]! << 8) | b[p + 1]!;
}

/** The big-endian unsigned 32-bit integer at `b[p, p + 4)`. */
export function uint32At(b: Uint8Array, p: number): number {
  return b[p]! * 0x1000000 + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
}

/** The signed 8-, 16- and 32-bit integers at `p`. */
export function int8At(b: Uint8Array, p: number): number {
  return (b[p]! << 24) >> 24;
}
export function int16At(b: Uint8Array, p: number): number {
  return (uint16At(b, p) << 16) >> 16;
}
export function int32At(b: Uint8Array, p: number): number {
  return uint32At(b, p) | 0;
}
