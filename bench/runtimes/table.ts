// The Bun part of the console output: req/s, p99 and CPU per request of lacquer and Hono, and the ratios.
import { roundRatio } from '../http/ratio.ts';
import { kilo } from '../http/rounds.ts';
import type { BunResults } from './bench.ts';

export function bunTable(r: BunResults): string {
  const c = r.config;
  const lines = [
    `\nBun ${r.bun}: lacquer's fetch handler vs Hono (${r.peer}), each in its own Bun process, JSON;`,
    `  autocannon, ${c.connections} connections, pipelining ${c.pipelining}, ${c.rounds} alternating rounds × ${c.seconds} s, medians`,
  ];
  for (const { endpoint, results } of r.cases) {
    const [ours, ...peers] = results;
    if (ours === undefined) continue;
    lines.push(endpoint);
    for (const m of results) {
      const note =
        m === ours
          ? ''
          : peers.length > 0
            ? `lacquer ${roundRatio(ours, m).toFixed(2)}x, p99 ${roundRatio(m, ours, 'p99Ms').toFixed(2)}x`
            : '';
      lines.push(
        `  ${`${m.name} (Bun)`.padEnd(32)} ${kilo(m.requestsPerSec).padStart(9)} req/s   p99 ${`${m.p99Ms} ms`.padEnd(7)} cpu/req ${`${m.cpuMicrosPerRequest.toFixed(0)} µs`.padStart(6)}   ${note}`,
      );
    }
  }
  lines.push(
    `RSS of the Bun processes after the run: ${r.rss.map((s) => `${s.name} ${s.rssMB.toFixed(1)} MB`).join(', ')}`,
  );
  return lines.join('\n');
}
