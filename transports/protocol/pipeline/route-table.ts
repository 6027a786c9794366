import type { Codec } from '../../../core/codec.ts';
import { json } from '../../../codecs/json/index.ts';
import type { HttpMethod } from '../../../core/contract/method.ts';
import type { Handler } from '../types.ts';
import { Router } from './router.ts';
import { isPattern, Patterns } from './patterns.ts';

/** What `mount` takes: a registry's `endpoints`, or anything with the same route table. */
export interface MountableEndpoints {
  /** Path below the prefix (`/getUser`, or a pattern: `/notes/:id`) → verb → handler. */
  readonly routes: ReadonlyMap<string, ReadonlyMap<HttpMethod, Handler>>;
  /** The registry's own body cap; the lower of it and the server's applies. */
  readonly maxBodyBytes?: number;
  /** The codecs problem documents about these routes may be written in. */
  readonly codecs?: readonly Codec[];
}

interface Mount {
  /** The prefix without a trailing `/`: `/api`, or `''` at the root. */
  readonly prefix: string;
  readonly segments: readonly string[];
  readonly endpoints: MountableEndpoints;
  readonly patterns: Patterns;
}

/** The `:name` values of a route without parameters. */
export const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null) as Record<string, string>);

/** Where a request goes, and the codecs its problem documents may use. `R` is a transport's own route handler. */
export type Resolution<R = unknown> = { readonly codecs: readonly Codec[] } & (
  | { readonly kind: 'route'; readonly handler: R; readonly params: Record<string, string> }
  | {
      readonly kind: 'endpoint';
      readonly handler: Handler;
      readonly prefix: string;
      readonly path: string;
      /** The request is for the mount path itself (`/rpc`, not `/rpc/`): its route is `/` all the same. */
      readonly atMountPath?: true;
      /** The values of the endpoint's `:name` segments. */
      readonly params: Readonly<Record<string, string>>;
      readonly limit: number | undefined;
    }
  | { readonly kind: 'none' }
);

const VERB_ORDER: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const JSON_ONLY: readonly Codec[] = [json];

/**
 * A transport's routes: its own (handlers of type `R`) and mounted endpoints, looked up live so
 * that services registered after `mount` are served too. For one verb and path, an own route
 * without parameters comes first, then a mounted endpoint, then an own route with parameters:
 * `get('/api/:x')` does not shadow the endpoints mounted at `/api`.
 */
export class RouteTable<R = never> {
  readonly #router = new Router<R>();
  readonly #mounts: Mount[] = [];

  add(method: HttpMethod, path: string, handler: R): void {
    this.#router.add(method, path, handler);
  }

  mount(prefix: string, endpoints: MountableEndpoints): void {
    const trimmed = prefix.replace(/\/+$/, '');
    if (trimmed !== '' && !trimmed.startsWith('/'))
      throw new TypeError(`mount('${prefix}'): the prefix must start with /`);
    const segments = trimmed === '' ? [] : trimmed.slice(1).split('/');
    this.#mounts.push({ prefix: trimmed, segments, endpoints, patterns: new Patterns(endpoints.routes) });
    this.#mounts.sort((a, b) => b.segments.length - a.segments.length);
  }

