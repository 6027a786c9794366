import { Type, type Infer, type InferInput } from '../descriptors/type.ts';
import { StreamType } from '../descriptors/stream.ts';
import type { VoidType } from '../descriptors/void.ts';
import type { OptionalType } from '../descriptors/optional.ts';
import type { UnknownType } from '../descriptors/unknown.ts';
import { parseRoute, type RouteSpec } from './route.ts';
import type { SseItem } from './sse.ts';
import type { Call } from './call.ts';

import type { EndpointVerb } from './verbs.ts';
export type { EndpointVerb, HttpMethod, Method } from './verbs.ts';

/** Options of {@link method}. */
export interface MethodOptions {
  /** Overrides the verb the naming rules would pick. `GET` is only for methods without parameters. */
  verb?: EndpointVerb;
  /**
   * The status of a successful answer, a 2xx: `201` for a method that creates. Default 200, or 204
   * for `t.void()`. 204 and 205 carry no body, so they are for `t.void()` methods only.
   */
  status?: number;
  /**
   * The security schemes that admit a caller, by the names the registry gives them: `['bearer']`.
   * `[]` makes the method public inside a secured service. Default: the service's.
   */
  security?: readonly string[];
  /**
   * Where the method is served instead of `POST {prefix}/{name}`: `'GET /notes/:id'`, a verb and a
   * path below the mount prefix whose `:name` segments bind named parameters. Replaces `verb`.
   */
  route?: string;
  /**
   * What the method does, for people and agents: an OpenAPI operation's `description`, an MCP
   * tool's `description`.
   */
  description?: string;
  /**
   * Whether the method may safely be sent twice: `true` for a POST or PATCH whose repetition does
   * no harm (the client retries it), `false` for a PUT or DELETE that must not be repeated.
   * Default: the verb's (GET, HEAD, PUT and DELETE are idempotent).
   */
  idempotent?: boolean;
  /**
   * Milliseconds the method has to answer, in place of the transport's `handlerTimeoutMs`; then a
   * 503 problem and `call.signal` aborts, as for the transport's. `0`: no limit. Default: the
   * transport's.
   */
  timeoutMs?: number;
  /**
   * The method's own rate limit, counted apart from the registry's (`new Registry({ rateLimit })`),
   * or `false` for none. Default: the registry's.
   */
  rateLimit?: MethodRateLimit | false;
  /**
   * The `Cache-Control` of the method's GET answers: `{ maxAge, visibility? }` (seconds; `'public'`
   * or `'private'`), or `'no-store'` (and no `ETag`). Default: none, `private` for a secured method.
   */
  cache?: CachePolicy;
  /**
   * The registries that serve the method, by their protocol tags (`REST`, `JSONRPC`, `MCP`, as
   * `new Registry(opts, protocol)` takes them): `['REST']` for a stream or a route that only REST
   * serves. A registry of another protocol leaves the method out without a word. Default: every
   * protocol that can serve it.
   */
  protocols?: readonly ProtocolTag[];
}

/** A registry's protocol, as `method(..., { protocols })` names it. */
export type ProtocolTag = 'REST' | 'JSONRPC' | 'MCP';

const PROTOCOL_TAGS: readonly ProtocolTag[] = ['REST', 'JSONRPC', 'MCP'];

/** A rate limit: at most `limit` calls per key in each window of `windowMs` (see the registry's `rateLimit`). */
export interface MethodRateLimit {
  readonly limit: number;
  readonly windowMs: number;
  /** The key calls are counted under; default `call.ip`. */
  readonly key?: (call: Call) => string | undefined;
  /** Where the counts are kept; default: in memory, bounded in keys. */
  readonly store?: RateLimitStore;
}

/** Counts calls per key in fixed windows; async allowed, so that several processes may share one. */
export interface RateLimitStore {
  /**
   * Counts one call under `key`: the calls counted in the key's current window (this one
   * included) and the milliseconds until that window ends, when a new one starts at 0.
   */
  hit(key: string, windowMs: number): RateLimitCount | PromiseLike<RateLimitCount>;
}

/** What {@link RateLimitStore.hit} answers. */
export interface RateLimitCount {
  readonly count: number;
  readonly resetMs: number;
}

