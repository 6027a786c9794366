import type { Infer, Type } from '../descriptors/type.ts';
import type { VoidType } from '../descriptors/void.ts';

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
}

/** One exposed method: its parameter descriptors, its return descriptor and its options. */
export interface MethodContract<P extends readonly Type[] = readonly Type[], R extends Type = Type> {
  readonly params: P;
  readonly returns: R;
  readonly verb: EndpointVerb | undefined;
  /** The declared success status; `undefined` for the default (200, or 204 for `t.void()`). */
  readonly status: number | undefined;
  /** The method's own security requirement; `undefined` to take the service's. */
  readonly security: readonly string[] | undefined;
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
  const status = options.status;
  if (status !== undefined) {
    if (!isSuccessStatus(status)) throw new TypeError(`method(): status must be a 2xx status code, got ${String(status)}`);
    if (isBodiless(status) && returns.kind !== 'void') throw new TypeError(`method(): a ${status} answer has no body, so the method must return t.void()`);
  }
  const security = options.security === undefined ? undefined : schemeNames('method()', options.security);
  return Object.freeze({ params, returns, verb, status, security });
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

/** The arguments a method receives: `[bigint, string]` for `[t.u64(), t.string()]`. */
export type InferParams<P extends readonly Type[]> = { -readonly [K in keyof P]: P[K] extends Type ? Infer<P[K]> : never };

/** What an implementation may return: the value or a promise of it; `void` for `t.void()`. */
export type InferReturn<R extends Type> = [R] extends [VoidType] ? void | PromiseLike<void> : Infer<R> | PromiseLike<Infer<R>>;
