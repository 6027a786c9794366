const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The essence of a media type, lower-cased, without parameters: `application/json`; `undefined` if malformed. */
export function mediaTypeEssence(value: string): string | undefined {
  const semi = value.indexOf(';');
  const essence = (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash === -1) return undefined;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  return TOKEN.test(type) && TOKEN.test(subtype) ? essence : undefined;
}

/** One media range of an `Accept` header. */
export interface MediaRange {
  /** `application/json`, `application/*` or `*\/*`, lower-cased. */
  readonly range: string;
  /** 0 for `*\/*`, 1 for `type/*`, 2 for a full type. */
  readonly specificity: number;
  readonly q: number;
}

const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Parses an `Accept` header; malformed ranges or q-values are skipped, not fatal. */
export function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [first = '', ...params] = part.split(';');
    const range = mediaTypeEssence(first);
    if (range === undefined) continue;
    let q = 1;
    let valid = true;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq === -1 || p.slice(0, eq).trim().toLowerCase() !== 'q') continue;
      const value = p.slice(eq + 1).trim();
      if (QVALUE.test(value)) q = Number(value);
      else valid = false;
    }
    if (!valid) continue;
    const [type, subtype] = range.split('/') as [string, string];
    if (type === '*' && subtype !== '*') continue;
    out.push({ range, q, specificity: type === '*' ? 0 : subtype === '*' ? 1 : 2 });
  }
  return out;
}

/** How much `ranges` accept `mediaType`: the most specific matching range decides (RFC 9110 §12.5.1). */
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
