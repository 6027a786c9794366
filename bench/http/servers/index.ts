// Every benchmark server in one module, started in the calling process: for the spec, which checks
// their answers side by side. The bench runs each in a process of its own that loads that server
// alone (../server-kinds.ts, ../build-child.ts): never this module.
import type { ServerKind } from '../server-kinds.ts';
import { startFastify } from './fastify.ts';
import { startLacquer, startLacquerLimited, startLacquerProtocols } from './lacquer.ts';
import { startLacquerOtel } from './lacquer-otel.ts';
import { startNodeHttp } from './node-http.ts';
import type { RunningServer } from './types.ts';

export type { RunningServer } from './types.ts';
export { isServerKind, type ServerKind } from '../server-kinds.ts';

export const SERVERS = {
  lacquer: (port?: number) => startLacquer(port),
  'lacquer+otel': startLacquerOtel,
  'lacquer+ratelimit': startLacquerLimited,
  'lacquer+jsonrpc': startLacquerProtocols,
  fastify: startFastify,
  'node:http': startNodeHttp,
} as const satisfies Record<ServerKind, (port?: number) => Promise<RunningServer>>;
