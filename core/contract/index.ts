export { method } from './method.ts';
export type {
  EndpointVerb,
  InferParams,
  InferReturn,
  HttpMethod,
  Method,
  MethodContract,
  MethodOptions,
  NamedArguments,
  NamedParams,
  Params,
  Returns,
} from './method.ts';
export type { CachePolicy, MethodRateLimit, RateLimitCount, RateLimitStore } from './method.ts';
export type { RouteSpec } from './route.ts';
export { service } from './service.ts';
export type { Contract, Implementation, Methods, ServiceOptions } from './service.ts';
export { ContextKey, contextKey } from './call.ts';
export type { Call } from './call.ts';
export { contractOf, meta } from './meta.ts';
export type { ServiceClass } from './meta.ts';
export { SseItem, sse } from './sse.ts';
export type { SseOptions } from './sse.ts';
