import type { Procedure } from '../procedures/procedure.ts';
import type { MessageSettings } from '../jsonrpc/exchange.ts';
import type { EndpointRequest, EndpointResponse, Handler } from '../types.ts';
import { problem, problemResponse } from '../problem.ts';

/** What the MCP route of one registry needs. */
export interface McpSettings extends MessageSettings {
  readonly mcp: {
    readonly name: string;
    readonly version: string;
    readonly instructions: string | undefined;
    /** The `Origin`s browsers may call from. */
    readonly origins: ReadonlySet<string>;
  };
}

/** The one route of an MCP registry, `POST {prefix}` (Streamable HTTP, stateless). */
export function mcpHandler(procedures: ReadonlyMap<string, Procedure>, settings: McpSettings): Handler {
  void procedures;
  return (request: EndpointRequest): EndpointResponse => problemResponse(problem(501, 'MCP is not served yet'), request.headers.get('accept'), settings.codecs);
}
