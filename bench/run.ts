// `npm run bench` (`-- --quick` for a short run, `-- --no-http` for the codecs alone, `-- --only=Shape,User`
// for the codec cases whose payload name holds `Shape` or `User`, `-- --node=24`, `--node=26` or
// `--node=/path/to/node` for the whole run on that Node): prints a table of ops/s, req/s and ratios,
// checks the targets, writes bench/results.json and bench/results.svg.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { renderChart } from './chart.ts';
import { runCodecBenchmarks, wireSizes, type CaseResult } from './codecs.ts';
import { runKindBenchmarks } from './kinds.ts';
import { HTTP_FULL, HTTP_QUICK, runHttpBenchmarks } from './http/bench.ts';
import { onlyFilter } from './harness.ts';
import { httpTable } from './http/table.ts';
import { partTables, runParts } from './parts.ts';
import { checkPartTargets, checkTargets, targetLines } from './targets.ts';
import { nodeOption } from './node-binary.ts';

const node = nodeOption(process.argv);
if (node !== undefined && node.version !== process.version) {
  // The whole run on that Node, codecs, load generator and servers alike: this file again under it.
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--node='));
  const run = spawnSync(node.path, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 7;
const ms = quick ? 120 : 400;
const selected = onlyFilter(process.argv);

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
      lines.push(
        `  ${peer.name.padEnd(32)} ${formatOps(peer.opsPerSec).padStart(9)} ops/s   lacquer ${ratio.toFixed(2)}x`,
      );
    }
  }
  return lines.join('\n');
}

console.log(
  `lacquer bench (${quick ? 'quick' : 'full'}: ${rounds} rounds × ${ms} ms) on ${cpus()[0]?.model ?? 'unknown cpu'}, Node ${process.version}`,
);
// The records of scalars first, then t.variant and t.timestamp (bench/kinds.ts).
const codecs = [
  ...runCodecBenchmarks(rounds, ms, (line) => console.error(line), selected),
  ...runKindBenchmarks(rounds, ms, (line) => console.error(line), selected),
];
console.log(table(codecs));
const sizes = wireSizes();
console.log('\nwire size (bytes)   raw     gzip   brotli');
for (const s of sizes)
  console.log(
    `  ${`${s.payload} ${s.format}`.padEnd(34)} ${String(s.raw).padStart(7)} ${String(s.gzip).padStart(7)} ${String(s.brotli).padStart(7)}`,
  );

const http = process.argv.includes('--no-http')
  ? undefined
  : await runHttpBenchmarks(quick ? HTTP_QUICK : HTTP_FULL, (line) => console.error(line));
if (http !== undefined) console.log(httpTable(http));
// Bun against Hono, serveCluster 2 workers against 1, compressed against identity answers.
const parts = process.argv.includes('--no-http') ? undefined : await runParts(quick, (line) => console.error(line));
if (parts !== undefined) console.log(partTables(parts));
if (parts !== undefined && parts.failures.length > 0) process.exitCode = 1;
const targets = [...checkTargets(codecs, http), ...checkPartTargets(parts?.bun, parts?.cluster)];
console.log(targetLines(targets));

const date = new Date().toISOString();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown cpu'}, Node ${process.version}`;
writeFileSync(
  new URL('./results.json', import.meta.url),
  JSON.stringify({ date, node: process.version, machine, quick, codecs, sizes, http, ...parts, targets }, null, 2) +
    '\n',
);
const title = 'lacquer against the alternatives: ratios and their targets';
writeFileSync(
  new URL('./results.svg', import.meta.url),
  renderChart(targets, title, `${quick ? 'quick' : 'full'} run of npm run bench, ${date.slice(0, 10)}, ${machine}`),
);
console.log('\nwrote bench/results.json and bench/results.svg');
