import type { HttpMethod } from '../../../core/contract/method.ts';
import type { Handler } from '../types.ts';

interface Pattern {
  /** Per segment: the text it must be, or `undefined` for a parameter (any non-empty text). */
  readonly literals: readonly (string | undefined)[];
  /** The parameters: their segment's index and their name. */
  readonly params: readonly (readonly [number, string])[];
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
  /** The segment counts of the paths without parameters: where an exact lookup can find something. */
  #staticDepths: ReadonlySet<number> = new Set();

  constructor(private readonly routes: ReadonlyMap<string, ReadonlyMap<HttpMethod, Handler>>) {}

  /** The endpoint for `method` (or `fallback`, GET for a HEAD) on `segments` from `from` (below the prefix). */
  find(
    method: string,
    fallback: HttpMethod | undefined,
    segments: readonly string[],
    from: number,
  ): PatternMatch | undefined {
    for (const pattern of this.#current()) {
      const handler =
        pattern.verbs.get(method as HttpMethod) ?? (fallback === undefined ? undefined : pattern.verbs.get(fallback));
      if (handler === undefined) continue;
      const params = matchPattern(pattern, segments, from);
      if (params !== undefined) return { handler, params };
    }
    return undefined;
  }

  /** Every verb some pattern answers on `segments` from `from`. */
  methods(segments: readonly string[], from: number): HttpMethod[] {
    const out: HttpMethod[] = [];
    for (const pattern of this.#current()) {
      if (matchPattern(pattern, segments, from) !== undefined) out.push(...pattern.verbs.keys());
    }
    return out;
  }

  /** Whether some path without parameters has `depth` segments (a lookup by its text can find it). */
  hasStatic(depth: number): boolean {
    this.#current();
    return this.#staticDepths.has(depth);
  }

  #current(): readonly Pattern[] {
    if (this.routes.size !== this.#seen) {
      this.#seen = this.routes.size;
      this.#staticDepths = new Set(
        [...this.routes.keys()].filter((path) => !isPattern(path)).map((path) => path.split('/').length - 1),
      );
      this.#list = [...this.routes]
        // A registry's parameters are identifiers, never `__proto__`: params are plain objects.
        .filter(([path]) => isPattern(path) && !path.includes('/:__proto__'))
        .map(([path, verbs]) => compile(path, verbs))
        .sort((a, b) => a.params.length - b.params.length);
    }
    return this.#list;
  }
}

function compile(path: string, verbs: ReadonlyMap<HttpMethod, Handler>): Pattern {
  const segments = path.slice(1).split('/');
  const params: (readonly [number, string])[] = [];
  const literals = segments.map((segment, i) => {
    if (!segment.startsWith(':')) return segment;
    params.push([i, segment.slice(1)]);
    return undefined;
  });
  return { literals, params, verbs };
}

/** The `:name` values of `segments` (from `from` on) when they match `pattern`, else `undefined`. */
function matchPattern(pattern: Pattern, segments: readonly string[], from: number): Record<string, string> | undefined {
  const { literals } = pattern;
  if (literals.length !== segments.length - from) return undefined;
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i];
    const segment = segments[from + i]!;
    if (literal === undefined ? segment === '' : literal !== segment) return undefined;
  }
  const params: Record<string, string> = {};
  for (const [i, name] of pattern.params) params[name] = segments[from + i]!;
  return params;
}
