// Each server kind runs as an esbuild bundle of its own on plain `node`: its start function, its
// stack and child.ts, nothing of the other contenders (server-kinds.ts says what each may load, and
// every bundle is checked against it before it runs). Plain `node`, not `--import tsx`: under tsx
// every process would carry tsx's loader thread (about 35 MB of RSS), which would swamp the memory
// figures, and a bundle runs on any Node binary (`--node=`).
import { build, type Metafile } from 'esbuild';
import { createHash } from 'node:crypto';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_KINDS, stackViolations, type ServerKind } from './server-kinds.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository, so that the bundle's external packages (fastify) resolve from node_modules. */
const CACHE = `${ROOT}node_modules/.cache/lacquer-bench/`;
const BUILTINS: ReadonlySet<string> = new Set(builtinModules);

export interface ServerBundle {
  readonly kind: ServerKind;
  readonly file: string;
  /** The source files in the bundle, from this repository's root (another checkout's start with `../`). */
  readonly inputs: readonly string[];
  /** The packages and Node modules it imports. */
  readonly externals: readonly string[];
}

const built = new Map<string, Promise<ServerBundle>>();

/** The source files and the imported packages of a bundle, from its metafile. */
export function bundleContents(metafile: Metafile): { inputs: string[]; externals: string[] } {
  const externals = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const i of output.imports) if (i.external) externals.add(i.path);
  }
  return { inputs: Object.keys(metafile.inputs).sort(), externals: [...externals].sort() };
}

/**
 * Bundles the server `kind` (packages stay external), once per run: this tree's, or another
 * checkout's (`root`, for an A/B run: its bench/http/servers/ module with this tree's child.ts).
 * Throws when the bundle would load another contender's code or packages.
 */
export function buildServer(kind: ServerKind, root: string = ROOT): Promise<ServerBundle> {
  const dir = resolve(root);
  // node_modules may be shared between checkouts (a symlink): the name says whose bundle it is.
  const name = `http-${kind.replace(/[^a-z0-9]+/g, '-')}-${createHash('sha256').update(`${ROOT}\0${dir}`).digest('hex').slice(0, 12)}`;
  let bundle = built.get(name);
  if (bundle === undefined) {
    const info = SERVER_KINDS[kind];
    const outfile = `${CACHE}${name}.mjs`;
    const entry = [
      `import { serveChild } from ${JSON.stringify(resolve(ROOT, 'bench/http/child.ts'))};`,
      `import { ${info.start} as start } from ${JSON.stringify(resolve(dir, 'bench/http/servers', info.module))};`,
      'await serveChild((port) => start(port));',
    ].join('\n');
    bundle = build({
      stdin: { contents: entry, loader: 'ts', resolveDir: dir, sourcefile: '<stdin>' },
      absWorkingDir: ROOT,
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      metafile: true,
      logLevel: 'error',
    }).then(({ metafile }) => {
      const { inputs, externals } = bundleContents(metafile);
      const wrong = stackViolations(kind, inputs, externals, BUILTINS);
      if (wrong.length > 0)
        throw new Error(`the ${kind} server's bundle loads what is not its own stack:\n  ${wrong.join('\n  ')}`);
      return { kind, file: outfile, inputs, externals };
    });
    built.set(name, bundle);
  }
  return bundle;
}
