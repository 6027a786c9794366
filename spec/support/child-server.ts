// A test server in a child process, for specs that attack a server's memory or connections: its
// heap is read back without this process's in it, and a crash fails the spec instead of the run.
// The script prints `PORT n` once listening and takes its options as JSON in argv[2].
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';

export interface ChildServer {
  readonly port: number;
  /** How the child exited (with the start of its stderr), or `running`. */
  state(): string;
}

/** The child servers and raw connections of one spec file, ended after each spec. */
export class ChildServers {
  readonly #children: ChildProcess[] = [];
  readonly #sockets: Socket[] = [];

  /** Starts `script` with `options`, under `nodeOptions` (`--max-old-space-size=64`, say). */
  async start(script: string, options: unknown, nodeOptions: readonly string[] = []): Promise<ChildServer> {
    const args = [...nodeOptions, '--expose-gc', '--import', 'tsx', script, JSON.stringify(options)];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.#children.push(proc);
    let out = '';
    let err = '';
    proc.stdout.setEncoding('utf8');
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (d: string) => (err = (err + d).slice(-4000)));
    let exited: string | undefined;
    proc.once(
      'exit',
      (code, signal) =>
        (exited = `the server exited (${code ?? signal}): ${err.split('\n').filter(Boolean).slice(0, 3).join(' | ')}`),
    );
    const port = await new Promise<number>((resolve, reject) => {
      proc.stdout.on('data', (d: string) => {
        const m = /PORT (\d+)/.exec((out += d));
        if (m !== null) resolve(Number(m[1]));
      });
      proc.once('exit', () => reject(new Error(`${exited} before listening: ${out}`)));
    });
    return { port, state: () => exited ?? 'running' };
  }

  /** A raw connection to `port` that writes `bytes` and never reads. */
  unread(port: number, bytes: string | Uint8Array): Socket {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(bytes);
    });
    socket.on('error', () => {});
    this.#sockets.push(socket);
    return socket;
  }

  /** Ends every connection and child process started since the last call (for `afterEach`). */
  end(): void {
    for (const s of this.#sockets.splice(0)) s.destroy();
    for (const c of this.#children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  }
}
