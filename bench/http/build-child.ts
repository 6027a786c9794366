// The server processes run a bundle of child.ts on plain `node`: under `--import tsx` every process
// would carry tsx's loader thread (about 35 MB of RSS), which would swamp the memory figures.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository, so that the bundle's external packages (fastify) resolve from node_modules. */
export const CHILD_BUNDLE = `${ROOT}node_modules/.cache/lacquer-bench/http-child.mjs`;

let built: Promise<string> | undefined;

/** Bundles child.ts and the servers (packages stay external); once per run. */
export function buildChild(): Promise<string> {
  built ??= build({
    entryPoints: [fileURLToPath(new URL('./child.ts', import.meta.url))],
    outfile: CHILD_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  }).then(() => CHILD_BUNDLE);
  return built;
}
