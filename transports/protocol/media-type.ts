import { isToken, parseWeightedList, withoutParameters } from './header-grammar.ts';

/** Whether `essence` is `type/subtype`, each a token (`*` is one). */
function isTypeAndSubtype(essence: string): boolean {
  const slash = essence.indexOf('/');
  return slash !== -1 && isToken(essence.slice(0, slash)) && isToken(essence.slice(slash + 1));
}

/** The essence of a media type, lower-cased, without parameters: `application/json`; `undefined` if malformed. */
export function mediaTypeEssence(value: string): string | undefined {
  const essence = withoutParameters(value);
  return isTypeAndSubtype(essence) ? essence : undefined;
}

/** One media range of an `Accept` header. */
export interface MediaRange {
  /** `application/json`, `application/*` or `*\/*`, lower-cased. */
  readonly range: string;
  /** 0 for `*\/*`, 1 for `type/*`, 2 for a full type. */
  readonly specificity: number;
  readonly q: number;
}

/**
 * Parses an `Accept` header, a weighted list whose members may carry parameters (ignored);
 * malformed ranges (`*\/json`) or q-values are skipped, not fatal.
 */
export function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const { name: range, q } of parseWeightedList(header, true)) {
    if (!isTypeAndSubtype(range)) continue;
    const slash = range.indexOf('/');
    const type = range.slice(0, slash);
    const subtype = range.slice(slash + 1);
    if (type === '*' && subtype !== '*') continue;
    out.push({ range, q, specificity: type === '*' ? 0 : subtype === '*' ? 1 : 2 });
  }
  return out;
}

/**
 * How much `ranges` accept `mediaType`: the most specific matching range decides (RFC 9110 §12.5.1).
 * A range named twice counts at its higher q: its parameters, which may tell the two apart
 * (`text/html;level=1;q=0, text/html`), are not read. (A coding named twice in `Accept-Encoding`,
 * which has no parameters, counts at its lower q: see content-coding.ts.)
 */
export function acceptance(ranges: readonly MediaRange[], mediaType: string): { q: number; specificity: number } {
  let best = { q: 0, specificity: -1 };
  const type = mediaType.slice(0, mediaType.indexOf('/'));
  for (const r of ranges) {
    const matches = r.specificity === 2 ? r.range === mediaType : r.specificity === 1 ? r.range === `${type}/*` : true;
    if (!matches) continue;
    if (r.specificity > best.specificity || (r.specificity === best.specificity && r.q > best.q)) best = r;
  }
  return best.specificity === -1 ? { q: 0, specificity: -1 } : { q: best.q, specificity: best.specificity };
}
