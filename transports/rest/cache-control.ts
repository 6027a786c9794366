import type { CachePolicy } from '../../core/contract/method.ts';

/**
 * The `Cache-Control` of a method's GET answers: from its `cache` option (`{ maxAge, visibility? }`,
 * or `'no-store'`), else `private` for a secured method (an answer for one caller is not stored by
 * a shared cache), else none. A secured method's `maxAge` is `private` unless it says `public`.
 */
export function cacheControl(policy: CachePolicy | undefined, secured: boolean): string | undefined {
  if (policy === 'no-store') return 'no-store';
  if (policy === undefined) return secured ? 'private' : undefined;
  const visibility = policy.visibility ?? (secured ? 'private' : undefined);
  return visibility === undefined ? `max-age=${policy.maxAge}` : `${visibility}, max-age=${policy.maxAge}`;
}
