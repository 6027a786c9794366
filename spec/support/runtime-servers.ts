// Starts Bun, Deno and workerd as child processes serving a fetch handler, for
// spec/runtimes/runtimes.spec.ts (their binaries: ./runtime-binaries.ts). Each server listens on
// 127.0.0.1 on a port the system chose and says which once it is ready: no polling, no port race.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { build } from 'esbuild';

/** A runtime serving on 127.0.0.1: the port of each socket it opened, what it printed, and a way to stop it. */
export interface RuntimeServer {
  /** `http://127.0.0.1:<port>` of each named socket (`main` for Bun and Deno). */
  readonly urls: Readonly<Record<string, string>>;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
  stop(): Promise<void>;
}

interface StartOptions {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where readiness is reported: stdout, or the control pipe on fd 3 (workerd). */
  readonly readyOn: 'stdout' | 'fd3';
  /** The socket names to wait for (workerd); Bun and Deno have one, `main`. */
  readonly sockets: readonly string[];
  readonly timeoutMs?: number;
}

/** Starts a server process and resolves once every socket of `sockets` reported its port. */
function startServer(o: StartOptions): Promise<RuntimeServer> {
  const child: ChildProcess = spawn(o.command, [...o.args], {
    cwd: o.cwd,
    env: o.env ?? process.env,
    stdio: o.readyOn === 'fd3' ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Should the spec's process end without `after` running, the server goes with it.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.removeListener('exit', onExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const urls: Record<string, string> = {};
  return new Promise<RuntimeServer>((resolve, reject) => {
    const timeoutMs = o.timeoutMs ?? 30_000;
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().then(() =>
        reject(new Error(`${o.label} did not start: ${why}\n${o.command} ${o.args.join(' ')}\n${output}`)),
      );
    };
    const timer = setTimeout(() => fail(`no port reported within ${timeoutMs} ms`), timeoutMs);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => fail(`it exited (${signal ?? code})`));
    const lines = o.readyOn === 'fd3' ? (child.stdio[3] as Readable) : child.stdout!;
    createInterface({ input: lines }).on('line', (line) => {
      if (o.readyOn === 'stdout') {
        const m = /^LISTENING (\d+)$/.exec(line.trim());
        if (m !== null) urls.main = `http://127.0.0.1:${m[1]}`;
      } else {
        // workerd: {"event":"listen","socket":"<name>","port":<port>}
        try {
          const event = JSON.parse(line) as { event?: string; socket?: string; port?: number };
          if (event.event === 'listen' && event.socket !== undefined)
            urls[event.socket] = `http://127.0.0.1:${event.port}`;
        } catch {
          // Not an event of ours.
        }
      }
      if (!settled && o.sockets.every((s) => urls[s] !== undefined)) {
        settled = true;
        clearTimeout(timer);
        resolve({ urls, output: () => output, stop });
      }
    });
  });
}

/** Bun running `script` (TypeScript, run as it is), which prints `LISTENING <port>`. */
export function startBun(bun: string, script: string, cwd: string): Promise<RuntimeServer> {
  // --no-env-file: Bun would load .env files from its working directory into process.env.
  return startServer({
    label: 'Bun',
    command: bun,
    args: ['--no-env-file', 'run', script],
    cwd,
    env: { ...process.env, DO_NOT_TRACK: '1', NO_COLOR: '1' },
    readyOn: 'stdout',
    sockets: ['main'],
  });
}

/**
 * Deno running `script` (TypeScript, run as it is) with network access to 127.0.0.1 and nothing
 * else; `denoDir` keeps its compile cache out of the user's.
 */
export function startDeno(deno: string, script: string, cwd: string, denoDir: string): Promise<RuntimeServer> {
  return startServer({
    label: 'Deno',
    command: deno,
    args: ['run', '--allow-net=127.0.0.1', '--no-prompt', '--no-config', '--no-lock', script],
    cwd,
    env: { ...process.env, DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: '1', DENO_NO_PROMPT: '1', NO_COLOR: '1' },
    readyOn: 'stdout',
    sockets: ['main'],
  });
}

/**
 * workerd serving `config` (a capnp file): every socket of `sockets` on 127.0.0.1, a port the system
 * chose (`--socket-addr`), reported on the control pipe (`--control-fd 3`).
 */
export function startWorkerd(
  workerd: string,
  config: string,
  sockets: readonly string[],
  cwd: string,
): Promise<RuntimeServer> {
  return startServer({
    label: 'workerd',
    command: workerd,
    args: ['serve', config, ...sockets.flatMap((s) => ['--socket-addr', `${s}=127.0.0.1:0`]), '--control-fd', '3'],
    cwd,
    readyOn: 'fd3',
    sockets,
  });
}

/** A Worker for {@link workerdConfig}: its bundled module, compatibility date and text bindings. */
export interface WorkerSpec {
  /** The service's and its socket's name. */
  readonly name: string;
  /** The bundled ES module, a file name relative to the config. */
  readonly module: string;
  readonly compatibilityDate: string;
  readonly bindings?: Readonly<Record<string, string>>;
}

/** A workerd config serving each worker on its own HTTP socket named like it. */
export function workerdConfig(workers: readonly WorkerSpec[]): string {
  const str = (s: string) => JSON.stringify(s);
  const lines = [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    `  services = [ ${workers.map((w) => `(name = ${str(w.name)}, worker = .${w.name}Worker)`).join(', ')} ],`,
    `  sockets = [ ${workers.map((w) => `(name = ${str(w.name)}, address = "127.0.0.1:0", http = (), service = ${str(w.name)})`).join(', ')} ],`,
    ');',
  ];
  for (const w of workers) {
    const bindings = Object.entries(w.bindings ?? {}).map(
      ([name, text]) => `(name = ${str(name)}, text = ${str(text)})`,
    );
    lines.push(
      `const ${w.name}Worker :Workerd.Worker = (`,
      `  modules = [ (name = "worker.js", esModule = embed ${str(w.module)}) ],`,
      `  compatibilityDate = ${str(w.compatibilityDate)},`,
      `  bindings = [ ${bindings.join(', ')} ],`,
      ');',
    );
  }
  return lines.join('\n') + '\n';
}

/** Bundles a Worker's entry (TypeScript, importing the sources) into one ES module, as wrangler does. */
export async function bundleWorker(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    keepNames: true,
    logLevel: 'silent',
  });
}

/** `main` and `compatibility_date` of a wrangler.toml (top-level `key = "value"` lines). */
export function readWranglerToml(path: string): { main: string; compatibilityDate: string; name: string } {
  const values: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*\[/.test(line)) break; // a table starts: the top-level keys are behind us
    const m = /^\s*([\w-]+)\s*=\s*"([^"]*)"\s*(#.*)?$/.exec(line);
    if (m !== null) values[m[1]!] = m[2]!;
  }
  for (const key of ['name', 'main', 'compatibility_date']) {
    if (values[key] === undefined) throw new Error(`${path} has no top-level ${key} = "..."`);
  }
  return { name: values.name!, main: values.main!, compatibilityDate: values.compatibility_date! };
}
