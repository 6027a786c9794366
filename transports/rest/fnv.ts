// FNV-1a, 64 bits, in four 16-bit limbs: no BigInt and no `node:crypto`, so it runs on every
// platform, and each product stays an exact small integer. Not cryptographic: it tells apart
// bytes the server itself produced (entity tags) and shortens keys it is given (rate limits),
// where nobody gains by making two inputs collide.

/**
 * The FNV-1a hash of `first` then `second`, as 16 hexadecimal digits: bytes taken as they are, a
 * text taken by its UTF-16 code units (each one step of the hash, as a byte is).
 */
export function fnv1a64(first: Uint8Array | string, second: Uint8Array | string = ''): string {
  // The offset basis, 0xcbf29ce484222325, highest limb first.
  limbs[0] = 0xcbf2;
  limbs[1] = 0x9ce4;
  limbs[2] = 0x8422;
  limbs[3] = 0x2325;
  if (typeof first === 'string') mixText(first);
  else mixBytes(first);
  if (typeof second === 'string') mixText(second);
  else mixBytes(second);
  return hex4(limbs[0]!) + hex4(limbs[1]!) + hex4(limbs[2]!) + hex4(limbs[3]!);
}

/** The hash being computed, highest limb first: one array for every call (the hash runs to its end at once). */
const limbs = new Uint32Array(4);

// Each step: h ^= unit (below 2^16, so only the lowest limb changes), then h *= 2^40 + 0x1b3,
// which is h * 0x1b3 plus h shifted up 40 bits (2 limbs and 8 bits), kept to 64 bits. Two loops,
// for text and for bytes, so that each reads one kind of input.

function mixText(text: string): void {
  let a = limbs[0]!, b = limbs[1]!, c = limbs[2]!, d = limbs[3]!;
  for (let i = 0; i < text.length; i++) {
    d ^= text.charCodeAt(i);
    const t0 = d * 0x1b3;
    const s1 = c * 0x1b3 + (t0 >>> 16);
    const s2 = b * 0x1b3 + (s1 >>> 16) + (d << 8);
    const s3 = a * 0x1b3 + (s2 >>> 16) + (c << 8);
    d = t0 & 0xffff;
    c = s1 & 0xffff;
    b = s2 & 0xffff;
    a = s3 & 0xffff;
  }
  limbs[0] = a;
  limbs[1] = b;
  limbs[2] = c;
  limbs[3] = d;
}

function mixBytes(bytes: Uint8Array): void {
  let a = limbs[0]!, b = limbs[1]!, c = limbs[2]!, d = limbs[3]!;
  for (let i = 0; i < bytes.length; i++) {
    d ^= bytes[i]!;
    const t0 = d * 0x1b3;
    const s1 = c * 0x1b3 + (t0 >>> 16);
    const s2 = b * 0x1b3 + (s1 >>> 16) + (d << 8);
    const s3 = a * 0x1b3 + (s2 >>> 16) + (c << 8);
    d = t0 & 0xffff;
    c = s1 & 0xffff;
    b = s2 & 0xffff;
    a = s3 & 0xffff;
  }
  limbs[0] = a;
  limbs[1] = b;
  limbs[2] = c;
  limbs[3] = d;
}

/** Two hexadecimal digits per byte value: a lookup costs less than formatting a number. */
const HEX = Array.from({ length: 256 }, (_, i) => (i | 0x100).toString(16).slice(1));

function hex4(limb: number): string {
  return HEX[limb >>> 8]! + HEX[limb & 0xff]!;
}
