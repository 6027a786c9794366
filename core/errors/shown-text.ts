// Texts of the client's (keys, names, values) as errors repeat them: cut to a bounded length, so
// that a huge input never makes a huge message, path or problem document.

/**
 * The most characters of a client's text that an error message, a path segment or a problem
 * repeats; longer texts are cut and end with `…`. MCP cuts the names of tools and methods the same.
 */
export const MAX_SHOWN_CHARS = 100;

/** `text`, or its first `max` characters (one fewer rather than half a surrogate pair) and `…`. */
export function shownText(text: string, max: number = MAX_SHOWN_CHARS): string {
  return text.length <= max ? text : `${headOf(text, max)}…`;
}

/** The first `max` characters of `text` (one fewer rather than half a surrogate pair). */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = (text.charCodeAt(max - 1) & 0xfc00) === 0xd800 ? max - 1 : max;
  return text.slice(0, end);
}
