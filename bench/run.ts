// `npm run bench` (`-- --quick` for a one-minute run): prints a table of ops/s and ratios and writes bench/results.json.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { runCodecBenchmarks, wireSizes, type CaseResult } from './codecs.ts';

const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 7;
const ms = quick ? 120 : 400;

function formatOps(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
}

function table(results: CaseResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    const [ours, ...peers] = r.results;
    if (ours === undefined) continue;
    lines.push(`${r.payload} — ${r.operation}`);
    lines.push(`  ${ours.name.padEnd(32)} ${formatOps(ours.opsPerSec).padStart(9)} ops/s`);
    for (const peer of peers) {
      const ratio = ours.opsPerSec / peer.opsPerSec;
      lines.push(`  ${peer.name.padEnd(32)} ${formatOps(peer.opsPerSec).padStart(9)} ops/s   lacquer ${ratio.toFixed(2)}x`);
    }
  }
  return lines.join('\n');
}

console.log(`lacquer bench (${quick ? 'quick' : 'full'}: ${rounds} rounds × ${ms} ms) on ${cpus()[0]?.model ?? 'unknown cpu'}, Node ${process.version}`);
const codecs = runCodecBenchmarks(rounds, ms, (line) => console.error(line));
console.log(table(codecs));
const sizes = wireSizes();
console.log('\nwire size (bytes)   raw     gzip   brotli');
for (const s of sizes) console.log(`  ${`${s.payload} ${s.format}`.padEnd(34)} ${String(s.raw).padStart(7)} ${String(s.gzip).padStart(7)} ${String(s.brotli).padStart(7)}`);
writeFileSync(new URL('./results.json', import.meta.url), JSON.stringify({ date: new Date().toISOString(), node: process.version, quick, codecs, sizes }, null, 2) + '\n');
