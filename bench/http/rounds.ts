// Side by side under load, for the parts after the main HTTP bench (Bun, cluster, compression) and
// for ab.ts: each target is warmed up, then loaded in alternating rounds (A B C, then C B A, ...),
// or all at once in each round (`together`, started A B C, then C B A, ...), every load run of the
// same length; a target tells its server's CPU time however it can (IPC, /proc).
import { median } from '../harness.ts';
import { load, type LoadResult, type LoadSettings } from './load.ts';
import type { BenchRequest } from './requests.ts';

export interface RoundsConfig extends LoadSettings {
  readonly rounds: number;
  /** Seconds of load per target and round. */
  readonly seconds: number;
  /** Seconds of load per target before the rounds. */
  readonly warmupSeconds: number;
}

/** One contender: where to send which request, and how to read the server's CPU time. */
export interface LoadTarget {
  readonly name: string;
  readonly url: string;
  readonly request: BenchRequest;
  /** CPU time (user + system, microseconds) of every process that serves the target, so far. */
  cpuMicros(): number | Promise<number>;
}

/** A load run's figures, or their medians over the rounds. */
export interface Figures {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The serving processes' CPU time per answered request. */
  readonly cpuMicrosPerRequest: number;
  /** Bytes read per answer, headers included. */
  readonly bytesPerRequest: number;
}

/** One round's load run of one target. */
export interface RoundSample extends Figures {
  /** When the run started and ended (milliseconds since the epoch). */
  readonly startMs: number;
  readonly finishMs: number;
}

/** A target's medians over the rounds, and the rounds themselves (for `roundRatio`). */
export interface Measured extends Figures {
  readonly name: string;
  readonly rounds: readonly RoundSample[];
}

const sampleOf = (r: LoadResult, cpuMicros: number): RoundSample => ({
  requestsPerSec: r.requestsPerSec,
  p50Ms: r.p50Ms,
  p99Ms: r.p99Ms,
  cpuMicrosPerRequest: cpuMicros / r.requests,
  bytesPerRequest: r.bytes / r.requests,
  startMs: r.startMs,
  finishMs: r.finishMs,
});

async function sample(target: LoadTarget, settings: LoadSettings, seconds: number): Promise<RoundSample> {
  const before = await target.cpuMicros();
  const r = await load(target.url, target.request, settings, { seconds });
  return sampleOf(r, (await target.cpuMicros()) - before);
}

/** Round `r`'s order of `n` targets: 0 1 2 in even rounds, 2 1 0 in odd ones. */
export const roundOrder = (n: number, r: number): number[] =>
  Array.from({ length: n }, (_, i) => (r % 2 === 0 ? i : n - 1 - i));

/** Warms each target up, then measures them in alternating rounds; the results in the targets' order. */
export async function alternate(targets: readonly LoadTarget[], config: RoundsConfig): Promise<Measured[]> {
  for (const t of targets) await load(t.url, t.request, config, { seconds: config.warmupSeconds });
  const samples = targets.map(() => [] as RoundSample[]);
  for (let r = 0; r < config.rounds; r++) {
    for (const i of roundOrder(targets.length, r)) samples[i]!.push(await sample(targets[i]!, config, config.seconds));
  }
  return summarize(targets, samples);
}

/**
 * Warms the targets up, then loads all of them at the same time in each round, for the same
 * seconds, started in alternating order. Servers sharing one core then split it, so the ratio of
 * their req/s is the inverse ratio of their CPU per request, and a machine that slows down or
 * speeds up does so for all of them: on a virtual machine this tells a few percent apart where
 * alternating rounds cannot. Each server's CPU time is read before any run of the round starts and
 * after every one has ended.
 */
export async function together(targets: readonly LoadTarget[], config: RoundsConfig): Promise<Measured[]> {
  await Promise.all(targets.map((t) => load(t.url, t.request, config, { seconds: config.warmupSeconds })));
  const samples = targets.map(() => [] as RoundSample[]);
  for (let r = 0; r < config.rounds; r++) {
    const before = await Promise.all(targets.map((t) => t.cpuMicros()));
    const runs: Promise<LoadResult>[] = [];
    for (const i of roundOrder(targets.length, r))
      runs[i] = load(targets[i]!.url, targets[i]!.request, config, { seconds: config.seconds });
    const results = await Promise.all(runs);
    const after = await Promise.all(targets.map((t) => t.cpuMicros()));
    results.forEach((x, i) => samples[i]!.push(sampleOf(x, after[i]! - before[i]!)));
  }
  return summarize(targets, samples);
}

/**
 * The smallest share, over the rounds, of the rounds' load runs that all of them ran at once: the
 * time between the last start and the first end, over the time between the first start and the
 * last end. 1 when every round's runs started and ended together; for `together` rounds only.
 */
export function sharedWindow(measured: readonly Measured[]): number {
  const n = Math.min(...measured.map((m) => m.rounds.length));
  let least = 1;
  for (let r = 0; r < n; r++) {
    const runs = measured.map((m) => m.rounds[r]!);
    const start = Math.max(...runs.map((s) => s.startMs));
    const end = Math.min(...runs.map((s) => s.finishMs));
    const span = Math.max(...runs.map((s) => s.finishMs)) - Math.min(...runs.map((s) => s.startMs));
    least = Math.min(least, span <= 0 ? 1 : Math.max(0, end - start) / span);
  }
  return least;
}

function summarize(targets: readonly LoadTarget[], samples: readonly (readonly RoundSample[])[]): Measured[] {
  const mid = (s: readonly RoundSample[], key: keyof Figures) => median(s.map((x) => x[key]));
  return targets.map((t, i) => {
    const s = samples[i]!;
    return {
      name: t.name,
      requestsPerSec: mid(s, 'requestsPerSec'),
      p50Ms: mid(s, 'p50Ms'),
      p99Ms: mid(s, 'p99Ms'),
      cpuMicrosPerRequest: mid(s, 'cpuMicrosPerRequest'),
      bytesPerRequest: mid(s, 'bytesPerRequest'),
      rounds: s,
    };
  });
}

/** `31.2k` */
export const kilo = (n: number): string => (n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0));
