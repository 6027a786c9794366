// A 64-bit hash of what the server itself produces (entity tags) and of keys it is given (long
// rate-limit keys), where nobody gains by making two inputs collide: not cryptographic. Two 32-bit
// lanes with MurmurHash3's multipliers, each step one 32-bit word (two UTF-16 units of text, four
// bytes), then a final mix of both lanes: a quarter of the steps of a byte-at-a-time hash, on
// `Math.imul`, with no BigInt and no `node:crypto`, so it runs on every platform.

/** The hash of `first` then `second`, as 16 hexadecimal digits; the length of each counts, so where one ends matters. */
export function hash64(first: Uint8Array | string, second: Uint8Array | string = ''): string {
  lanes[0] = 0x9e3779b9;
  lanes[1] = 0x85ebca6b;
  mix(first);
  mix(second);
  let a = lanes[0]!;
  let b = lanes[1]!;
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  a ^= a >>> 16;
  b ^= b >>> 16;
  return hex8(a >>> 0) + hex8(b >>> 0);
}

/** The two lanes of the hash being computed: one array for every call (the hash runs to its end at once). */
const lanes = new Int32Array(2);

/** Mixes `input` into the lanes: its words, then a last partial word marked apart, then its length. */
function mix(input: Uint8Array | string): void {
  let a = lanes[0]!;
  let b = lanes[1]!;
  const n = input.length;
  let i = 0;
  let word: number;
  // Two loops, for text and for bytes, so that each reads one kind of input.
  if (typeof input === 'string') {
    for (; i + 1 < n; i += 2) {
      word = input.charCodeAt(i) | (input.charCodeAt(i + 1) << 16);
      a = Math.imul(a ^ word, 0xcc9e2d51);
      a = (a << 15) | (a >>> 17);
      b = Math.imul(b ^ word, 0x1b873593);
      b = (b << 13) | (b >>> 19);
    }
    word = i < n ? input.charCodeAt(i) | 0x10000 : 0;
  } else {
    for (; i + 3 < n; i += 4) {
      word = input[i]! | (input[i + 1]! << 8) | (input[i + 2]! << 16) | (input[i + 3]! << 24);
      a = Math.imul(a ^ word, 0xcc9e2d51);
      a = (a << 15) | (a >>> 17);
      b = Math.imul(b ^ word, 0x1b873593);
      b = (b << 13) | (b >>> 19);
    }
    word = 0;
    for (let shift = 0; i < n; i++, shift += 8) word |= input[i]! << shift;
  }
  // The partial word, then the length: `ab` then `c` hashes apart from `a` then `bc`.
  a = Math.imul(a ^ word ^ n, 0xcc9e2d51);
  b = Math.imul(b ^ word ^ Math.imul(n, 0x27d4eb2d), 0x1b873593);
  lanes[0] = a;
  lanes[1] = b;
}

/** Two hexadecimal digits per byte value: a lookup costs less than formatting a number. */
const HEX = Array.from({ length: 256 }, (_, i) => (i | 0x100).toString(16).slice(1));

function hex8(x: number): string {
  return HEX[x >>> 24]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!;
}
