export { method } from './method.ts';
export type { EndpointVerb, InferParams, InferReturn, HttpMethod, Method, MethodContract, MethodOptions, NamedParams, Params, Returns } from './method.ts';
export type { RouteSpec } from './route.ts';
export { service } from './service.ts';
export type { Contract, Implementation, Methods, ServiceOptions } from './service.ts';
export { ContextKey, contextKey } from './call.ts';
export type { Call } from './call.ts';
export { contractOf, meta } from './meta.ts';
export type { ServiceClass } from './meta.ts';
