// The benchmark servers by name, and what each one's process may load: its own stack and nothing of
// another contender's. A Fastify process that also loads lacquer's modules, ajv or the OpenTelemetry
// SDK answers 18-25% slower than one that loads Fastify alone, so each kind is bundled on its own
// (build-child.ts) and its bundle is checked against this list before it runs. No import here: the
// bench process reads this without loading any server.

/** Whose code a server process runs: lacquer's, Fastify's, or bare node:http's. */
export type Stack = 'lacquer' | 'fastify' | 'node:http';

export interface ServerKindInfo {
  readonly stack: Stack;
  /** The module of bench/http/servers/ that starts it, and its export: `(port) => Promise<RunningServer>`. */
  readonly module: string;
  readonly start: string;
  /** The modules of bench/http/servers/ its process may load (its own, and what that one builds on). */
  readonly servers: readonly string[];
  /** The npm packages its process may import (a name, or a scope ending in `/`); Node's own modules always. */
  readonly packages: readonly string[];
}

export const SERVER_KINDS = {
  lacquer: { stack: 'lacquer', module: 'lacquer.ts', start: 'startLacquer', servers: ['lacquer.ts'], packages: [] },
  /** lacquer with OpenTelemetry on: the SDK is its stack. */
  'lacquer+otel': {
    stack: 'lacquer',
    module: 'lacquer-otel.ts',
    start: 'startLacquerOtel',
    servers: ['lacquer-otel.ts', 'lacquer.ts'],
    packages: ['@opentelemetry/'],
  },
  /** lacquer with a rate limit on every endpoint (the in-memory store, lacquer's own). */
  'lacquer+ratelimit': {
    stack: 'lacquer',
    module: 'lacquer.ts',
    start: 'startLacquerLimited',
    servers: ['lacquer.ts'],
    packages: [],
  },
  'lacquer+jsonrpc': {
    stack: 'lacquer',
    module: 'lacquer.ts',
    start: 'startLacquerProtocols',
    servers: ['lacquer.ts'],
    packages: [],
  },
  fastify: {
    stack: 'fastify',
    module: 'fastify.ts',
    start: 'startFastify',
    servers: ['fastify.ts'],
    packages: ['fastify'],
  },
  /** The ceiling: node:http, JSON.parse and JSON.stringify, no validation. */
  'node:http': {
    stack: 'node:http',
    module: 'node-http.ts',
    start: 'startNodeHttp',
    servers: ['node-http.ts'],
    packages: [],
  },
} as const satisfies Record<string, ServerKindInfo>;

export type ServerKind = keyof typeof SERVER_KINDS;

export function isServerKind(name: string): name is ServerKind {
  return Object.hasOwn(SERVER_KINDS, name);
}

/** The files of bench/http/ that every server process loads: the child's side of IPC and the plain data. */
const SHARED = ['bench/http/child.ts', 'bench/http/plain.ts', 'bench/http/servers/types.ts'];

/** Node's own modules, as a bundle imports them. */
const isBuiltin = (specifier: string, builtins: ReadonlySet<string>) =>
  specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!);

/**
 * What a server process of `kind` would load that is not its own stack, from its bundle's source
 * files (`inputs`, paths from the repository's root; another checkout's start with `../`) and the
 * packages it imports (`externals`); empty when it loads its own stack alone. A Fastify or node:http
 * process may load nothing of the repository but {@link SHARED} and its own server module; a lacquer
 * process no other contender's server module; each kind no package but its own.
 */
export function stackViolations(
  kind: ServerKind,
  inputs: readonly string[],
  externals: readonly string[],
  builtins: ReadonlySet<string>,
): string[] {
  const info: ServerKindInfo = SERVER_KINDS[kind];
  const out: string[] = [];
  for (const input of inputs) {
    if (input === '<stdin>') continue;
    const server = /(?:^|\/)bench\/http\/servers\/([^/]+)$/.exec(input)?.[1];
    if (server !== undefined) {
      if (server !== 'types.ts' && !info.servers.includes(server)) out.push(`${input}: another server's module`);
    } else if (info.stack !== 'lacquer' && !SHARED.includes(input)) {
      out.push(
        `${input}: ${info.stack === 'fastify' ? 'Fastify' : 'bare node:http'} loads no module of lacquer or of the bench beyond ${SHARED.join(', ')}`,
      );
    }
  }
  for (const specifier of externals) {
    if (isBuiltin(specifier, builtins)) continue;
    const own = info.packages.some((p) =>
      p.endsWith('/') ? specifier.startsWith(p) : specifier === p || specifier.startsWith(`${p}/`),
    );
    if (!own)
      out.push(
        `package ${specifier}: not in ${kind}'s stack (${info.packages.length === 0 ? 'no package' : info.packages.join(', ')})`,
      );
  }
  return out;
}
