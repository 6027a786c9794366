// A Bun server process for the bench: the binary that the devDependency bun installs for this
// machine (found as the runtime specs find it), running a TypeScript script that prints `LISTENING <port>`; its CPU
// time and memory read from /proc, since Bun is no node child to ask over IPC.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findBinary } from '../../spec/support/runtime-binaries.ts';
import { procStats, type ProcStats } from '../http/proc.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The Bun binary and its version, or an Error naming the package to install. */
export function bunBinary(): { path: string; version: string } {
  const found = findBinary('bun');
  if (found instanceof Error) throw found;
  return found;
}

export interface BunProcess {
  readonly pid: number;
  readonly url: string;
  stats(): ProcStats;
  /** SIGTERM (SIGKILL after 5 s); resolves once it exited. */
  stop(): Promise<void>;
}

/** Starts `bun run <script>` (a path relative to the repository) and resolves once it listens. */
export function startBun(bun: string, script: string, timeoutMs = 30_000): Promise<BunProcess> {
  // --no-env-file: Bun would load .env files from its working directory into process.env.
  const child = spawn(bun, ['--no-env-file', 'run', script], {
    cwd: ROOT,
    env: { ...process.env, DO_NOT_TRACK: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`bun run ${script} did not start: ${why}`)));
    };
    const timer = setTimeout(() => fail(`no port reported within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (e) => fail(e.message));
    const early = (code: number | null, signal: NodeJS.Signals | null) => fail(`it exited (${signal ?? code})`);
    child.once('exit', early);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^LISTENING (\d+)$/.exec(line.trim());
      if (m === null) return console.error(`[bun ${script}] ${line}`);
      clearTimeout(timer);
      child.off('exit', early);
      const pid = child.pid!;
      resolve({ pid, url: `http://127.0.0.1:${m[1]}`, stats: () => procStats(pid), stop });
    });
  });
}