/** How the GET answers of a method may be cached: its `Cache-Control`. */
export type CachePolicy = { readonly maxAge: number; readonly visibility?: 'public' | 'private' } | 'no-store';

/** One parameter: a value's descriptor, or, as a method's only parameter, a stream of them (`t.stream(T)`). */
export type Param = Type | StreamType;

/** Named parameters: `{ id: t.u64(), patch: NotePatch }`; the implementation receives them as one object by name. */
export type NamedParams = { readonly [name: string]: Param };

/** The parameters of a method: an array of descriptors, or an object of named ones. */
export type Params = readonly Param[] | NamedParams;

/** What a method answers: a value's descriptor, or a stream of them (`t.stream(T)`). */
export type Returns = Type | StreamType;

/** One exposed method: its parameter descriptors, its return descriptor and its options. */
export interface MethodContract<P extends Params = Params, R extends Returns = Returns> {
  /** The parameters as declared: an array, or an object of named ones. */
  readonly params: P;
  /**
   * The parameters' descriptors in declared order: the arguments the implementation receives.
   * Empty for a method whose one parameter is a stream (`bodyStream`).
   */
  readonly paramTypes: readonly Type[];
  /** The stream a method reads as its one parameter (`method([t.stream(T)], R)`): the request's body, item by item. */
  readonly bodyStream: StreamType | undefined;
  /** The parameters' names in declared order; `undefined` for an array of parameters. */
  readonly paramNames: readonly string[] | undefined;
  readonly returns: R;
  /** The verb given by `verb` or `route`; `undefined` for the naming rules'. */
  readonly verb: EndpointVerb | undefined;
  /** Where the method is served; `undefined` for `{prefix}/{name}`. */
  readonly route: RouteSpec | undefined;
  /** The declared success status; `undefined` for the default (200, or 204 for `t.void()`). */
  readonly status: number | undefined;
  /** The method's own security requirement; `undefined` to take the service's. */
  readonly security: readonly string[] | undefined;
  /** What the method does (`method(..., { description })`); `undefined` when not said. */
  readonly description: string | undefined;
  /** Whether the method may safely be sent twice (`method(..., { idempotent })`); `undefined` for the verb's rule. */
  readonly idempotent: boolean | undefined;
  /** The method's own time limit (`method(..., { timeoutMs })`); `undefined` for the transport's. */
  readonly timeoutMs: number | undefined;
  /** The method's own rate limit, `false` for none; `undefined` for the registry's. */
  readonly rateLimit: MethodRateLimit | false | undefined;
  /** How its GET answers may be cached; `undefined` for the default. */
  readonly cache: CachePolicy | undefined;
  /** The protocols whose registries serve it (`method(..., { protocols })`); `undefined` for every one. */
  readonly protocols: readonly ProtocolTag[] | undefined;
}

