// lacquer's HttpServer under `serveCluster`: 2 workers against 1, both clusters running side by side
// (each its own primary process), GET list loaded in alternating rounds. Then the memory check: each
// worker's RSS (VmRSS of /proc/<pid>/status) after the warm-up and the rounds, and again after
// `memoryRequests` more requests to its cluster. On a machine of 2 cores autocannon takes one of
// them: the ratio says what a second worker gains there, not what it gains on an idle core.
import { ENDPOINTS } from '../http/data.ts';
import { bundle, forkReady, type Forked } from '../http/forked.ts';
import { load } from '../http/load.ts';
import { cpuMicrosOf, rssOf } from '../http/proc.ts';
import { checkAnswer, requestFor } from '../http/requests.ts';
import { alternate, type Measured, type RoundsConfig } from '../http/rounds.ts';
import type { ClusterReady } from './primary.ts';

export interface ClusterConfig extends RoundsConfig {
  /** Requests sent to each cluster between the two RSS readings. */
  readonly memoryRequests: number;
}

export const CLUSTER_FULL: ClusterConfig = {
  connections: 50,
  pipelining: 1,
  rounds: 5,
  seconds: 4,
  warmupSeconds: 2,
  memoryRequests: 100_000,
};
export const CLUSTER_QUICK: ClusterConfig = {
  connections: 50,
  pipelining: 1,
  rounds: 2,
  seconds: 1.25,
  warmupSeconds: 0.5,
  memoryRequests: 20_000,
};

/** The clusters, by worker count: the first is the baseline of the ratio. */
export const CLUSTER_SIZES = [1, 2] as const;

/** The endpoint loaded: GET list (10 Users), JSON. */
export const CLUSTER_ENDPOINT = ENDPOINTS[0]!;

export interface WorkerMemory {
  /** The cluster's worker count. */
  readonly workers: number;
  /** 1, 2, ... in the order the workers listened. */
  readonly worker: number;
  readonly pid: number;
  readonly rssAfterWarmupMB: number;
  readonly rssAfterMB: number;
  readonly growthMB: number;
}

export interface ClusterResults {
  readonly config: ClusterConfig;
  readonly endpoint: string;
  /** One per cluster, in the order of {@link CLUSTER_SIZES}; CPU is the primary's and the workers'. */
  readonly results: readonly (Measured & { readonly workers: number })[];
  /** Requests sent to each cluster between the two readings. */
  readonly memoryRequests: number;
  readonly memory: readonly WorkerMemory[];
}

const MB = 1024 * 1024;

export async function runClusterBenchmarks(
  config: ClusterConfig,
  log: (line: string) => void,
): Promise<ClusterResults> {
  const file = await bundle(new URL('./primary.ts', import.meta.url), 'cluster-primary');
  const clusters: Forked<ClusterReady>[] = [];
  try {
    for (const n of CLUSTER_SIZES)
      clusters.push(await forkReady<ClusterReady>(file, [String(n)], `bench cluster of ${n}`));
    for (const c of clusters) await checkAnswer(c.ready.url, CLUSTER_ENDPOINT, 'json');
    // Every process that serves: the primary accepts connections and hands them to the workers.
    const pidsOf = (c: Forked<ClusterReady>) => [c.child.pid!, ...c.ready.workerPids];

    log(`  cluster: ${CLUSTER_SIZES.join(' vs ')} workers, ${CLUSTER_ENDPOINT.name}`);
    const targets = clusters.map((c, i) => ({
      name: `${CLUSTER_SIZES[i]} worker${CLUSTER_SIZES[i] === 1 ? '' : 's'}`,
      url: c.ready.url,
      request: requestFor(CLUSTER_ENDPOINT, 'json'),
      cpuMicros: () => pidsOf(c).reduce((sum, pid) => sum + cpuMicrosOf(pid), 0),
    }));
    const measured = await alternate(targets, config);

    log(`  cluster: memory check, ${config.memoryRequests} requests to each cluster`);
    const memory: WorkerMemory[] = [];
    for (const [i, c] of clusters.entries()) {
      const before = c.ready.workerPids.map(rssOf);
      await load(c.ready.url, requestFor(CLUSTER_ENDPOINT, 'json'), config, { amount: config.memoryRequests });
      c.ready.workerPids.forEach((pid, w) => {
        const after = rssOf(pid);
        memory.push({
          workers: CLUSTER_SIZES[i]!,
          worker: w + 1,
          pid,
          rssAfterWarmupMB: before[w]! / MB,
          rssAfterMB: after / MB,
          growthMB: (after - before[w]!) / MB,
        });
      });
    }
    return {
      config,
      endpoint: CLUSTER_ENDPOINT.name,
      results: measured.map((m, i) => ({ ...m, workers: CLUSTER_SIZES[i]! })),
      memoryRequests: config.memoryRequests,
      memory,
    };
  } finally {
    await Promise.all(clusters.map((c) => c.stop()));
  }
}
