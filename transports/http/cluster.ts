// Every core on Node: one app served by N `node:cluster` workers sharing one port, a crashed worker
// restarted with a capped backoff for as long as the primary runs (giving up on a crash loop is an
// option: a default one would let whoever can crash workers end the service), each crash reported,
// every worker drained on SIGINT/SIGTERM.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { HttpServer } from './server.ts';

/** 100 ms before the first restart of a worker that exited unexpectedly; doubled for each further one in the crash window. */
export const DEFAULT_RESTART_DELAY_MS = 100;
/** 5 s: the longest a restart waits, however many workers crashed. */
export const DEFAULT_MAX_RESTART_DELAY_MS = 5_000;
/**
 * `Infinity`: the primary never gives up, however often workers crash; the restarts slow down to one
 * per `maxRestartDelayMs` per worker instead. A finite number of unexpected exits within the crash
 * window makes it give up.
 */
export const DEFAULT_MAX_CRASHES = Infinity;
/** 60 s: the sliding window in which unexpected exits are counted (for the backoff, and `maxCrashes`). */
export const DEFAULT_CRASH_WINDOW_MS = 60_000;
/**
 * 30 s from the shutdown signal for every worker to drain and exit; the ones still running are then
 * killed (SIGKILL). Keep it above the servers' `drainTimeoutMs` (10 s by default).
 */
export const DEFAULT_STOP_TIMEOUT_MS = 30_000;

/** A worker of the cluster, as the primary's callbacks see it. */
export interface ClusterWorker {
  /** `cluster.Worker.id`: 1, 2, … in order of forking; a restarted worker gets a new id. */
  readonly id: number;
  readonly pid: number;
}

/** A worker whose server listens. */
export interface ClusterWorkerReady extends ClusterWorker {
  /** The port it listens on: the one port all workers share (the primary's choice for `bind(0)`). */
  readonly port: number;
  /** The server's `url`. */
  readonly url: string;
}

/** A worker that exited. */
export interface ClusterWorkerExit extends ClusterWorker {
  /** The exit code, or `null` when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** It exited without the primary asking it to (a crash, `process.exit`, a failed start). */
  readonly unexpected: boolean;
  /** When `unexpected`: the unexpected exits within `crashWindowMs`, this one included. */
  readonly crashes?: number;
  /** Why, when the worker told (its `server()`, `start()` or `afterStop` failed) or the primary killed it. */
  readonly error?: string;
  /** When a replacement is forked, after this delay; absent when none is (shutdown, or giving up). */
  readonly restartInMs?: number;
}

/** Options of {@link serveCluster}. `server` and `afterStop` run in each worker; the rest is the primary's. */
export interface ClusterOptions {
  /**
   * Runs in each worker (never in the primary): returns the app's server, bound (`bind(port, host)`)
   * and not started. Do not call `withSignals()` on it: the primary coordinates the shutdown (with
   * it, a signal sent to one worker would stop that worker's server and leave the process idle).
   */
  server: () => HttpServer | Promise<HttpServer>;
  /** Runs in a worker once its server has stopped, before the worker exits: close pools, flush logs. */
  afterStop?: (server: HttpServer) => void | Promise<void>;
  /** How many workers. Default `os.availableParallelism()`. */
  workers?: number;
  /** Delay before the first restart; see {@link DEFAULT_RESTART_DELAY_MS}. */
  restartDelayMs?: number;
  /** Cap on the restart delay; see {@link DEFAULT_MAX_RESTART_DELAY_MS}. */
  maxRestartDelayMs?: number;
  /** Unexpected exits within `crashWindowMs` that make the primary give up; see {@link DEFAULT_MAX_CRASHES} (`Infinity`: never). */
  maxCrashes?: number;
  /** See {@link DEFAULT_CRASH_WINDOW_MS}. */
  crashWindowMs?: number;
  /** See {@link DEFAULT_STOP_TIMEOUT_MS}; `Infinity` waits for ever. */
  stopTimeoutMs?: number;
  /** Signals that drain the cluster (a second one kills the workers at once). Default SIGINT and SIGTERM. */
  signals?: readonly NodeJS.Signals[];
  /** Aborting it drains the cluster, as the first signal does. */
  signal?: AbortSignal;
  /** In the primary: a worker's server listens (a benchmark learns the workers' pids here). */
  onWorkerReady?: (worker: ClusterWorkerReady) => void;
  /**
   * In the primary: a worker exited, each crash included (`unexpected`, with `crashes` and
   * `restartInMs`). Default: a line on stderr for each unexpected exit and each unclean stop.
   */
  onWorkerExit?: (worker: ClusterWorkerExit) => void;
}

