/** Characters that JSON text must escape, and lone surrogates, which JSON.stringify escapes well-formed. */
export const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A string as JSON text. Plain strings skip the escaper. */
export function quote(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : '"' + s + '"';
}
