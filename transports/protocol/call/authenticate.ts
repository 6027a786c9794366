import { HttpError } from '../../../core/errors/http-error.ts';
import { calls, type EndpointCall } from './call.ts';
import type { SecurityScheme } from './security.ts';
import { isThenable } from '../thenable.ts';

/** The 401s `authenticate` makes itself, as opposed to those `verify` throws: not reported to `onError`. */
const refusals = new WeakSet<object>();

/** A 401 with its challenges, one per scheme, in one `WWW-Authenticate` (RFC 9110 allows a list). */
function unauthenticated(detail: string, challenges: readonly string[]): HttpError {
  const error = new HttpError(401, detail, { headers: { 'www-authenticate': challenges.join(', ') } });
  refusals.add(error);
  return error;
}

/** Whether `error` is a refusal made by {@link authenticate} (no or bad credentials). */
export function isRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && refusals.has(error);
}

/**
 * Admits `call` under `schemes` (at once, or when the promise it returns resolves) or throws: the first scheme whose credential is present decides
 * (a 403 or a refusal never falls through to the next). No credential, a malformed one, or one
 * `verify` refuses: a 401 with the schemes' challenges. `verify`'s own errors propagate: an `HttpError` is
 * answered with its status, anything else is a 500. The caller `verify` returns is stored under
 * the scheme's key. The request body is not touched.
 */
export function authenticate(call: EndpointCall, schemes: readonly SecurityScheme[]): void | Promise<void> {
  const source = calls.credentials(call);
  for (const scheme of schemes) {
    const found = scheme.credential(source);
    if (found.kind === 'absent') continue;
    if (found.kind === 'malformed') throw unauthenticated(found.reason, [scheme.challenge('invalid_token')]);
    const caller = scheme.verify(found.value, call);
    // A `verify` that answers at once is not awaited: a promise per call is a visible share of its cost.
    if (isThenable(caller)) return Promise.resolve(caller).then((settled) => admit(call, scheme, settled));
    return admit(call, scheme, caller);
  }
  throw unauthenticated(
    'this call needs credentials',
    schemes.map((s) => s.challenge()),
  );
}

/** Stores the caller `verify` returned, or refuses the call. */
function admit(call: EndpointCall, scheme: SecurityScheme, caller: unknown): void {
  if (caller === undefined || caller === null)
    throw unauthenticated('the credentials were refused', [scheme.challenge('invalid_token')]);
  call.set(scheme.key, caller);
}