/** Why {@link serveCluster} rejected in the primary. */
export class ClusterError extends Error {
  override readonly name = 'ClusterError';
  /**
   * `crash-loop`: `maxCrashes` workers exited unexpectedly within `crashWindowMs`, so the primary
   * stopped restarting them. `unclean-stop`: on shutdown, a worker did not drain and exit with code
   * 0 (it failed, or was killed at `stopTimeoutMs` or by a second signal).
   */
  readonly reason: 'crash-loop' | 'unclean-stop';
  /** The exits that tell why, latest last. */
  readonly exits: readonly ClusterWorkerExit[];

  constructor(reason: 'crash-loop' | 'unclean-stop', message: string, exits: readonly ClusterWorkerExit[]) {
    super(message);
    this.reason = reason;
    this.exits = exits;
  }
}

/**
 * Serves one app on several processes sharing a port, with `node:cluster` (its scheduling policy
 * unchanged: round-robin by the primary, except on Windows). Call it from the program's entry;
 * the same program runs in the primary and in every worker.
 *
 * In the primary: forks `workers` workers and supervises them. A worker that exits unexpectedly is
 * reported (`onWorkerExit`) and replaced after `restartDelayMs`, doubled for each further unexpected
 * exit within `crashWindowMs` (at most `maxRestartDelayMs`), for as long as the primary runs. With a
 * finite `maxCrashes` (by default there is none), at `maxCrashes` such exits within the window the
 * primary gives up: it drains the workers left and rejects with a {@link ClusterError} (`crash-loop`). On the
 * first of `signals` (or `signal` aborting) every worker drains (`HttpServer.stop()`) and exits;
 * the promise resolves once all have exited with code 0, and rejects (`unclean-stop`) when one did
 * not. A second signal kills the workers at once; `stopTimeoutMs` after the first, the ones left
 * are killed.
 *
 * In a worker: calls `server()`, starts it, and ignores `signals` (a Ctrl-C reaches every process of
 * the terminal's group; the primary tells each worker to drain). Told to stop, it stops the server,
 * runs `afterStop`, and exits with code 0; so in a worker the promise never settles, and code after
 * `await serveCluster(...)` runs in the primary only. A worker whose `server()` or `start()` fails
 * reports the error and exits with code 1.
 */
export function serveCluster(options: ClusterOptions): Promise<void> {
  const o = resolveOptions(options);
  return cluster.isPrimary ? supervise(o) : work(o);
}

interface Resolved {
  readonly server: () => HttpServer | Promise<HttpServer>;
  readonly afterStop: ((server: HttpServer) => void | Promise<void>) | undefined;
  readonly workers: number;
  readonly restartDelayMs: number;
  readonly maxRestartDelayMs: number;
  readonly maxCrashes: number;
  readonly crashWindowMs: number;
  readonly stopTimeoutMs: number;
  readonly signals: readonly NodeJS.Signals[];
  readonly signal: AbortSignal | undefined;
  readonly onWorkerReady: ((worker: ClusterWorkerReady) => void) | undefined;
  readonly onWorkerExit: (worker: ClusterWorkerExit) => void;
}