const VERBS: readonly EndpointVerb[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Describes a method: `method([t.u64()], User)`, `method([], t.void(), { verb: 'POST' })`, or with
 * named parameters and a route: `method({ id: t.u64() }, Note, { route: 'GET /notes/:id' })`.
 * A GET endpoint carries no body, so it takes parameters only by name (from its path and query).
 */
// @__NO_SIDE_EFFECTS__
export function method<const P extends Params, R extends Returns>(
  params: P,
  returns: R,
  options: MethodOptions = {},
): MethodContract<P, R> {
  const [paramTypes, paramNames, bodyStream] = parameterList(params);
  if (!(returns instanceof Type) && !(returns instanceof StreamType))
    throw new TypeError('method(): the return must be a descriptor (t.*) or a stream of one (t.stream(T))');
  if (options.route !== undefined && options.verb !== undefined) {
    throw new TypeError("method(): give the verb in the route ('GET /notes/:id'), not both route and verb");
  }
  const route = options.route === undefined ? undefined : parseRoute(options.route);
  const verb = route?.verb ?? options.verb;
  if (verb !== undefined && !VERBS.includes(verb)) {
    throw new TypeError(`method(): verb must be one of ${VERBS.join(', ')}, got ${String(verb)}`);
  }
  if (bodyStream !== undefined && returns instanceof StreamType) {
    throw new TypeError('method(): a method reading a stream answers one value, not a stream');
  }
  if (bodyStream !== undefined && (verb === 'GET' || verb === 'DELETE')) {
    throw new TypeError(`method(): a stream parameter is the request's body, which a ${verb} endpoint does not read`);
  }
  if (verb === 'GET' && paramNames === undefined && paramTypes.length > 0) {
    throw new TypeError(
      'method(): a GET endpoint has no body, so its parameters must be named, to come from the path and query: method({ id: t.u64() }, ...)',
    );
  }
  for (const name of route?.names ?? []) {
    if (paramNames?.includes(name) !== true) {
      throw new TypeError(
        `method(): the route ${options.route} binds ':${name}', which is not a named parameter of the method`,
      );
    }
  }
  const status = options.status;
  if (status !== undefined) {
    if (!isSuccessStatus(status))
      throw new TypeError(`method(): status must be a 2xx status code, got ${String(status)}`);
    if (isBodiless(status) && returns.kind !== 'void')
      throw new TypeError(`method(): a ${status} answer has no body, so the method must return t.void()`);
  }
  const security = options.security === undefined ? undefined : schemeNames('method()', options.security);
  const description = options.description;
  if (description !== undefined && typeof description !== 'string')
    throw new TypeError('method(): description must be a string');
  const idempotent = options.idempotent;
  if (idempotent !== undefined && typeof idempotent !== 'boolean')
    throw new TypeError('method(): idempotent must be a boolean');
  const { timeoutMs, rateLimit, cache } = options;
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && timeoutMs >= 0))
    throw new TypeError(`method(): timeoutMs must be a number ≥ 0, got ${String(timeoutMs)}`);
  if (rateLimit !== undefined && rateLimit !== false) checkRateLimit('method()', rateLimit);
  if (cache !== undefined) checkCache(cache);
  const protocols = options.protocols === undefined ? undefined : protocolTags(options.protocols);
  return Object.freeze({
    params,
    paramTypes,
    paramNames,
    bodyStream,
    returns,
    verb,
    route,
    status,
    security,
    description,
    idempotent,
    timeoutMs,
    rateLimit,
    cache,
    protocols,
  });
}

/**
 * The descriptors of `params` in declared order, their names when they have them, and the stream
 * a method reads when that is its one parameter.
 */
function parameterList(params: Params): [readonly Type[], readonly string[] | undefined, StreamType | undefined] {
  let names: string[] | undefined;
  let list: readonly unknown[];
  if (Array.isArray(params)) list = params;
  else if (typeof params === 'object' && params !== null) {
    names = Object.keys(params);
    for (const name of names) {
      // The names travel as query keys, JSON-RPC members and JSON Pointer segments.
      if (name === '' || name === '__proto__' || !name.isWellFormed())
        throw new TypeError(`method(): ${JSON.stringify(name)} cannot name a parameter`);
    }
    list = names.map((n) => (params as NamedParams)[n]);
  } else throw new TypeError('method(): parameters are an array of descriptors, or an object of named ones');
  list.forEach((p, i) => {
    if (p instanceof Type || p instanceof StreamType) return;
    throw new TypeError(
      `method(): ${names === undefined ? `parameter ${i}` : `the parameter '${names[i]}'`} must be a descriptor (t.*) or a stream of one (t.stream(T))`,
    );
  });
  const frozenNames = names === undefined ? undefined : Object.freeze(names);
  if (list.some((p) => p instanceof StreamType)) {
    if (list.length > 1)
      throw new TypeError("method(): a stream parameter is the request's whole body, so it must be the only parameter");
    return [Object.freeze([]), frozenNames, list[0] as StreamType];
  }
  return [Object.freeze([...list] as Type[]), frozenNames, undefined];
}

/** Throws a `TypeError` unless `limit` is a rate limit: `{ limit, windowMs, key?, store? }`. */
export function checkRateLimit(where: string, limit: MethodRateLimit): void {
  if (typeof limit !== 'object' || limit === null)
    throw new TypeError(`${where}: rateLimit must be { limit, windowMs, key?, store? }`);
  if (!(Number.isInteger(limit.limit) && limit.limit >= 1))
    throw new TypeError(`${where}: rateLimit.limit must be an integer ≥ 1, got ${String(limit.limit)}`);
  if (!(Number.isInteger(limit.windowMs) && limit.windowMs >= 1))
    throw new TypeError(`${where}: rateLimit.windowMs must be an integer ≥ 1, got ${String(limit.windowMs)}`);
  if (limit.key !== undefined && typeof limit.key !== 'function')
    throw new TypeError(`${where}: rateLimit.key must be a function (call) => string`);
  if (limit.store !== undefined && typeof limit.store?.hit !== 'function')
    throw new TypeError(`${where}: rateLimit.store must have hit(key, windowMs)`);
}

