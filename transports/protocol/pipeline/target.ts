import { remember } from '../../../core/util/remember.ts';

/** A request target split into its decoded path segments and its query. */
export interface Target {
  /** The decoded path: `/api/café`. */
  readonly path: string;
  /** Decoded segments: `['api', 'café']`. */
  readonly segments: readonly string[];
  /** The query as sent, without `?`. */
  readonly search: string;
  readonly query: URLSearchParams;
}

/** RFC 3986 `pchar`s and `/`, with `%` checked separately. */
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const SEPARATOR = /[/\\]/;

/**
 * Parses `req.url`; a string is the reason it is malformed (answered 400): characters that must be
 * encoded, bad percent-encodings, control characters, dot segments (`..`, `%2e%2e`), and segments
 * that decode to a `/` or `\` (so that no `:param` value holds a path separator).
 */
export function parseTarget(raw: string): Target | string {
  const known = parsed.get(raw);
  if (known !== undefined)
    return typeof known === 'string' ? known : new ParsedTarget(known.path, known.segments, known.search);
  const target = parse(raw);
  remember(
    parsed,
    raw,
    typeof target === 'string'
      ? target
      : { path: target.path, segments: Object.freeze(target.segments), search: target.search },
  );
  return target;
}

/**
 * Targets parsed before, by the target as sent: clients repeat the same few paths, and parsing
 * one (its checks, its segments) was a visible share of a small call. Parsing depends on the text
 * alone; the memo is bounded as every one of lacquer's (`remember`).
 */
const parsed = new Map<string, Omit<Target, 'query'> | string>();

function parse(raw: string): Target | string {
  let rest = raw;
  if (!rest.startsWith('/')) {
    const absolute = originForm(rest);
    if (absolute === undefined) return 'the request target must be a path starting with /, or an absolute http(s) URL';
    rest = absolute;
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const rawPath = q === -1 ? rest : rest.slice(0, q);
  if (!PATH_CHARS.test(rawPath)) return 'the path holds characters that must be percent-encoded';
  const encoded = rawPath.includes('%');
  if (encoded && BAD_PERCENT.test(rawPath)) return 'the path holds a malformed percent-encoding';
  const segments = splitPath(rawPath);
  for (let i = 0; i < segments.length; i++) {
    let segment = segments[i]!;
    // Without a '%' nothing is decoded, and PATH_CHARS has already excluded control characters.
    if (encoded && segment.includes('%')) {
      try {
        segment = decodeURIComponent(segment);
      } catch {
        return 'the path holds a percent-encoding that is not UTF-8';
      }
      if (CONTROL.test(segment)) return 'the path holds a control character';
      // A segment must stay one segment: `..%2F..%2Fetc` in a `:param` would be `../../etc`.
      if (SEPARATOR.test(segment)) return 'the path holds an encoded / or \\';
      segments[i] = segment;
    }
    if (segment === '.' || segment === '..') return 'the path holds a dot segment';
  }
  return new ParsedTarget(encoded ? '/' + segments.join('/') : rawPath, segments, q === -1 ? '' : rest.slice(q + 1));
}

/** An authority (`user@host:port`): RFC 3986 characters, no path separator. */
const AUTHORITY = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%[\]]+$/;

/**
 * The path and query of an absolute-form target (`http://host/a/../b` gives `/a/../b`), as sent:
 * `new URL()` would resolve its dot segments (`..`, `%2e%2e`, `.%2e`) before they are checked, and
 * a proxy allowing `/public/*` would be walked past. `undefined` when `target` is no http(s) URL.
 */
function originForm(target: string): string | undefined {
  const scheme = /^https?:\/\//i.exec(target);
  if (scheme === null) return undefined;
  const start = scheme[0].length;
  let end = start;
  while (end < target.length && target[end] !== '/' && target[end] !== '?' && target[end] !== '#') end++;
  if (!AUTHORITY.test(target.slice(start, end))) return undefined;
  const rest = target.slice(end);
  return rest.startsWith('/') ? rest : '/' + rest;
}

/**
 * The segments of a path that starts with '/'. Written out because `path.slice(1).split('/')` is
 * several times slower: V8 keeps a slice of 13 or more characters as a view, which `split` handles
 * on a slow path (430 against 120 ns on `/api/listUsers`).
 */
function splitPath(path: string): string[] {
  const segments: string[] = [];
  let start = 1;
  for (let slash = path.indexOf('/', start); slash !== -1; slash = path.indexOf('/', start)) {
    segments.push(path.slice(start, slash));
    start = slash + 1;
  }
  segments.push(path.slice(start));
  return segments;
}

class ParsedTarget implements Target {
  #query: URLSearchParams | undefined;

  constructor(
    readonly path: string,
    readonly segments: readonly string[],
    readonly search: string,
  ) {}

  /** Built on first use: endpoints never read it. */
  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.search));
  }
}
