/**
 * The shortest decimal that reads back to the same float32: `0.1`, not `0.10000000149011612`.
 * `value` must already be a finite number; it is rounded to float32 first.
 */
export function formatF32(value: number): string {
  const f = Math.fround(value);
  if (Number.isInteger(f) && Math.abs(f) < 1e21) return formatF64(f);
  // float32 needs at most 9 significant digits; try fewer first.
  for (let precision = 1; precision < 9; precision++) {
    const candidate = Number(f.toPrecision(precision));
    if (Math.fround(candidate) === f) return String(candidate);
  }
  return String(Number(f.toPrecision(9)));
}

/** A finite number as JSON text, keeping the sign of `-0` (which `String` drops). */
export function formatF64(value: number): string {
  return value === 0 && 1 / value < 0 ? '-0' : String(value);
}
