import type { Codec } from '../../codecs/codec.ts';
import { json } from '../../codecs/json/index.ts';
import type { Method } from '../../core/contract/method.ts';
import type { Handler } from '../../core/registry/types.ts';
import type { HttpRequest } from './request.ts';
import type { HttpResponse } from './response.ts';
import { Router } from './router.ts';

/** A route handler: reads `req`, fills `res`; may be `async`. Throw `HttpError` for an error status. */
export type RouteHandler = (req: HttpRequest, res: HttpResponse) => void | Promise<void>;

/** What `mount` takes: a registry's `endpoints`, or anything with the same route table. */
export interface MountableEndpoints {
  readonly routes: ReadonlyMap<string, ReadonlyMap<Method, Handler>>;
  /** The registry's own body cap; the lower of it and the server's applies. */
  readonly maxBodyBytes?: number;
  /** The codecs problem documents about these routes may be written in. */
  readonly codecs?: readonly Codec[];
}

interface Mount {
  readonly segments: readonly string[];
  readonly endpoints: MountableEndpoints;
}

/** Where a request goes, and the codecs its problem documents may use. */
export type Resolution = { readonly codecs: readonly Codec[] } & (
  | { readonly kind: 'route'; readonly handler: RouteHandler; readonly params: Record<string, string> }
  | { readonly kind: 'endpoint'; readonly handler: Handler; readonly path: string; readonly limit: number | undefined }
  | { readonly kind: 'none' }
);

const VERB_ORDER: readonly Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const JSON_ONLY: readonly Codec[] = [json];

/**
 * The server's routes: its own, then mounted endpoints, looked up live so that services registered
 * after `mount` are served too.
 */
export class RouteTable {
  readonly #router = new Router<RouteHandler>();
  readonly #mounts: Mount[] = [];

  add(method: Method, path: string, handler: RouteHandler): void {
    this.#router.add(method, path, handler);
  }

  mount(prefix: string, endpoints: MountableEndpoints): void {
    const trimmed = prefix.replace(/\/+$/, '');
    if (trimmed !== '' && !trimmed.startsWith('/')) throw new TypeError(`mount('${prefix}'): the prefix must start with /`);
    this.#mounts.push({ segments: trimmed === '' ? [] : trimmed.slice(1).split('/'), endpoints });
    this.#mounts.sort((a, b) => b.segments.length - a.segments.length);
  }

  /** The handler for `method` on `segments`; HEAD falls back to GET. */
  resolve(method: string, segments: readonly string[]): Resolution {
    // HEAD is answered by a HEAD route, else by the GET one.
    const fallback = method === 'HEAD' ? 'GET' : undefined;
    const match = this.#router.find(method, segments) ?? (fallback === undefined ? undefined : this.#router.find(fallback, segments));
    if (match !== undefined) return { kind: 'route', codecs: JSON_ONLY, ...match };
    let codecs = JSON_ONLY;
    for (const mount of this.#mounts) {
      const path = relativePath(mount, segments);
      if (path === undefined) continue;
      codecs = mount.endpoints.codecs ?? codecs;
      const verbs = mount.endpoints.routes.get(path);
      const handler = verbs?.get(method as Method) ?? (fallback === undefined ? undefined : verbs?.get(fallback));
      if (handler !== undefined) return { kind: 'endpoint', codecs, handler, path, limit: mount.endpoints.maxBodyBytes };
    }
    return { kind: 'none', codecs };
  }

  /** Every verb answered on `segments`, HEAD included where GET is: the `Allow` header. */
  allowed(segments: readonly string[]): Method[] {
    const out = new Set<Method>(this.#router.methods(segments));
    for (const mount of this.#mounts) {
      const path = relativePath(mount, segments);
      const verbs = path === undefined ? undefined : mount.endpoints.routes.get(path);
      if (verbs !== undefined) for (const m of verbs.keys()) out.add(m);
    }
    if (out.has('GET')) out.add('HEAD');
    return VERB_ORDER.filter((m) => out.has(m));
  }
}

/** The path of `segments` under `mount`'s prefix (`/getAllUsers`), or `undefined` when outside it. */
function relativePath(mount: Mount, segments: readonly string[]): string | undefined {
  const prefix = mount.segments;
  if (segments.length <= prefix.length) return undefined;
  for (let i = 0; i < prefix.length; i++) if (segments[i] !== prefix[i]) return undefined;
  // One segment below the prefix is the common case (`/api/getUserById`): no array to slice and join.
  return segments.length === prefix.length + 1 ? '/' + segments[prefix.length] : '/' + segments.slice(prefix.length).join('/');
}
