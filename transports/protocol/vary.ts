import { listMembers } from './header-grammar.ts';
import type { HeaderValues } from './types.ts';

/**
 * Adds each member of `tokens` (`'Origin'`, or a list `'Origin, Access-Control-Request-Method'`)
 * to `headers`' `Vary` unless it is listed already (compared case-insensitively) or `Vary: *`,
 * keeping what is there: the one rule for every part of lacquer that makes an answer depend on a
 * request header.
 */
export function addVary(headers: HeaderValues, tokens: string): void {
  const own = headers.vary;
  let list = own === undefined || typeof own === 'string' ? (own ?? '') : own.join(', ');
  const members = new Set<string>();
  for (const member of listMembers(list)) members.add(member.toLowerCase());
  if (members.has('*')) return;
  for (const token of listMembers(tokens)) {
    if (members.has(token.toLowerCase())) continue;
    members.add(token.toLowerCase());
    list = list.trim() === '' ? token : `${list}, ${token}`;
  }
  headers.vary = list;
}
