// MCP as a protocol a registry serves (Streamable HTTP, stateless): each method a tool, called by
// JSON-RPC messages on one route.
import { argumentObjectOf } from '../protocol/call/message-arguments.ts';
import type { McpOptions } from '../protocol/options.ts';
import type { ServedProtocol } from '../protocol/serving.ts';
import { ProcedureRoutes } from '../jsonrpc/serving.ts';
import { mcpHandler, type McpSettings } from './handler.ts';
import { toolOf } from './tools.ts';

/** Each method a tool: `MCP`. */
export const MCP_PROTOCOL: ServedProtocol = {
  name: 'MCP',
  open: (registry) => {
    const mcp = mcpSettings(registry.mcp);
    const { codecs, opts } = registry.settings;
    return new ProcedureRoutes(registry, {
      leftOut: (contract) =>
        argumentObjectOf(contract) === undefined
          ? 'an MCP tool takes its arguments as one object: give the method named parameters, or one object parameter'
          : undefined,
      route: (procedures, message) => mcpHandler(procedures, { ...message, mcp }),
      compile: (procedure, plan) => {
        for (const codec of codecs) codec.prepare?.(procedure.returns, opts);
        try {
          toolOf(procedure, opts);
        } catch (e) {
          throw new TypeError(
            `Registry.on(): ${plan.service}.${plan.name} cannot be an MCP tool: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
      },
    });
  },
};

/** An MCP registry's options with their defaults, checked. */
function mcpSettings(options: McpOptions): McpSettings['mcp'] {
  const { name = 'lacquer', version = '1.0.0', instructions, origins = [] } = options;
  if (typeof name !== 'string' || typeof version !== 'string')
    throw new TypeError('Registry: mcp.name and mcp.version must be strings');
  if (instructions !== undefined && typeof instructions !== 'string')
    throw new TypeError('Registry: mcp.instructions must be a string');
  if (!Array.isArray(origins) || origins.some((o) => typeof o !== 'string'))
    throw new TypeError("Registry: mcp.origins must be an array of origins ('https://app.example')");
  return { name, version, instructions, origins: new Set(origins) };
}
