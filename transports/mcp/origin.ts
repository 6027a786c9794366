import { problem, type ProblemDocument } from '../protocol/problem.ts';
import type { HeaderReader } from '../protocol/types.ts';

/**
 * A 403 problem for a request whose `Origin` is not one of `origins` (against DNS rebinding: a page
 * of another site reaching a server on the user's machine); `undefined` when allowed or when the
 * request has no `Origin` (it does not come from a browser page).
 */
export function originRefusal(headers: HeaderReader, origins: ReadonlySet<string>): ProblemDocument | undefined {
  const origin = headers.get('origin');
  if (origin === null || origins.has(origin)) return undefined;
  return problem(403, `requests from the origin ${JSON.stringify(origin.slice(0, 200))} are not allowed (mcp.origins)`);
}
