// The HTTP part of the console table: req/s and p99 per contender, lacquer's ratios, the control
// pair, memory.
import { CONTROL, type HttpResults } from './bench.ts';
import { control, controlLine } from './control.ts';
import { roundRatio } from './ratio.ts';

const k = (n: number) => (n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0));
const mb = (n: number) => `${n.toFixed(1)} MB`;

export function httpTable(r: HttpResults): string {
  const c = r.config;
  const lines = [
    `\nHTTP: servers on Node ${r.node}, each in a process of its own; autocannon, ${c.connections} connections, pipelining ${c.pipelining}, ${c.rounds} alternating rounds × ${c.seconds} s per contender, medians;`,
    "  cpu/req: the server process's CPU time per request (user + system); ratios: medians of the rounds' side-by-side ratios",
    "  (req/s lacquer ÷ other; p99 other ÷ lacquer, above 1 when lacquer's is lower)",
  ];
  const untrusted: string[] = [];
  for (const { endpoint, results } of r.cases) {
    const by = (name: string) => results.find((m) => m.name === name);
    const ours = by('lacquer json');
    const copy = by(CONTROL);
    lines.push(endpoint);
    for (const m of results) {
      let note = '';
      if (m.name === 'lacquer msgpack' && ours) note = `msgpack/json ${roundRatio(m, ours).toFixed(2)}x`;
      else if (m !== ours && m !== copy && ours)
        note = `lacquer ${roundRatio(ours, m).toFixed(2)}x, p99 ${roundRatio(m, ours, 'p99Ms').toFixed(2)}x`;
      const cpu = `${m.cpuMicrosPerRequest.toFixed(0)} µs`;
      lines.push(
        `  ${m.name.padEnd(32)} ${k(m.requestsPerSec).padStart(9)} req/s   p99 ${`${m.p99Ms} ms`.padEnd(7)} cpu/req ${cpu.padStart(6)}   ${note}`,
      );
    }
    if (ours !== undefined && copy !== undefined) {
      const pair = control(ours, copy);
      lines.push(`  ${controlLine('lacquer json', pair)}`);
      if (!pair.trusted) untrusted.push(endpoint);
    }
  }
  lines.push(
    untrusted.length === 0
      ? 'control pair within 1.00 ± 0.03 on every endpoint'
      : `CONTROL PAIR OUTSIDE 1.00 ± 0.03 on ${untrusted.join(', ')}: those ratios are not to be trusted (alternating rounds on a busy machine; bench/http/ab.ts --together is steadier)`,
  );
  lines.push(`RSS after the run: ${r.rss.map((s) => `${s.server} ${mb(s.rssMB)}`).join(', ')}`);
  const m = r.memory;
  lines.push(
    `memory: ${m.server} RSS after warm-up and the rounds ${mb(m.rssAfterWarmupMB)}, after ${m.requests.toLocaleString('en')} more requests ${mb(m.rssAfterMB)}: ` +
      `${m.growthMB >= 0 ? '+' : ''}${mb(m.growthMB)} (heap ${mb(m.heapAfterWarmupMB)} → ${mb(m.heapAfterMB)})`,
  );
  return lines.join('\n');
}
