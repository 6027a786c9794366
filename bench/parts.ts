// The parts of `npm run bench` after the HTTP bench, each its own module: lacquer's fetch handler
// against Hono on Bun (runtimes/), serveCluster with 2 workers against 1 (cluster/), and compressed
// against identity answers (compression/). A part that fails is reported and the others still run.
import { CLUSTER_FULL, CLUSTER_QUICK, runClusterBenchmarks, type ClusterResults } from './cluster/bench.ts';
import { clusterTable } from './cluster/table.ts';
import {
  COMPRESSION_FULL,
  COMPRESSION_QUICK,
  runCompressionBenchmarks,
  type CompressionResults,
} from './compression/bench.ts';
import { compressionTable } from './compression/table.ts';
import { BUN_FULL, BUN_QUICK, runBunBenchmarks, type BunResults } from './runtimes/bench.ts';
import { bunTable } from './runtimes/table.ts';

export interface PartResults {
  readonly bun?: BunResults;
  readonly cluster?: ClusterResults;
  readonly compression?: CompressionResults;
  /** Why a part has no figures: `{ part: 'bun', error: '...' }`. */
  readonly failures: readonly { part: string; error: string }[];
}

export async function runParts(quick: boolean, log: (line: string) => void): Promise<PartResults> {
  const failures: { part: string; error: string }[] = [];
  const attempt = async <T>(part: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`  ${part}: FAILED: ${text}`);
      failures.push({ part, error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  };
  const bun = await attempt('bun', () => runBunBenchmarks(quick ? BUN_QUICK : BUN_FULL, log));
  const cluster = await attempt('cluster', () => runClusterBenchmarks(quick ? CLUSTER_QUICK : CLUSTER_FULL, log));
  const compression = await attempt('compression', () =>
    runCompressionBenchmarks(quick ? COMPRESSION_QUICK : COMPRESSION_FULL, log),
  );
  return {
    ...(bun === undefined ? {} : { bun }),
    ...(cluster === undefined ? {} : { cluster }),
    ...(compression === undefined ? {} : { compression }),
    failures,
  };
}

export function partTables(p: PartResults): string {
  const out: string[] = [];
  if (p.bun !== undefined) out.push(bunTable(p.bun));
  if (p.cluster !== undefined) out.push(clusterTable(p.cluster));
  if (p.compression !== undefined) out.push(compressionTable(p.compression));
  for (const f of p.failures) out.push(`\n${f.part}: FAILED, no figures: ${f.error}`);
  return out.join('\n');
}
