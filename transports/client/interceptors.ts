import type { ClientInterceptor, FetchFunction } from './types.ts';

/** `createClient`'s `interceptors` option, checked: an array of functions. */
export function checkInterceptors(interceptors: unknown): readonly ClientInterceptor[] {
  if (interceptors === undefined) return [];
  if (!Array.isArray(interceptors) || interceptors.some((i) => typeof i !== 'function')) {
    throw new TypeError('createClient(): options.interceptors must be an array of functions');
  }
  return interceptors as ClientInterceptor[];
}

/**
 * `fetch` wrapped in `interceptors`, the first outermost: each gets the request and `next`, the
 * rest of the chain. Without interceptors, `fetch` itself.
 */
export function intercepted(interceptors: readonly ClientInterceptor[], fetch: FetchFunction): FetchFunction {
  return interceptors.reduceRight<FetchFunction>((next, interceptor) => (request) => interceptor(request, next), fetch);
}
