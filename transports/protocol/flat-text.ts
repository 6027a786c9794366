/**
 * `text` as one flat string. V8 keeps a string built by concatenation (what the JSON writers make)
 * as a tree of pieces, which every later pass walks slowly: reading its characters one by one (an
 * entity tag's hash), or Node's write after the headers (twice the CPU for a JSON-RPC answer, a
 * tree of trees). Converting it to a number flattens it in place, as the flatstr package does; the
 * number is kept, so that no compiler drops the conversion.
 */
export function flatText(text: string): string {
  flattening = Number(text);
  return text;
}

/** Where {@link flatText} keeps its conversion's result. */
// biome-ignore lint/correctness/noUnusedVariables: written and never read, so that no compiler drops the conversion
let flattening = 0;
