/** The smallest positive normal float32; below it float32 has fewer significant digits. */
const MIN_NORMAL_F32 = 1.1754943508222875e-38;

/**
 * The shortest decimal that reads back to the same float32: `0.1`, not `0.10000000149011612`.
 * `value` must already be a finite number; it is rounded to float32 first.
 */
export function formatF32(value: number): string {
  const f = Math.fround(value);
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return formatF64(f);
  // A normal float32 is within a relative 2^-24 of any decimal that reads back to it, far less
  // than half a unit of a 6th significant digit. So when a decimal of 6 digits or fewer reads
  // back, rounding to 6 digits gives that decimal padded with zeros (which `String` drops), and
  // trying 6, 7, 8, 9 finds the shortest that trying 1 to 9 would. Subnormals are less precise.
  const first = Math.abs(f) < MIN_NORMAL_F32 ? 1 : 6;
  for (let precision = first; precision < 9; precision++) {
    const candidate = Number(f.toPrecision(precision));
    if (Math.fround(candidate) === f) return String(candidate);
  }
  return String(Number(f.toPrecision(9)));
}

/** A finite number as JSON text, keeping the sign of `-0` (which `String` drops). */
export function formatF64(value: number): string {
  return value === 0 && 1 / value < 0 ? '-0' : String(value);
}
