// The verbs of HTTP as contracts name them, apart from the contracts: a call, a method and a route
// all speak of them, and none of them imports another for it.

/** An HTTP method, as its verb text: `'GET'`. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** The specification's name for {@link HttpMethod}, the key type of `registry.endpoints.routes`. */
export type Method = HttpMethod;

/** The verbs an endpoint may be given with `method(..., { verb })`. */
export type EndpointVerb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
