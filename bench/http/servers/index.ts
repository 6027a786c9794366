// The three benchmark servers by name, as the child process and the spec start them.
import { startFastify } from './fastify.ts';
import { startLacquer, startLacquerLimited, startLacquerProtocols } from './lacquer.ts';
import { startLacquerOtel } from './lacquer-otel.ts';
import { startNodeHttp } from './node-http.ts';
import type { RunningServer } from './types.ts';

export type { RunningServer } from './types.ts';

export const SERVERS = {
  lacquer: (port?: number) => startLacquer(port),
  'lacquer+otel': startLacquerOtel,
  'lacquer+ratelimit': startLacquerLimited,
  'lacquer+jsonrpc': startLacquerProtocols,
  fastify: startFastify,
  'node:http': startNodeHttp,
} as const satisfies Record<string, (port?: number) => Promise<RunningServer>>;

export type ServerKind = keyof typeof SERVERS;

export function isServerKind(name: string): name is ServerKind {
  return Object.hasOwn(SERVERS, name);
}
