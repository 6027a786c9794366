// The parent's side of a benchmark server process: fork it, learn its port, ask its memory and CPU time, stop it.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildChild } from './build-child.ts';
import type { ChildMessage, ParentMessage } from './child.ts';
import type { ServerKind } from './servers/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Stats {
  /** Bytes. */
  readonly rss: number;
  readonly heapUsed: number;
  /** CPU time used so far, user and system, in microseconds. */
  readonly cpuMicros: number;
}

export class ServerProcess {
  private constructor(
    readonly kind: ServerKind,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  /**
   * Starts `kind` in a child process on plain node; `nodeArgs` go to its node (e.g. `--cpu-prof`).
   * `bundle` is another build of child.ts (another checkout's, say); `cpus` pins the process to
   * those cores with `taskset` (`'1'`), so that it does not share a core with the load generator.
   */
  static async start(kind: ServerKind, nodeArgs: readonly string[] = [], options: { bundle?: string; cpus?: string } = {}): Promise<ServerProcess> {
    const bundle = options.bundle ?? await buildChild();
    // fork() runs `execPath ...execArgv bundle kind`: taskset then execs node, which keeps the IPC channel.
    const pinned = options.cpus === undefined ? {} : { execPath: 'taskset', execArgv: ['-c', options.cpus, process.execPath, ...nodeArgs] };
    const child = fork(bundle, [kind], { cwd: ROOT, execArgv: [...nodeArgs], ...pinned, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`bench server ${kind} exited (${code}) before it listened`));
      child.once('exit', onExit);
      child.once('error', reject);
      child.once('message', (message: ChildMessage) => {
        child.off('exit', onExit);
        if (message.type !== 'ready') return reject(new Error(`bench server ${kind}: unexpected message ${message.type}`));
        resolve(new ServerProcess(kind, message.port, child));
      });
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The process's memory and CPU time, as `process.memoryUsage()` and `process.cpuUsage()` in the child tell them. */
  stats(): Promise<Stats> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (message.type !== 'stats') return;
        this.child.off('message', onMessage);
        resolve({ rss: message.rss, heapUsed: message.heapUsed, cpuMicros: message.cpuMicros });
      };
      this.child.on('message', onMessage);
      if (!this.child.send({ type: 'stats' } satisfies ParentMessage)) reject(new Error(`bench server ${this.kind}: IPC closed`));
    });
  }

  /** Asks the server to close and waits for the process to exit. */
  stop(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.send({ type: 'stop' } satisfies ParentMessage);
    });
  }
}