function resolveOptions(o: ClusterOptions): Resolved {
  if (typeof o?.server !== 'function')
    throw new TypeError('serveCluster(): `server` must be a function returning an HttpServer');
  const count = (name: string, value: number, min: number, infinite: boolean) => {
    if (!(Number.isInteger(value) && value >= min) && !(infinite && value === Infinity)) {
      throw new RangeError(
        `serveCluster(): ${name} must be an integer of at least ${min}${infinite ? ' or Infinity' : ''}, not ${value}`,
      );
    }
    return value;
  };
  const ms = (name: string, value: number, min: number, infinite: boolean) => {
    if (!(Number.isFinite(value) && value >= min) && !(infinite && value === Infinity)) {
      throw new RangeError(
        `serveCluster(): ${name} must be a number of milliseconds of at least ${min}${infinite ? ' or Infinity' : ''}, not ${value}`,
      );
    }
    return value;
  };
  const crashWindowMs = ms('crashWindowMs', o.crashWindowMs ?? DEFAULT_CRASH_WINDOW_MS, 1, false);
  return {
    server: o.server,
    afterStop: o.afterStop,
    workers: count('workers', o.workers ?? availableParallelism(), 1, false),
    restartDelayMs: ms('restartDelayMs', o.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS, 0, false),
    maxRestartDelayMs: ms('maxRestartDelayMs', o.maxRestartDelayMs ?? DEFAULT_MAX_RESTART_DELAY_MS, 0, false),
    maxCrashes: count('maxCrashes', o.maxCrashes ?? DEFAULT_MAX_CRASHES, 1, true),
    crashWindowMs,
    stopTimeoutMs: ms('stopTimeoutMs', o.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS, 1, true),
    signals: o.signals ?? ['SIGINT', 'SIGTERM'],
    signal: o.signal,
    onWorkerReady: o.onWorkerReady,
    onWorkerExit: o.onWorkerExit ?? ((exit) => logExit(exit, crashWindowMs)),
  };
}

// ---- Messages between the primary and a worker --------------------------------------------------

/** Worker to primary: `hello` (listening for `stop`), `ready` (its server listens), `failed` (exits next). */
type ToPrimary =
  | { readonly lacquerCluster: 'hello' }
  | { readonly lacquerCluster: 'ready'; readonly port: number; readonly url: string }
  | { readonly lacquerCluster: 'failed'; readonly error: string };
/** Primary to worker: drain and exit. */
const STOP = { lacquerCluster: 'stop' } as const;

function isToPrimary(message: unknown): message is ToPrimary {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { lacquerCluster?: unknown }).lacquerCluster === 'string'
  );
}

// ---- The primary --------------------------------------------------------------------------------

interface Entry {
  readonly worker: Worker;
  readonly id: number;
  readonly pid: number;
  /** It listens for `stop` (said hello): a stop sent before that would be lost. */
  hello: boolean;
  /** The primary asked it to stop (or will, on its hello). */
  stopRequested: boolean;
  /** Why the primary killed it. */
  killed: string | undefined;
  /** What it reported before exiting on a failed start. */
  error: string | undefined;
}

