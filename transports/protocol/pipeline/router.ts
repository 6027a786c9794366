import type { HttpMethod } from '../../../core/contract/method.ts';

/** A compiled route pattern: `/users/:id` → `['users', ':id']`. */
interface Route<H> {
  readonly method: HttpMethod;
  readonly segments: readonly string[];
  readonly handler: H;
  /** No `:param` segment. */
  readonly literal: boolean;
}

/** A match: the handler and the `:param` values. */
export interface Match<H> {
  readonly handler: H;
  readonly params: Record<string, string>;
  /** The route has no `:param` segment. */
  readonly literal: boolean;
}

/** Splits a pattern into segments and checks it: `/users/:id`. */
export function compilePattern(pattern: string): string[] {
  if (!pattern.startsWith('/')) throw new TypeError(`route '${pattern}': a path must start with /`);
  const segments = pattern.slice(1).split('/');
  const names = new Set<string>();
  for (const s of segments) {
    if (!s.startsWith(':')) continue;
    const name = s.slice(1);
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new TypeError(`route '${pattern}': ':${name}' is not a parameter name`);
    if (names.has(name)) throw new TypeError(`route '${pattern}': ':${name}' appears twice`);
    names.add(name);
  }
  return segments;
}

/** The `:param` values of `path` when it matches `pattern`'s segments, else `undefined`. */
function matchSegments(pattern: readonly string[], path: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== path.length) return undefined;
  // Made at the first parameter: most routes tried on a request fail on a literal segment first.
  let params: Record<string, string> | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = path[i]!;
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      (params ??= Object.create(null) as Record<string, string>)[p.slice(1)] = s;
    } else if (p !== s) return undefined;
  }
  return params ?? (Object.create(null) as Record<string, string>);
}

/** Routes by verb and decoded path segments; literal routes are tried before routes with parameters. */
export class Router<H> {
  readonly #routes: Route<H>[] = [];

  add(method: HttpMethod, pattern: string, handler: H): void {
    const segments = compilePattern(pattern);
    const key = segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/');
    if (
      this.#routes.some(
        (r) => r.method === method && r.segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/') === key,
      )
    ) {
      throw new Error(`route ${method} ${pattern} is already defined`);
    }
    this.#routes.push({ method, segments, handler, literal: countParams(segments) === 0 });
    // Stable sort: fewer parameters first, so `/users/me` wins over `/users/:id`.
    this.#routes.sort((a, b) => countParams(a.segments) - countParams(b.segments));
  }

  /** The route for `method` on `path`, if any. */
  find(method: string, path: readonly string[]): Match<H> | undefined {
    for (const r of this.#routes) {
      if (r.method !== method) continue;
      const params = matchSegments(r.segments, path);
      if (params !== undefined) return { handler: r.handler, params, literal: r.literal };
    }
    return undefined;
  }

  /** Every verb some route answers on `path`. */
  methods(path: readonly string[]): HttpMethod[] {
    const out = new Set<HttpMethod>();
    for (const r of this.#routes) if (matchSegments(r.segments, path) !== undefined) out.add(r.method);
    return [...out];
  }
}

/**
 * Whether two patterns of one verb would leave some requests without a winner: both match a path
 * (each segment literal-equal, or a parameter on either side), and neither is more specific at
 * every segment (a literal where the other has a parameter, never the reverse). `/notes/search`
 * and `/notes/:id` are not (the literal wins); `/a/:x/c` and `/a/b/:y` are, and so is the same
 * shape twice (`/notes/:id`, `/notes/:key`).
 */
export function ambiguous(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  let aWins = false;
  let bWins = false;
  for (let i = 0; i < a.length; i++) {
    const pa = a[i]!.startsWith(':');
    const pb = b[i]!.startsWith(':');
    if (!pa && !pb && a[i] !== b[i]) return false;
    if (!pa && pb) aWins = true;
    if (pa && !pb) bWins = true;
  }
  return aWins === bWins;
}

/** The number of `:param` segments: a route with fewer wins where both match. */
function countParams(segments: readonly string[]): number {
  return segments.filter((s) => s.startsWith(':')).length;
}
