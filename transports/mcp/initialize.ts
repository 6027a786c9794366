import { negotiateVersion } from './protocol-version.ts';

/** What the server says of itself in its answer to `initialize`. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  readonly instructions: string | undefined;
}

/**
 * The result of `initialize` for a client asking `requested`: the version negotiated, the tools
 * capability (the list never changes while the server runs: no `notifications/tools/list_changed`),
 * `serverInfo` and the `instructions` when given.
 */
export function initializeResult(requested: string, server: ServerInfo): object {
  const result: Record<string, unknown> = {
    protocolVersion: negotiateVersion(requested),
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name: server.name, version: server.version },
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return result;
}