function supervise(o: Resolved): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const live = new Map<number, Entry>();
    const restarts = new Set<NodeJS.Timeout>();
    /** The unexpected exits within the window, and when (`performance.now()`). */
    const crashes: { readonly at: number; exit: ClusterWorkerExit }[] = [];
    /** Exits on shutdown other than a clean drain. */
    const unclean: ClusterWorkerExit[] = [];
    let stopping = false;
    let signalled = false;
    let giveUp: ClusterError | undefined;
    let killTimer: NodeJS.Timeout | undefined;

    const send = (entry: Entry) => {
      if (!entry.worker.isConnected()) return;
      try {
        entry.worker.send(STOP);
      } catch {
        // The worker is going away; its exit is handled on 'close'.
      }
    };

    const fork = () => {
      const worker = cluster.fork();
      const entry: Entry = {
        worker,
        id: worker.id,
        pid: worker.process.pid ?? 0,
        hello: false,
        stopRequested: false,
        killed: undefined,
        error: undefined,
      };
      live.set(entry.id, entry);
      worker.on('message', (message: unknown) => {
        if (!isToPrimary(message)) return;
        if (message.lacquerCluster === 'hello') {
          entry.hello = true;
          if (entry.stopRequested) send(entry);
        } else if (message.lacquerCluster === 'ready') {
          call(o.onWorkerReady, { id: entry.id, pid: entry.pid, port: message.port, url: message.url });
        } else if (message.lacquerCluster === 'failed') {
          entry.error = message.error;
        }
      });
      // A failed send to a worker that is going away must not take the primary down.
      worker.on('error', (error: Error) =>
        console.error(`lacquer/http: worker ${entry.id} (pid ${entry.pid}):`, error),
      );
      // 'close', not 'exit': it comes once the IPC channel is closed too, so after every message the
      // worker sent (its `failed` report included).
      worker.process.once('close', (code: number | null, signal: NodeJS.Signals | null) => exited(entry, code, signal));
    };

    const exited = (entry: Entry, code: number | null, signal: NodeJS.Signals | null) => {
      live.delete(entry.id);
      const unexpected = !entry.stopRequested;
      const base = {
        id: entry.id,
        pid: entry.pid,
        code,
        signal,
        unexpected,
        ...(entry.error === undefined ? {} : { error: entry.error }),
      };
      let exit: ClusterWorkerExit = base;
      if (unexpected && !stopping) {
        const now = performance.now();
        // Entries leave after crashWindowMs, and each needs a fork to crash first: bounded by the window.
        const crash = { at: now, exit };
        crashes.push(crash);
        while (crashes[0]!.at <= now - o.crashWindowMs) crashes.shift();
        exit = crash.exit = { ...base, crashes: crashes.length };
        if (crashes.length >= o.maxCrashes) {
          giveUp = new ClusterError(
            'crash-loop',
            `serveCluster: gave up: ${crashes.length} workers exited unexpectedly within ${o.crashWindowMs} ms (maxCrashes ${o.maxCrashes}); the last: ${describe(exit)}`,
            crashes.map((c) => c.exit),
          );
        } else {
          // The exponent stops at 30: past the cap long before, and 0 × 2^1024 would be NaN.
          const delay = Math.min(o.restartDelayMs * 2 ** Math.min(crashes.length - 1, 30), o.maxRestartDelayMs);
          exit = crash.exit = { ...exit, restartInMs: delay };
          const timer = setTimeout(() => {
            restarts.delete(timer);
            fork();
          }, delay);
          restarts.add(timer);
        }
      } else if (code !== 0 || entry.killed !== undefined) {
        if (entry.killed !== undefined) exit = { ...exit, error: `killed ${entry.killed}` };
        unclean.push(exit);
      }
      call(o.onWorkerExit, exit);
      if (giveUp !== undefined && !stopping) shutDown();
      else if (stopping && live.size === 0) finish();
    };

    const shutDown = () => {
      if (stopping) return;
      stopping = true;
      for (const timer of restarts) clearTimeout(timer);
      restarts.clear();
      for (const entry of live.values()) {
        entry.stopRequested = true;
        if (entry.hello) send(entry);
      }
      if (o.stopTimeoutMs !== Infinity) {
        killTimer = setTimeout(() => kill(`${o.stopTimeoutMs} ms into the shutdown (stopTimeoutMs)`), o.stopTimeoutMs);
      }
      if (live.size === 0) finish();
    };

    const kill = (why: string) => {
      for (const entry of live.values()) {
        entry.killed ??= why;
        entry.worker.process.kill('SIGKILL');
      }
    };

    const onSignal = () => {
      if (!signalled) {
        signalled = true;
        shutDown();
      } else kill('on a second signal');
    };
    const onAbort = () => shutDown();

    const finish = () => {
      for (const s of o.signals) process.off(s, onSignal);
      o.signal?.removeEventListener('abort', onAbort);
      clearTimeout(killTimer);
      if (giveUp !== undefined) reject(giveUp);
      else if (unclean.length > 0) {
        reject(
          new ClusterError(
            'unclean-stop',
            `serveCluster: ${unclean.length} worker${unclean.length === 1 ? '' : 's'} did not drain and exit cleanly: ${unclean.map((exit) => describe(exit)).join('; ')}`,
            unclean,
          ),
        );
      } else resolve();
    };

    for (const s of o.signals) process.on(s, onSignal);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted === true) return shutDown();
    for (let i = 0; i < o.workers; i++) fork();
  });
}

