import type { Infer, Type } from '../types/type.ts';
import type { VoidType } from '../types/void.ts';

/** An HTTP method, as its verb text: `'GET'`. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The specification's name for {@link HttpMethod}, the key type of `registry.endpoints.routes`. */
export type Method = HttpMethod;

/** The verbs an endpoint may be given with `method(..., { verb })`. */
export type EndpointVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Options of {@link method}. */
export interface MethodOptions {
  /** Overrides the verb the naming rules would pick. `GET` is only for methods without parameters. */
  verb?: EndpointVerb;
}

/** One exposed method: its parameter descriptors, its return descriptor and an optional verb. */
export interface MethodContract<P extends readonly Type[] = readonly Type[], R extends Type = Type> {
  readonly params: P;
  readonly returns: R;
  readonly verb: EndpointVerb | undefined;
}

const VERBS: readonly EndpointVerb[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Describes a method: `method([t.u64()], User)`, `method([], t.void(), { verb: 'POST' })`.
 * A GET endpoint carries no body, so `verb: 'GET'` with parameters is refused here.
 */
// @__NO_SIDE_EFFECTS__
export function method<const P extends readonly Type[], R extends Type>(
  params: P,
  returns: R,
  options: MethodOptions = {},
): MethodContract<P, R> {
  const verb = options.verb;
  if (verb !== undefined && !VERBS.includes(verb)) {
    throw new TypeError(`method(): verb must be one of ${VERBS.join(', ')}, got ${String(verb)}`);
  }
  if (verb === 'GET' && params.length > 0) {
    throw new TypeError('method(): a GET endpoint has no body, so it cannot take parameters');
  }
  return Object.freeze({ params, returns, verb });
}

/** The arguments a method receives: `[bigint, string]` for `[t.u64(), t.string()]`. */
export type InferParams<P extends readonly Type[]> = { -readonly [K in keyof P]: P[K] extends Type ? Infer<P[K]> : never };

/** What an implementation may return: the value or a promise of it; `void` for `t.void()`. */
export type InferReturn<R extends Type> = [R] extends [VoidType] ? void | PromiseLike<void> : Infer<R> | PromiseLike<Infer<R>>;
