// A cluster of lacquer servers for the bench: `node <bundle of this file> <workers>`, forked by
// bench/cluster/bench.ts with IPC. The primary runs `serveCluster` with that many workers, each an
// HttpServer with the HTTP bench's BenchService (read strictly, as bench/http/servers/lacquer.ts), all
// on one port the primary picked; once every worker listens it sends the bench `ready` with the
// workers' pids, and drains the cluster on `stop`. The workers run this same file.
import cluster from 'node:cluster';
import { Registry } from '../../index.ts';
import { HttpServer, serveCluster } from '../../transports/http/index.ts';
import { PREFIX } from '../http/data.ts';
import { BenchService } from '../http/servers/lacquer.ts';

export interface ClusterReady {
  readonly type: 'ready';
  readonly url: string;
  /** The workers' pids, in the order they listened. */
  readonly workerPids: readonly number[];
}

const workers = Number(process.argv[2]);
const stop = new AbortController();
if (cluster.isPrimary) {
  if (!Number.isInteger(workers) || workers < 1 || process.send === undefined) {
    console.error('usage (under fork): primary <workers>');
    process.exit(2);
  }
  process.on('message', (message: { type?: unknown }) => {
    if (message?.type === 'stop') stop.abort();
  });
  process.on('disconnect', () => stop.abort());
}

const listening: number[] = [];
serveCluster({
  workers,
  server: () =>
    new HttpServer().mount(PREFIX, new Registry({ errorOnMissingKeys: true }).on(new BenchService()).endpoints).bind(0),
  signal: stop.signal,
  // A worker lost mid-run would skew the figures: the first crash ends the cluster, and the bench fails.
  maxCrashes: 1,
  onWorkerReady: ({ pid, url }) => {
    listening.push(pid);
    if (listening.length === workers)
      process.send!({ type: 'ready', url, workerPids: listening } satisfies ClusterReady);
  },
}).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench cluster:', error);
    process.exit(1);
  },
);
