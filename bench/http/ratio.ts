import { median } from '../harness.ts';

/** What a ratio reads of a measurement: its medians and its rounds (an `HttpMeasurement`, or any part's). */
export interface Rounds {
  readonly requestsPerSec: number;
  readonly p99Ms: number;
  readonly rounds: readonly { readonly requestsPerSec: number; readonly p99Ms: number }[];
}

/**
 * `a ÷ b` as the targets ask for it: the median of side-by-side ratios, round by round (the two ran
 * seconds apart in each round), which holds up better than a ratio of medians when the machine's
 * load drifts. For latency, pass the contenders the other way round: `ratio(fastify, ours, 'p99Ms')`.
 * Latencies under 1 ms count as 1 ms (autocannon records whole milliseconds).
 */
export function roundRatio(a: Rounds, b: Rounds, key: 'requestsPerSec' | 'p99Ms' = 'requestsPerSec'): number {
  const value = (m: Rounds, i: number) => (key === 'p99Ms' ? Math.max(m.rounds[i]![key], 1) : m.rounds[i]![key]);
  const n = Math.min(a.rounds.length, b.rounds.length);
  if (n === 0) return key === 'p99Ms' ? Math.max(a[key], 1) / Math.max(b[key], 1) : a[key] / b[key];
  return median(Array.from({ length: n }, (_, i) => value(a, i) / value(b, i)));
}
