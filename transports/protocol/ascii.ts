/**
 * Whether `text` up to `end` is `name`, ASCII letters compared without case: header names and
 * authentication schemes are tokens, so no other character has a case to ignore.
 */
export function isAsciiName(text: string, end: number, name: string): boolean {
  if (end !== name.length) return false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === name.charCodeAt(i)) continue;
    // Differing only in bit 0x20, and a letter: the other case of the same letter.
    const lower = c | 0x20;
    if (lower !== (name.charCodeAt(i) | 0x20) || lower < 0x61 || lower > 0x7a) return false;
  }
  return true;
}