  /** The handler for `method` on `segments`; HEAD falls back to GET. */
  resolve(method: string, segments: readonly string[]): Resolution<R> {
    // HEAD is answered by a HEAD route, else by the GET one.
    const fallback = method === 'HEAD' ? 'GET' : undefined;
    const match =
      this.#router.find(method, segments) ??
      (fallback === undefined ? undefined : this.#router.find(fallback, segments));
    if (match?.literal) return { kind: 'route', codecs: JSON_ONLY, handler: match.handler, params: match.params };
    let codecs: readonly Codec[] | undefined;
    // Paths without parameters first, in every mount: a literal segment wins over a parameter even
    // when two registries share a prefix.
    for (const mount of this.#mounts) {
      if (!underPrefix(mount, segments)) {
        // The mount path itself (`/rpc`) is its route `/`, as `/rpc/` is.
        if (!isMountPath(mount, segments)) continue;
        codecs ??= mount.endpoints.codecs;
        const handler = mount.endpoints.routes.get('/')?.get(method as HttpMethod);
        if (handler !== undefined) {
          return {
            kind: 'endpoint',
            codecs: mount.endpoints.codecs ?? JSON_ONLY,
            handler,
            prefix: mount.prefix,
            path: '/',
            atMountPath: true,
            params: NO_PARAMS,
            limit: mount.endpoints.maxBodyBytes,
          };
        }
        continue;
      }
      codecs ??= mount.endpoints.codecs;
      // The path's text is made only where a path of as many segments is registered.
      if (!mount.patterns.hasStatic(segments.length - mount.segments.length)) continue;
      const path = pathBelow(mount, segments);
      // A request for the text of a pattern (`/notes/:id`) is matched as any other path.
      const verbs = isPattern(path) ? undefined : mount.endpoints.routes.get(path);
      const handler = verbs?.get(method as HttpMethod) ?? (fallback === undefined ? undefined : verbs?.get(fallback));
      if (handler !== undefined) {
        return {
          kind: 'endpoint',
          codecs: mount.endpoints.codecs ?? JSON_ONLY,
          handler,
          prefix: mount.prefix,
          path,
          params: NO_PARAMS,
          limit: mount.endpoints.maxBodyBytes,
        };
      }
    }
    for (const mount of this.#mounts) {
      if (!underPrefix(mount, segments)) continue;
      const found = mount.patterns.find(method, fallback, segments, mount.segments.length);
      if (found === undefined) continue;
      const path = pathBelow(mount, segments);
      return {
        kind: 'endpoint',
        codecs: mount.endpoints.codecs ?? JSON_ONLY,
        handler: found.handler,
        prefix: mount.prefix,
        path,
        params: found.params,
        limit: mount.endpoints.maxBodyBytes,
      };
    }
    if (match !== undefined) return { kind: 'route', codecs: JSON_ONLY, handler: match.handler, params: match.params };
    return { kind: 'none', codecs: codecs ?? JSON_ONLY };
  }

  /** Every verb answered on `segments`, HEAD included where GET is: the `Allow` header. */
  allowed(segments: readonly string[]): HttpMethod[] {
    const out = new Set<HttpMethod>(this.#router.methods(segments));
    for (const mount of this.#mounts) {
      if (isMountPath(mount, segments)) {
        for (const m of mount.endpoints.routes.get('/')?.keys() ?? []) out.add(m);
        continue;
      }
      const path = relativePath(mount, segments);
      if (path === undefined) continue;
      const verbs = isPattern(path) ? undefined : mount.endpoints.routes.get(path);
      if (verbs !== undefined) for (const m of verbs.keys()) out.add(m);
      for (const m of mount.patterns.methods(segments, mount.segments.length)) out.add(m);
    }
    if (out.has('GET')) out.add('HEAD');
    return VERB_ORDER.filter((m) => out.has(m));
  }
}

/** Whether `segments` lie below `mount`'s prefix (one segment or more). */
function underPrefix(mount: Mount, segments: readonly string[]): boolean {
  const prefix = mount.segments;
  if (segments.length <= prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (segments[i] !== prefix[i]) return false;
  return true;
}

/** Whether `segments` are `mount`'s prefix itself (`/rpc` for the mount at `/rpc`), not the root. */
function isMountPath(mount: Mount, segments: readonly string[]): boolean {
  const prefix = mount.segments;
  if (segments.length !== prefix.length || prefix.length === 0) return false;
  for (let i = 0; i < prefix.length; i++) if (segments[i] !== prefix[i]) return false;
  return true;
}

/** The path of `segments` under `mount`'s prefix (`/getAllUsers`), or `undefined` when outside it. */
function relativePath(mount: Mount, segments: readonly string[]): string | undefined {
  return underPrefix(mount, segments) ? pathBelow(mount, segments) : undefined;
}

/** The path of `segments`, which lie below `mount`'s prefix, relative to it. */
function pathBelow(mount: Mount, segments: readonly string[]): string {
  const depth = mount.segments.length;
  // One segment below the prefix is the common case (`/api/getUserById`): no array to slice and join.
  return segments.length === depth + 1 ? '/' + segments[depth] : '/' + segments.slice(depth).join('/');
}
