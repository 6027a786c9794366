import type { HeaderValues } from '../types.ts';
import { addVary } from '../vary.ts';

/** Cross-origin access for browsers. */
export interface CorsOptions {
  /** Origins allowed, exactly as browsers send them (`https://app.example`), or `'*'` for any. */
  origins: readonly string[] | '*';
  /** Sends `Access-Control-Allow-Credentials: true` (then `'*'` echoes the origin). Default `false`. */
  credentials?: boolean;
  /** Request headers a preflight may ask for. Default: whatever it asks for. */
  allowHeaders?: readonly string[];
  /**
   * Response headers scripts may read, beyond the CORS-safelisted ones and lacquer's own
   * ({@link DEFAULT_EXPOSED_HEADERS}, always exposed). Default none.
   */
  exposeHeaders?: readonly string[];
  /** How long a browser may cache a preflight answer. Default 600. */
  maxAgeSeconds?: number;
}

/**
 * The headers lacquer writes that a page on another origin needs, exposed to every allowed origin:
 * the request id, a 201's `Location`, a 429's or 503's `Retry-After`, a 401's `WWW-Authenticate`,
 * a 415's `Accept-Post`, a 405's `Allow`, a GET answer's `ETag`, a rate limit's `RateLimit-Policy`
 * and `RateLimit`.
 */
export const DEFAULT_EXPOSED_HEADERS: readonly string[] = Object.freeze([
  'x-request-id',
  'location',
  'retry-after',
  'www-authenticate',
  'accept-post',
  'allow',
  'etag',
  'ratelimit-policy',
  'ratelimit',
]);

/** `Access-Control-Expose-Headers` of each `cors` options object: worked out once, not per request. */
const exposedOf = new WeakMap<CorsOptions, string>();

/** lacquer's exposed headers, then the user's, each once (names compared lower-case). */
function exposed(cors: CorsOptions): string {
  let value = exposedOf.get(cors);
  if (value === undefined) {
    const names = new Set(DEFAULT_EXPOSED_HEADERS);
    for (const name of cors.exposeHeaders ?? []) names.add(name.toLowerCase());
    value = [...names].join(', ');
    exposedOf.set(cors, value);
  }
  return value;
}

/** Whether `origin` may read answers under `cors`. */
export function originAllowed(cors: CorsOptions, origin: string): boolean {
  return cors.origins === '*' || cors.origins.includes(origin);
}

/** Headers for an answer to an allowed cross-origin request. */
export function corsHeaders(cors: CorsOptions, origin: string): Record<string, string> {
  const wildcard = cors.origins === '*' && cors.credentials !== true;
  const headers: Record<string, string> = { 'access-control-allow-origin': wildcard ? '*' : origin };
  if (!wildcard) headers.vary = 'Origin';
  if (cors.credentials === true) headers['access-control-allow-credentials'] = 'true';
  headers['access-control-expose-headers'] = exposed(cors);
  return headers;
}

/** Headers for a preflight answer from an allowed origin. */
export function preflightHeaders(
  cors: CorsOptions,
  origin: string,
  methods: readonly string[],
  requested: string | null,
): Record<string, string> {
  const headers = corsHeaders(cors, origin);
  headers['access-control-allow-methods'] = methods.join(', ');
  const allowHeaders = cors.allowHeaders?.join(', ') ?? requested;
  if (allowHeaders !== null && allowHeaders !== '') headers['access-control-allow-headers'] = allowHeaders;
  headers['access-control-max-age'] = String(cors.maxAgeSeconds ?? 600);
  // The answer depends on what the preflight asked, not only on the origin.
  headers.vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
  return headers;
}

/** Adds `extra` (the CORS headers) to an answer's `headers`; `vary` lists are merged, not replaced. */
export function mergeHeaders(headers: HeaderValues, extra: Record<string, string>): HeaderValues {
  const out = { ...headers };
  for (const [k, v] of Object.entries(extra)) {
    if (k === 'vary') addVary(out, v);
    else out[k] = v;
  }
  return out;
}