/**
 * `worker 3 (pid 1234) exited with code 1: <its error>`, on one line (a multi-line error message is
 * joined); `unexpectedly` after `exited` when told.
 */
function describe(exit: ClusterWorkerExit, unexpectedly = false): string {
  const how = exit.code !== null ? `with code ${exit.code}` : `on ${exit.signal}`;
  const why = exit.error === undefined ? '' : `: ${exit.error.replace(/\s*[\r\n]+\s*/g, ' ')}`;
  return `worker ${exit.id} (pid ${exit.pid}) exited ${unexpectedly ? 'unexpectedly ' : ''}${how}${why}`;
}

/**
 * The default `onWorkerExit`: one line on stderr for each unexpected exit (with the count within the
 * window and when the replacement comes), and for each worker that did not drain cleanly.
 */
function logExit(exit: ClusterWorkerExit, crashWindowMs: number): void {
  if (exit.unexpected) {
    const count = exit.crashes === undefined ? '' : ` (${exit.crashes} within ${crashWindowMs} ms)`;
    const next = exit.restartInMs === undefined ? '' : `; restarting it in ${exit.restartInMs} ms`;
    console.error(`lacquer/http: ${describe(exit, true)}${count}${next}`);
  } else if (exit.code !== 0 || exit.error !== undefined) {
    console.error(`lacquer/http: ${describe(exit)} while draining`);
  }
}

/** Calls a user's callback; its failure is logged, never thrown into the supervisor. */
function call<T>(callback: ((value: T) => void) | undefined, value: T): void {
  try {
    callback?.(value);
  } catch (error) {
    console.error('lacquer/http: a serveCluster callback threw', error);
  }
}

// ---- A worker -----------------------------------------------------------------------------------

function work(o: Resolved): Promise<void> {
  const tell = (message: ToPrimary, then?: () => void) => {
    if (process.send === undefined || !process.connected) return then?.();
    process.send(message, undefined, {}, () => then?.());
  };
  const name = `worker ${cluster.worker?.id} (pid ${process.pid})`;
  let stopping = false;
  let stopRequested!: () => void;
  const stop = new Promise<void>((resolve) => (stopRequested = resolve));
  process.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    if ((message as { lacquerCluster?: unknown }).lacquerCluster !== STOP.lacquerCluster) return;
    stopping = true;
    stopRequested();
  });
  // A Ctrl-C (or systemd stopping the unit) signals every process of the group; the primary relays
  // it as `stop`. Reacting here too would be a second signal, or a worker gone before the primary knows.
  const ignore = () => {};
  for (const s of o.signals) process.on(s, ignore);
  tell({ lacquerCluster: 'hello' });

  void (async () => {
    let server: HttpServer;
    try {
      server = await o.server();
      if (typeof server?.start !== 'function' || typeof server.stop !== 'function')
        throw new TypeError('serveCluster(): server() did not return an HttpServer');
      // Told to stop while building the server: never start it.
      if (!stopping) {
        await server.start();
        tell({ lacquerCluster: 'ready', port: server.port, url: server.url });
      }
    } catch (error) {
      console.error(`lacquer/http: ${name} failed to start:`, error);
      return tell({ lacquerCluster: 'failed', error: error instanceof Error ? error.message : String(error) }, () =>
        process.exit(1),
      );
    }
    await stop;
    // Drains: in-flight requests finish (503 past the server's drainTimeoutMs), connections close.
    await server.stop();
    try {
      await o.afterStop?.(server);
    } catch (error) {
      console.error(`lacquer/http: ${name}: afterStop failed:`, error);
      return tell(
        {
          lacquerCluster: 'failed',
          error: `afterStop failed: ${error instanceof Error ? error.message : String(error)}`,
        },
        () => process.exit(1),
      );
    }
    process.exit(0);
  })();
  // A worker exits when done: nothing awaits it there.
  return new Promise<void>(() => {});
}
