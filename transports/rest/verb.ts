import type { EndpointVerb, MethodContract } from '../../core/contract/method.ts';

/** True when `name` starts with the word `prefix`: `getUser`, `get_user`, `get`; not `getaway`. */
export function startsWithWord(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix)) return false;
  const next = name.charAt(prefix.length);
  return next === '' || !/\p{Ll}/u.test(next);
}

/**
 * The verb of a method, first rule that matches: `delete*` DELETE, `update*` PUT, `create*` POST,
 * `get*`/`find*`/`list*` without parameters GET, anything else POST (an unknown name may have side
 * effects, and GET must be safe). `method(..., { verb })` overrides the rules.
 */
export function verbFor(name: string, contract: MethodContract): EndpointVerb {
  if (contract.verb !== undefined) return contract.verb;
  if (startsWithWord(name, 'delete')) return 'DELETE';
  if (startsWithWord(name, 'update')) return 'PUT';
  if (startsWithWord(name, 'create')) return 'POST';
  const reader = startsWithWord(name, 'get') || startsWithWord(name, 'find') || startsWithWord(name, 'list');
  if (reader && contract.params.length === 0) return 'GET';
  return 'POST';
}
