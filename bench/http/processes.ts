// The parent's side of a benchmark server process: fork it, learn its port, ask its memory and CPU time, stop it.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildServer } from './build-child.ts';
import type { ChildMessage, ParentMessage } from './child.ts';
import type { ServerKind } from './server-kinds.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Stats {
  /** Bytes. */
  readonly rss: number;
  readonly heapUsed: number;
  /** CPU time used so far, user and system, in microseconds. */
  readonly cpuMicros: number;
}

export interface StartOptions {
  /** Another checkout of lacquer, whose server module of `kind` runs instead of this tree's. */
  readonly root?: string;
  /** Pins the process to these cores with `taskset` (`'1'`), so that it does not share a core with the load generator. */
  readonly cpus?: string;
  /** The Node binary to run it on; this process's by default. */
  readonly node?: string;
}

export class ServerProcess {
  private constructor(
    readonly kind: ServerKind,
    readonly port: number,
    /** `process.version` of the Node it runs on. */
    readonly nodeVersion: string,
    private readonly child: ChildProcess,
  ) {}

  /**
   * Starts `kind` in a child process of its own on plain node, from a bundle of that kind alone
   * (build-child.ts); `nodeArgs` go to its node (e.g. `--cpu-prof`).
   */
  static async start(
    kind: ServerKind,
    nodeArgs: readonly string[] = [],
    options: StartOptions = {},
  ): Promise<ServerProcess> {
    const { file } = await buildServer(kind, options.root);
    const node = options.node ?? process.execPath;
    // fork() runs `execPath ...execArgv file`: taskset then execs node, which keeps the IPC channel.
    const run =
      options.cpus === undefined
        ? { execPath: node, execArgv: [...nodeArgs] }
        : { execPath: 'taskset', execArgv: ['-c', options.cpus, node, ...nodeArgs] };
    const child = fork(file, [], { cwd: ROOT, ...run, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`bench server ${kind} exited (${code}) before it listened`));
      child.once('exit', onExit);
      child.once('error', reject);
      child.once('message', (message: ChildMessage) => {
        child.off('exit', onExit);
        if (message.type !== 'ready')
          return reject(new Error(`bench server ${kind}: unexpected message ${message.type}`));
        resolve(new ServerProcess(kind, message.port, message.node, child));
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
      if (!this.child.send({ type: 'stats' } satisfies ParentMessage))
        reject(new Error(`bench server ${this.kind}: IPC closed`));
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
