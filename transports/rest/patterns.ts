import type { HttpMethod } from '../../core/contract/method.ts';
import { countParams, matchSegments } from './router.ts';
import type { Handler } from './types.ts';

interface Pattern {
  readonly segments: readonly string[];
  /** Read live: a verb registered later on the same path is served too. */
  readonly verbs: ReadonlyMap<HttpMethod, Handler>;
}

/** A matched endpoint and the values of its `:name` segments (decoded). */
export interface PatternMatch {
  readonly handler: Handler;
  readonly params: Readonly<Record<string, string>>;
}

/** Whether a path of a route table has `:name` segments. */
export function isPattern(path: string): boolean {
  return path.includes('/:');
}

/**
 * The endpoints of one mount whose paths hold `:name` segments (`/notes/:id`), tried in the order
 * they win: fewer parameters first, so a literal segment wins over a parameter (registries refuse
 * two patterns where that does not decide). Rebuilt when the route table gains a path.
 */
export class Patterns {
  #seen = -1;
  #list: readonly Pattern[] = [];

  constructor(private readonly routes: ReadonlyMap<string, ReadonlyMap<HttpMethod, Handler>>) {}

  /** The endpoint for `method` (or `fallback`, GET for a HEAD) on `segments` from `from` (below the prefix). */
  find(method: string, fallback: HttpMethod | undefined, segments: readonly string[], from: number): PatternMatch | undefined {
    for (const pattern of this.#current()) {
      const handler = pattern.verbs.get(method as HttpMethod) ?? (fallback === undefined ? undefined : pattern.verbs.get(fallback));
      if (handler === undefined) continue;
      const params = matchSegments(pattern.segments, segments, from);
      if (params !== undefined) return { handler, params };
    }
    return undefined;
  }

  /** Every verb some pattern answers on `segments` from `from`. */
  methods(segments: readonly string[], from: number): HttpMethod[] {
    const out: HttpMethod[] = [];
    for (const pattern of this.#current()) {
      if (matchSegments(pattern.segments, segments, from) !== undefined) out.push(...pattern.verbs.keys());
    }
    return out;
  }

  #current(): readonly Pattern[] {
    if (this.routes.size !== this.#seen) {
      this.#seen = this.routes.size;
      this.#list = [...this.routes]
        .filter(([path]) => isPattern(path))
        .map(([path, verbs]) => ({ segments: path.slice(1).split('/'), verbs }))
        .sort((a, b) => countParams(a.segments) - countParams(b.segments));
    }
    return this.#list;
  }
}
