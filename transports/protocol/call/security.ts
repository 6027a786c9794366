import type { Call, ContextKey } from '../../../core/contract/call.ts';
import { isAsciiName } from '../ascii.ts';
import { isToken } from '../header-grammar.ts';

/** 8 KiB: the longest credential read; a longer one is refused 401 without calling `verify`. */
export const DEFAULT_MAX_CREDENTIAL_LENGTH = 8 * 1024;

/** Where a scheme looks for its credential: the request's headers and query, not its body. */
export interface CredentialSource {
  /** A request header by case-insensitive name. */
  readHeader(name: string): string | null;
  /** A query parameter. */
  readQuery(name: string): string | null;
}

/** What a scheme found in a request. */
export type Credential<C> =
  | { readonly kind: 'absent' }
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'present'; readonly value: C };

/**
 * A way to authenticate callers, supplied to the registry by name:
 * `new Registry({ security: { bearer: bearerAuth({ verify, key }) } })`. `verify` gets the
 * credential and the call and returns the caller (stored under `key`) or `undefined` to refuse;
 * it may throw `HttpError(403, ...)` for a caller it knows but will not admit.
 */
export interface SecurityScheme<C = unknown, I = unknown> {
  /** The scheme as OpenAPI describes it (`{ type: 'http', scheme: 'bearer' }`). */
  readonly openApi: Readonly<Record<string, string>>;
  /** The `WWW-Authenticate` challenge of a 401; `error` adds RFC 6750's `error` parameter. */
  challenge(error?: 'invalid_token'): string;
  /** Finds the credential in the request without reading its body. */
  credential(request: CredentialSource): Credential<C>;
  verify(credential: C, call: Call): I | undefined | PromiseLike<I | undefined>;
  readonly key: ContextKey<I>;
}

/** The query keys `schemes` read their credential from (`apiKeyAuth({ query })`): not a method's arguments. */
export function queryCredentials(schemes: readonly SecurityScheme[]): string[] {
  return schemes.filter((s) => s.openApi.in === 'query' && s.openApi.name !== undefined).map((s) => s.openApi.name!);
}

/** What `verify` gets from `basicAuth`. */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

interface SchemeOptions<C, I> {
  /** Returns the caller, or `undefined` to answer 401. May throw `HttpError(403, ...)`. */
  verify: (credential: C, call: Call) => I | undefined | PromiseLike<I | undefined>;
  /** Where the caller is stored: `call.get(key)` in the method. */
  key: ContextKey<I>;
  /** The longest credential accepted. Default {@link DEFAULT_MAX_CREDENTIAL_LENGTH}. */
  maxLength?: number;
}

/** Options of {@link bearerAuth} and {@link basicAuth}. */
export interface HttpAuthOptions<C, I> extends SchemeOptions<C, I> {
  /** The `realm` of the challenge. Default `'api'`. */
  realm?: string;
}

/** Options of {@link apiKeyAuth}: the key is in a header or in the query, not both. */
export type ApiKeyOptions<I> = SchemeOptions<string, I> &
  ({ header: string; query?: never } | { query: string; header?: never });

/** `text` without the spaces around it: RFC 9110 separates a scheme and its credentials with SP only. */
function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) === 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** RFC 6750's `b64token`. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Standard base64, padded. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

const ABSENT: Credential<never> = Object.freeze({ kind: 'absent' });
const malformed = (reason: string): Credential<never> => ({ kind: 'malformed', reason });

