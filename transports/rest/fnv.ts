// FNV-1a, 64 bits, computed in two 32-bit halves: no BigInt and no `node:crypto`, so it runs on
// every platform. Not cryptographic: it tells apart bytes the server itself produced (entity tags)
// and shortens keys it is given (rate limits), where nobody gains by making two inputs collide.

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** The 64-bit prime is 2^40 + 0x1b3: a product is `h * 0x1b3 + (h << 40)`. */
const PRIME_LO = 0x1b3;
const TWO_32 = 0x1_0000_0000;

/**
 * The FNV-1a hash of `first` then `second`, as 16 hexadecimal digits: bytes taken as they are, a
 * text taken by its UTF-16 code units (each one step of the hash).
 */
export function fnv1a64(first: Uint8Array | string, second: Uint8Array | string = ''): string {
  hi = OFFSET_HI;
  lo = OFFSET_LO;
  mix(first);
  mix(second);
  return hex8(hi) + hex8(lo);
}

// The state of the hash being computed: the two halves, unsigned.
let hi = 0;
let lo = 0;

function mix(part: Uint8Array | string): void {
  let h = hi;
  let l = lo;
  const n = part.length;
  const text = typeof part === 'string';
  for (let i = 0; i < n; i++) {
    l = (l ^ (text ? part.charCodeAt(i) : part[i]!)) >>> 0;
    // l * 0x1b3 is below 2^41: exact as a double, its carry taken by division.
    const low = l * PRIME_LO;
    h = (Math.imul(h, PRIME_LO) + ((low / TWO_32) >>> 0) + (l << 8)) >>> 0;
    l = low >>> 0;
  }
  hi = h;
  lo = l;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}
