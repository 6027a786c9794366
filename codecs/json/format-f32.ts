/** The smallest positive normal float32; below it float32 has fewer significant digits. */
const MIN_NORMAL_F32 = 1.1754943508222875e-38;

/** Powers of ten a double holds exactly: dividing by one of them rounds correctly. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const ZEROS = '000000';

/**
 * The shortest decimal that reads back to the same float32: `0.1`, not `0.10000000149011612`.
 * `value` must already be a finite number; it is rounded to float32 first. The text is the one
 * `String` gives for that decimal.
 */
export function formatF32(value: number): string {
  const f = Math.fround(value);
  if (Number.isInteger(f) && f < 1e21 && f > -1e21) return formatF64(f);
  // Between 1e-6 and 2^23 every float32 left is a fraction that `String` writes without an
  // exponent, and the scaling stays within the exact powers of ten. The search takes the rest:
  // integers of 1e21 and more, and tiny values.
  const slot = cacheSlot(f);
  if (cachedValues[slot] === f) return cachedTexts[slot]!;
  const magnitude = f < 0 ? -f : f;
  const text = (magnitude >= 1e-6 && magnitude < 8388608 && scaledDecimal(f, magnitude)) || searchPrecision(f);
  cachedValues[slot] = f;
  cachedTexts[slot] = text;
  return text;
}

// The texts of recently written fractions, as V8 keeps for number-to-string: a value seen again
// (a price, a weight, a reading that repeats) costs a lookup. Direct-mapped by a hash of the bits.
const CACHE_BITS = 9;
const cachedValues = new Float64Array(1 << CACHE_BITS).fill(NaN);
const cachedTexts: string[] = new Array<string>(1 << CACHE_BITS).fill('');
const bitsOf = new Float32Array(1);
const wordOf = new Int32Array(bitsOf.buffer);

function cacheSlot(f: number): number {
  bitsOf[0] = f;
  return Math.imul(wordOf[0]!, 0x9e3779b1) >>> (32 - CACHE_BITS);
}

/**
 * The fast path, without `toPrecision` and without number-to-string of a fraction: for k decimal
 * places, m = round(|f| × 10^k) is the nearest decimal, and m / 10^k is exactly the double that
 * reading its text gives (10^k is exact, division rounds correctly), so the round-trip test is
 * the one `searchPrecision` makes. k starts at 6 significant digits, for the reason given there,
 * and grows until the decimal reads back. It gives up ('') when the product lands within 1e-4 of
 * a half: its rounding error (under 1e-5 for m below 1e10) could then pick the other neighbour.
 */
function scaledDecimal(f: number, magnitude: number): string {
  // An estimate is enough: a digit too many is padding the loop strips, one too few is a retry.
  const first = Math.max(1, 5 - Math.floor(Math.log10(magnitude)));
  for (let k = first; k < first + 5; k++) {
    const scale = POW10[k]!;
    const scaled = magnitude * scale;
    let m = Math.round(scaled);
    const off = scaled - m;
    if (off > 0.4999 || off < -0.4999) return '';
    if (Math.fround(m / scale) !== magnitude) continue;
    let places = k;
    // Trailing zeros off; `%` on a double would be a call to fmod.
    for (let q = Math.floor(m / 10); q * 10 === m; q = Math.floor(m / 10)) {
      m = q;
      places--;
    }
    // m is a non-zero integer of at most 10 digits, and places > 0 (an integer never reads back
    // to a non-integer float32).
    const digits = '' + m;
    const point = digits.length - places;
    const text =
      point > 0 ? digits.slice(0, point) + '.' + digits.slice(point) : '0.' + ZEROS.slice(0, -point) + digits;
    return f < 0 ? '-' + text : text;
  }
  return '';
}

/**
 * The reference search: the first precision whose rounding reads back. A normal float32 is within
 * a relative 2^-24 of any decimal that reads back to it, far less than half a unit of a 6th
 * significant digit. So when a decimal of 6 digits or fewer reads back, rounding to 6 digits gives
 * that decimal padded with zeros (which `String` drops), and trying 6, 7, 8, 9 finds the shortest
 * that trying 1 to 9 would. Subnormals are less precise and start at 1.
 */
function searchPrecision(f: number): string {
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