function protocolTags(protocols: readonly ProtocolTag[]): readonly ProtocolTag[] {
  if (!Array.isArray(protocols) || protocols.length === 0 || protocols.some((p) => !PROTOCOL_TAGS.includes(p))) {
    throw new TypeError(
      `method(): protocols must be a non-empty array of ${PROTOCOL_TAGS.map((p) => `'${p}'`).join(', ')}, got ${JSON.stringify(protocols)}`,
    );
  }
  return Object.freeze([...protocols]);
}

function checkCache(cache: CachePolicy): void {
  if (cache === 'no-store') return;
  const ok =
    typeof cache === 'object' &&
    cache !== null &&
    Number.isInteger(cache.maxAge) &&
    cache.maxAge >= 0 &&
    (cache.visibility === undefined || cache.visibility === 'public' || cache.visibility === 'private');
  if (!ok)
    throw new TypeError(
      "method(): cache must be 'no-store' or { maxAge: seconds (an integer ≥ 0), visibility?: 'public' | 'private' }",
    );
}

/** Whether `code` is a success status: an integer from 200 to 299. */
export function isSuccessStatus(code: unknown): code is number {
  return Number.isInteger(code) && (code as number) >= 200 && (code as number) <= 299;
}

/** 204 and 205 answers carry no body. */
export function isBodiless(status: number): boolean {
  return status === 204 || status === 205;
}

/** Checks a list of security scheme names and freezes a copy. */
export function schemeNames(where: string, names: unknown): readonly string[] {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n === '')) {
    throw new TypeError(`${where}: security must be an array of scheme names, such as ['bearer']`);
  }
  return Object.freeze([...new Set(names as string[])]);
}

/**
 * The arguments a method receives before its `Call`: `[bigint, string]` for `[t.u64(), t.string()]`.
 * Named parameters arrive as one object of them by name, the shape the typed client takes:
 * `[{ id: bigint; patch: NotePatch }]` for `{ id: t.u64(), patch: NotePatch }`, so that TypeScript
 * checks each name and type. An optional parameter (`t.optional`) is an optional key; one with
 * `.default()` is always present (the implementation gets the value read). No named parameters
 * (`{}`): no argument.
 */
export type InferParams<P extends Params> = P extends readonly Param[]
  ? { -readonly [K in keyof P]: P[K] extends Param ? Infer<P[K]> : never }
  : [keyof P] extends [never]
    ? []
    : [args: NamedArguments<P>];

/**
 * Named parameters as the one object an implementation receives: each by its name, the optional
 * ones (`t.optional`, `t.unknown`) as optional keys.
 */
export type NamedArguments<P extends Params> = Simplify<
  { -readonly [K in Exclude<keyof P, OptionalNames<P>>]: P[K] extends Param ? Infer<P[K]> : never } & {
    -readonly [K in OptionalNames<P>]?: P[K] extends Param ? Infer<P[K]> : never;
  }
>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The names whose key reading may leave out of the arguments: `t.optional` and `t.unknown` parameters. */
type OptionalNames<P> = { [K in keyof P]: P[K] extends OptionalType | UnknownType ? K : never }[keyof P];

/** The items a stream method gives: each a value, or a value with its SSE id (`sse()`). */
type StreamSource<R extends StreamType> =
  R extends StreamType<infer T>
    ? AsyncIterable<InferInput<T> | SseItem<InferInput<T>>> | Iterable<InferInput<T> | SseItem<InferInput<T>>>
    : never;

/** What an implementation may return: the value or a promise of it; `void` for `t.void()`; for a stream, its items (`AsyncIterable` or `Iterable`). */
export type InferReturn<R extends Returns> = [R] extends [VoidType]
  ? void | PromiseLike<void>
  : // A stream's items, as its writer takes them: an async generator, a ReadableStream, an array.
    R extends StreamType
    ? StreamSource<R> | PromiseLike<StreamSource<R>>
    : Infer<R> | PromiseLike<Infer<R>>;
