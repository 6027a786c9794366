// Side-by-side timing: contenders of one case run in alternating rounds, and the median of each
// contender's rounds is compared. Alternation spreads machine noise over every contender alike.

export interface Contender {
  name: string;
  /** One operation; its result is kept so the work cannot be optimised away. */
  run: () => unknown;
}

export interface Measurement {
  name: string;
  opsPerSec: number;
}

let sink: unknown;

function opsPerSecond(run: () => unknown, ms: number): number {
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  // Batches keep the clock out of the measured loop.
  let batch = 1;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = run();
    ops += batch;
    elapsed = performance.now() - start;
    if (elapsed < ms / 10) batch *= 2;
  }
  return (ops * 1000) / elapsed;
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Warms every contender up, then measures `rounds` alternating rounds of `ms` each. */
export function compare(contenders: readonly Contender[], rounds: number, ms: number): Measurement[] {
  for (const c of contenders) opsPerSecond(c.run, ms / 2);
  const samples = contenders.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? contenders.map((_, i) => i) : contenders.map((_, i) => contenders.length - 1 - i);
    for (const i of order) samples[i]!.push(opsPerSecond(contenders[i]!.run, ms));
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return contenders.map((c, i) => ({ name: c.name, opsPerSec: median(samples[i]!) }));
}

/**
 * The payload filter of `--only=User,Ledger` in `argv`: a payload is selected when its name holds one
 * of the texts, not followed by a digit (`BookSearchResponse×10` is not `×1000`). Everything without it.
 */
export function onlyFilter(argv: readonly string[]): (payload: string) => boolean {
  const texts = argv
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',')
    .filter((x) => x !== '');
  if (texts === undefined || texts.length === 0) return () => true;
  const patterns = texts.map((x) => new RegExp(`${x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])`));
  return (payload) => patterns.some((p) => p.test(payload));
}
