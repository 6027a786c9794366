import type { EndpointVerb, MethodContract } from '../../core/contract/method.ts';
import { fitsQuery } from './arguments.ts';

/** True when `name` starts with the word `prefix`: `getUser`, `get_user`, `get`; not `getaway`. */
export function startsWithWord(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const next = name.charAt(prefix.length);
  return next === '' || !/\p{Ll}/u.test(next);
}

/**
 * The verb of a method, first rule that matches: `delete*` DELETE, `update*` PUT, `create*` POST,
 * `get*`/`find*`/`list*` GET when it has no parameters, or named ones that all fit a query string,
 * anything else POST (an unknown name may have side effects, and GET must be safe).
 * `method(..., { verb })` and `route` override the rules.
 */
export function verbFor(name: string, contract: MethodContract): EndpointVerb {
  if (contract.verb !== undefined) return contract.verb;
  if (startsWithWord(name, 'delete')) return 'DELETE';
  if (startsWithWord(name, 'update')) return 'PUT';
  if (startsWithWord(name, 'create')) return 'POST';
  const reader = startsWithWord(name, 'get') || startsWithWord(name, 'find') || startsWithWord(name, 'list');
  const parameterless = contract.paramTypes.length === 0 && contract.bodyStream === undefined;
  if (reader && (parameterless || fitsQuery(contract))) return 'GET';
  return 'POST';
}

/** The path of a method below the mount prefix: its route's, or `/{name}`. */
export function pathFor(name: string, contract: MethodContract): string {
  return contract.route?.path ?? `/${name}`;
}
