export { method } from './method.ts';
export type { EndpointVerb, InferParams, InferReturn, HttpMethod, Method, MethodContract, MethodOptions } from './method.ts';
export { service } from './service.ts';
export type { Contract, Implementation, Methods } from './service.ts';
export { contractOf, meta } from './meta.ts';
export type { ServiceClass } from './meta.ts';
