// The server processes run a bundle of child.ts on plain `node`: under `--import tsx` every process
// would carry tsx's loader thread (about 35 MB of RSS), which would swamp the memory figures.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Inside the repository, so that the bundle's external packages (fastify) resolve from node_modules. */
const CACHE = `${ROOT}node_modules/.cache/lacquer-bench/`;

const built = new Map<string, Promise<string>>();

/**
 * Bundles child.ts and the servers (packages stay external), once per run: this tree's, or those of
 * another checkout (`root`) for an A/B run, each to a bundle of its own.
 */
export function buildChild(root: string = ROOT): Promise<string> {
  const dir = resolve(root);
  const outfile = dir === resolve(ROOT) ? `${CACHE}http-child.mjs` : `${CACHE}http-child-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}.mjs`;
  let bundle = built.get(outfile);
  if (bundle === undefined) {
    bundle = build({
      entryPoints: [resolve(dir, 'bench/http/child.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    }).then(() => outfile);
    built.set(outfile, bundle);
  }
  return bundle;
}
