// Side by side under load, for the parts after the main HTTP bench (Bun, cluster, compression) and
// for ab.ts: each target is warmed up, then loaded in alternating rounds (A B C, then C B A, ...),
// or all at once in each round (`together`); a target tells its server's CPU time however it can
// (IPC, /proc).
import { median } from '../harness.ts';
import { load, type LoadSettings } from './load.ts';
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

export interface RoundSample {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The serving processes' CPU time per answered request. */
  readonly cpuMicrosPerRequest: number;
  /** Bytes read per answer, headers included. */
  readonly bytesPerRequest: number;
}

/** A target's medians over the rounds, and the rounds themselves (for `roundRatio`). */
export interface Measured extends RoundSample {
  readonly name: string;
  readonly rounds: readonly RoundSample[];
}

async function sample(target: LoadTarget, settings: LoadSettings, seconds: number): Promise<RoundSample> {
  const before = await target.cpuMicros();
  const r = await load(target.url, target.request, settings, { seconds });
  const after = await target.cpuMicros();
  return {
    requestsPerSec: r.requestsPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    cpuMicrosPerRequest: (after - before) / r.requests,
    bytesPerRequest: r.bytes / r.requests,
  };
}

/** Warms each target up, then measures them in alternating rounds; the results in the targets' order. */
export async function alternate(targets: readonly LoadTarget[], config: RoundsConfig): Promise<Measured[]> {
  for (const t of targets) await load(t.url, t.request, config, { seconds: config.warmupSeconds });
  const samples = targets.map(() => [] as RoundSample[]);
  for (let r = 0; r < config.rounds; r++) {
    const order = targets.map((_, i) => (r % 2 === 0 ? i : targets.length - 1 - i));
    for (const i of order) samples[i]!.push(await sample(targets[i]!, config, config.seconds));
  }
  return summarize(targets, samples);
}

/**
 * Warms the targets up, then loads all of them at the same time in each round. Servers sharing one
 * core then split it, so the ratio of their req/s is the inverse ratio of their CPU per request,
 * and a machine that slows down or speeds up does so for both: on a virtual machine this tells a
 * few percent apart where alternating rounds cannot.
 */
export async function together(targets: readonly LoadTarget[], config: RoundsConfig): Promise<Measured[]> {
  await Promise.all(targets.map((t) => load(t.url, t.request, config, { seconds: config.warmupSeconds })));
  const samples = targets.map(() => [] as RoundSample[]);
  for (let r = 0; r < config.rounds; r++) {
    const round = await Promise.all(targets.map((t) => sample(t, config, config.seconds)));
    round.forEach((s, i) => samples[i]!.push(s));
  }
  return summarize(targets, samples);
}

function summarize(targets: readonly LoadTarget[], samples: readonly (readonly RoundSample[])[]): Measured[] {
  const mid = (s: readonly RoundSample[], key: keyof RoundSample) => median(s.map((x) => x[key]));
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
