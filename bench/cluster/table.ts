// The cluster part of the console output: req/s of 1 and 2 workers, the ratio, and each worker's RSS.
import { roundRatio } from '../http/ratio.ts';
import { kilo } from '../http/rounds.ts';
import type { ClusterResults } from './bench.ts';

const mb = (n: number) => `${n.toFixed(1)} MB`;

export function clusterTable(r: ClusterResults): string {
  const c = r.config;
  const [base] = r.results;
  const lines = [
    `\nserveCluster (lacquer HttpServer, node:cluster round-robin), ${r.endpoint}, JSON: ${r.results.map((m) => m.name).join(' vs ')};`,
    `  autocannon, ${c.connections} connections, pipelining ${c.pipelining}, ${c.rounds} alternating rounds × ${c.seconds} s, medians;`,
    '  autocannon runs on the same 2 cores as the workers: the ratio is what a second worker gains on a machine shared with its load;',
    "  cpu/req: the primary's and the workers' CPU time per request",
  ];
  for (const m of r.results) {
    const note =
      m === base || base === undefined
        ? ''
        : `${m.name} ÷ ${base.name} ${roundRatio(m, base).toFixed(2)}x, p99 ${roundRatio(base, m, 'p99Ms').toFixed(2)}x`;
    lines.push(
      `  ${`cluster, ${m.name}`.padEnd(32)} ${kilo(m.requestsPerSec).padStart(9)} req/s   p99 ${`${m.p99Ms} ms`.padEnd(7)} cpu/req ${`${m.cpuMicrosPerRequest.toFixed(0)} µs`.padStart(6)}   ${note}`,
    );
  }
  lines.push(
    `memory: each worker's RSS after warm-up and the rounds, and after ${r.memoryRequests.toLocaleString('en')} more requests to its cluster:`,
  );
  for (const w of r.memory) {
    lines.push(
      `  cluster of ${w.workers}, worker ${w.worker} (pid ${w.pid}): ${mb(w.rssAfterWarmupMB)} → ${mb(w.rssAfterMB)} (${w.growthMB >= 0 ? '+' : ''}${mb(w.growthMB)})`,
    );
  }
  return lines.join('\n');
}