/** A realm as a quoted-string: no quotes or backslashes to escape, no control characters. */
function checkRealm(where: string, realm: string): string {
  if (!/^[\x20-\x7e]*$/.test(realm) || /["\\]/.test(realm))
    throw new TypeError(`${where}: realm must be printable ASCII without " or \\`);
  return realm;
}

function checkCommon<C, I>(where: string, options: SchemeOptions<C, I>): number {
  if (typeof options?.verify !== 'function') throw new TypeError(`${where}: verify must be a function`);
  if (typeof options.key !== 'object' || options.key === null || typeof options.key.name !== 'string') {
    throw new TypeError(`${where}: key must be a contextKey(...)`);
  }
  const max = options.maxLength ?? DEFAULT_MAX_CREDENTIAL_LENGTH;
  if (!(Number.isInteger(max) && max >= 1))
    throw new RangeError(`${where}: maxLength must be an integer ≥ 1, got ${max}`);
  return max;
}

/**
 * The credentials of `Authorization: <scheme> <credentials>` when the header names `scheme`
 * (case-insensitively); absent when there is no such header or it names another scheme.
 */
function authorization(request: CredentialSource, scheme: string, max: number): Credential<string> {
  const header = request.readHeader('authorization');
  if (header === null) return ABSENT;
  const space = header.indexOf(' ');
  if (!isAsciiName(header, space === -1 ? header.length : space, scheme)) return ABSENT;
  const value = space === -1 ? '' : trimSpaces(header.slice(space + 1));
  if (value === '') return malformed(`the ${scheme} credentials are empty`);
  if (value.length > max) return malformed(`the ${scheme} credentials are longer than ${max} characters`);
  return { kind: 'present', value };
}

/**
 * `Authorization: Bearer <token>` (RFC 6750). A token that is empty, longer than `maxLength` or not
 * a `b64token` is refused 401 without calling `verify`.
 */
export function bearerAuth<I>(options: HttpAuthOptions<string, I>): SecurityScheme<string, I> {
  const max = checkCommon('bearerAuth()', options);
  const realm = checkRealm('bearerAuth()', options.realm ?? 'api');
  return {
    openApi: { type: 'http', scheme: 'bearer' },
    challenge: (error) => `Bearer realm="${realm}"${error === undefined ? '' : `, error="${error}"`}`,
    credential(request) {
      const found = authorization(request, 'Bearer', max);
      if (found.kind === 'present' && !B64TOKEN.test(found.value))
        return malformed('the bearer token holds characters a token cannot have');
      return found;
    },
    verify: options.verify,
    key: options.key,
  };
}

/**
 * `Authorization: Basic <base64 of user:password>` (RFC 7617, UTF-8). Base64 that does not decode,
 * text that is not UTF-8, or no `:` is refused 401 without calling `verify`. Send it over TLS only.
 */
export function basicAuth<I>(options: HttpAuthOptions<BasicCredentials, I>): SecurityScheme<BasicCredentials, I> {
  const max = checkCommon('basicAuth()', options);
  const realm = checkRealm('basicAuth()', options.realm ?? 'api');
  return {
    openApi: { type: 'http', scheme: 'basic' },
    challenge: () => `Basic realm="${realm}", charset="UTF-8"`,
    credential(request) {
      const found = authorization(request, 'Basic', max);
      if (found.kind !== 'present') return found;
      if (!BASE64.test(found.value)) return malformed('the basic credentials are not base64');
      let text: string;
      try {
        text = strictUtf8.decode(Uint8Array.from(atob(found.value), (c) => c.charCodeAt(0)));
      } catch {
        return malformed('the basic credentials are not UTF-8');
      }
      const colon = text.indexOf(':');
      if (colon === -1) return malformed('the basic credentials have no colon between user and password');
      return { kind: 'present', value: { username: text.slice(0, colon), password: text.slice(colon + 1) } };
    },
    verify: options.verify,
    key: options.key,
  };
}

/** An API key in a header (`{ header: 'x-api-key' }`) or the query (`{ query: 'api_key' }`). */
export function apiKeyAuth<I>(options: ApiKeyOptions<I>): SecurityScheme<string, I> {
  const max = checkCommon('apiKeyAuth()', options);
  const { header, query } = options as { header?: unknown; query?: unknown };
  if ((header === undefined) === (query === undefined))
    throw new TypeError('apiKeyAuth(): give either header or query, not both');
  const name = (header ?? query) as unknown;
  if (typeof name !== 'string' || name === '')
    throw new TypeError('apiKeyAuth(): the header or query name must be a non-empty string');
  const where = header !== undefined ? 'header' : 'query';
  if (where === 'header' && !isToken(name)) throw new TypeError(`apiKeyAuth(): '${name}' is not a header name`);
  return {
    openApi: { type: 'apiKey', in: where, name },
    challenge: () => `ApiKey in="${where}", name="${name.replace(/["\\]/g, '')}"`,
    credential(request) {
      const value = where === 'header' ? request.readHeader(name) : request.readQuery(name);
      if (value === null) return ABSENT;
      if (value === '') return malformed(`the API key in ${name} is empty`);
      if (value.length > max) return malformed(`the API key in ${name} is longer than ${max} characters`);
      return { kind: 'present', value };
    },
    verify: options.verify,
    key: options.key,
  };
}
