// A bench process on plain `node` from a TypeScript entry: bundled by esbuild (packages external, as
// build-child.ts does, so no tsx loader thread inflates its memory), forked with IPC, ready once it
// sends `{ type: 'ready', ... }`, stopped by `{ type: 'stop' }`.
import { build } from 'esbuild';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const bundles = new Map<string, Promise<string>>();

/** Bundles `entry` once per run into node_modules/.cache/lacquer-bench/<name>.mjs. */
export function bundle(entry: URL, name: string): Promise<string> {
  let built = bundles.get(name);
  if (built === undefined) {
    const outfile = `${ROOT}node_modules/.cache/lacquer-bench/${name}.mjs`;
    built = build({
      entryPoints: [fileURLToPath(entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'error',
    }).then(() => outfile);
    bundles.set(name, built);
  }
  return built;
}

export interface Forked<Ready> {
  readonly child: ChildProcess;
  /** The child's `ready` message. */
  readonly ready: Ready;
  /** Sends `stop` and resolves once the process exited (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/** Forks `file` with `args` and waits for its `{ type: 'ready' }` message. */
export function forkReady<Ready extends { type: 'ready' }>(
  file: string,
  args: readonly string[],
  label: string,
  timeoutMs = 30_000,
): Promise<Forked<Ready>> {
  const child = fork(file, [...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 40_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ type: 'stop' });
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label}: not ready within ${timeoutMs} ms`));
    }, timeoutMs);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (${signal ?? code}) before it was ready`));
    };
    child.once('exit', onExit);
    child.once('error', reject);
    const onMessage = (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== 'ready') return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve({ child, ready: message as Ready, stop });
    };
    child.on('message', onMessage);
  });
}
