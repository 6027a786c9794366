import { problem, type ProblemDocument } from '../protocol/problem.ts';
import type { HeaderReader } from '../protocol/types.ts';

/**
 * The MCP protocol versions served, newest first: those the `@modelcontextprotocol/sdk` client
 * offers. A stateless tools-only server answers them all the same way.
 */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

/** The version a request without `MCP-Protocol-Version` is taken to speak, as the specification says. */
export const MCP_DEFAULT_VERSION = '2025-03-26';

const SUPPORTED: ReadonlySet<string> = new Set(MCP_PROTOCOL_VERSIONS);

/** The version `initialize` answers for the one a client asks: that one when served, else the newest. */
export function negotiateVersion(requested: string): string {
  return SUPPORTED.has(requested) ? requested : MCP_PROTOCOL_VERSIONS[0]!;
}

/** A 400 problem for an `MCP-Protocol-Version` header naming a version not served; `undefined` when absent or served. */
export function versionRefusal(headers: HeaderReader): ProblemDocument | undefined {
  const version = headers.get('mcp-protocol-version');
  if (version === null || SUPPORTED.has(version.trim())) return undefined;
  return problem(
    400,
    `MCP-Protocol-Version ${JSON.stringify(version.slice(0, 64))} is not supported; supported: ${MCP_PROTOCOL_VERSIONS.join(', ')}`,
  );
}
