// The control pair of a side-by-side run: a contender against a second process of itself, loaded
// in the same rounds as the others. Two copies of one server should read 1.00; when they read
// outside 1.00 ± 0.03, the machine moved more than the run can tell apart, and the run's other
// ratios are not to be trusted.
import { roundRatio, type Rounds } from './ratio.ts';

/** How far from 1.00 a control pair may read for the run's figures to stand. */
export const CONTROL_BAND = 0.03;

export interface Control {
  /** The first copy ÷ the second, as `roundRatio` takes it (req/s). */
  readonly ratio: number;
  /** Each round's ratio. */
  readonly rounds: readonly number[];
  /** Whether the ratio is within 1.00 ± {@link CONTROL_BAND}. */
  readonly trusted: boolean;
}

export function control(first: Rounds, copy: Rounds): Control {
  const ratio = roundRatio(first, copy);
  const rounds = first.rounds.map((r, i) => r.requestsPerSec / (copy.rounds[i]?.requestsPerSec ?? Number.NaN));
  // Rounded as printed, so that a ratio printed as 1.03 is within the band, and 1.04 is not.
  return { ratio, rounds, trusted: Math.abs(Math.round(ratio * 100) / 100 - 1) <= CONTROL_BAND + 1e-9 };
}

/** `control lacquer ÷ lacquer 1.01x (rounds 0.99 1.02), within 1.00 ± 0.03`, or the warning. */
export function controlLine(name: string, c: Control): string {
  const figures = `control ${name} ÷ ${name} (a second process) ${c.ratio.toFixed(2)}x (rounds ${c.rounds.map((r) => r.toFixed(2)).join(' ')})`;
  return c.trusted
    ? `${figures}, within 1.00 ± ${CONTROL_BAND.toFixed(2)}`
    : `${figures}: OUTSIDE 1.00 ± ${CONTROL_BAND.toFixed(2)}, so this line's ratios are not to be trusted`;
}
