// The bench parts beside the HTTP bench: the cluster starts and reports its workers, the
// compression server's answers are really compressed, the parts' targets and tables. No timing.
import { expect } from 'chai';
import type { ClusterResults } from '../../bench/cluster/bench.ts';
import type { ClusterReady } from '../../bench/cluster/primary.ts';
import { clusterTable } from '../../bench/cluster/table.ts';
import type { CompressionResults } from '../../bench/compression/bench.ts';
import { checkBooksAnswer, CODECS, CODINGS } from '../../bench/compression/requests.ts';
import { startBooksServer } from '../../bench/compression/server.ts';
import { compressionTable } from '../../bench/compression/table.ts';
import { ENDPOINTS } from '../../bench/http/data.ts';
import { bundle, forkReady } from '../../bench/http/forked.ts';
import { cpuMicrosOf, rssOf } from '../../bench/http/proc.ts';
import { checkAnswer } from '../../bench/http/requests.ts';
import type { Measured } from '../../bench/http/rounds.ts';
import type { BunResults } from '../../bench/runtimes/bench.ts';
import { bunTable } from '../../bench/runtimes/table.ts';
import { checkPartTargets } from '../../bench/targets.ts';

describe('bench/cluster', () => {
  it('runs serveCluster with 2 workers on one port, tells their pids, answers, and drains on stop', async function () {
    this.timeout(60_000);
    const file = await bundle(new URL('../../bench/cluster/primary.ts', import.meta.url), 'cluster-primary');
    const cluster = await forkReady<ClusterReady>(file, ['2'], 'cluster of 2');
    try {
      expect(cluster.ready.workerPids).to.have.length(2);
      await checkAnswer(cluster.ready.url, ENDPOINTS[0]!, 'json');
      for (const pid of cluster.ready.workerPids) {
        expect(rssOf(pid)).to.be.above(1024 * 1024);
        expect(cpuMicrosOf(pid)).to.be.at.least(0);
      }
    } finally {
      await cluster.stop();
    }
    expect(cluster.child.exitCode).to.equal(0);
  });
});

describe('bench/compression', () => {
  let server: Awaited<ReturnType<typeof startBooksServer>>;
  before(async () => {
    server = await startBooksServer(0);
  });
  after(() => server.close());

  for (const codec of CODECS) {
    it(`answers the 1,000 books in ${codec}, compressed as asked and inflating to the same books`, async () => {
      const url = `http://127.0.0.1:${server.port}`;
      const [identity, gzip, br] = await Promise.all(CODINGS.map((coding) => checkBooksAnswer(url, codec, coding)));
      expect(identity!.bodyBytes).to.equal(identity!.identityBytes).and.above(80_000);
      expect(gzip!.bodyBytes).to.be.below(identity!.bodyBytes / 5);
      expect(br!.bodyBytes).to.be.below(identity!.bodyBytes / 5);
    });
  }
});

describe('bench parts: targets and tables', () => {
  const round = (requestsPerSec: number) => ({
    requestsPerSec,
    p50Ms: 1,
    p99Ms: 4,
    cpuMicrosPerRequest: 30,
    bytesPerRequest: 500,
    startMs: 0,
    finishMs: 1000,
  });
  const m = (name: string, ...rps: number[]): Measured => ({ ...round(rps[0]!), name, rounds: rps.map(round) });
  const bun: BunResults = {
    config: { connections: 50, pipelining: 1, rounds: 2, seconds: 1, warmupSeconds: 0.5 },
    bun: '1.4.5',
    peer: 'hono 4',
    cases: [
      { endpoint: 'GET list', results: [m('lacquer fetch handler', 110, 90), m('Hono + zod-validator', 100, 100)] },
    ],
    rss: [{ name: 'lacquer fetch handler', rssMB: 50 }],
  };
  const cluster: ClusterResults = {
    config: { connections: 50, pipelining: 1, rounds: 2, seconds: 1, warmupSeconds: 0.5, memoryRequests: 20_000 },
    endpoint: 'GET list',
    results: [
      { ...m('1 worker', 100), workers: 1 },
      { ...m('2 workers', 120), workers: 2 },
    ],
    memoryRequests: 20_000,
    memory: [
      { workers: 2, worker: 1, pid: 1, rssAfterWarmupMB: 80, rssAfterMB: 85, growthMB: 5 },
      { workers: 2, worker: 2, pid: 2, rssAfterWarmupMB: 80, rssAfterMB: 105, growthMB: 25 },
    ],
  };

  it("checks lacquer against Hono on Bun per endpoint, and each cluster worker's RSS growth", () => {
    const checks = checkPartTargets(bun, cluster);
    expect(checks).to.have.length(3);
    expect(checks[0]).to.include({ group: 'Bun req/s', value: 1, target: 1, met: true });
    expect(checks[1]).to.include({ group: 'cluster memory', value: 5, unit: 'MB', met: true });
    expect(checks[2]!.label).to.include('worker 2 of 2').and.include('20,000');
    expect(checks[2]).to.include({ met: false });
    expect(checkPartTargets(undefined, undefined)).to.deep.equal([]);
  });

  it('prints each part as ratios', () => {
    expect(bunTable(bun)).to.include('lacquer 1.00x');
    expect(clusterTable(cluster)).to.include('2 workers ÷ 1 worker 1.20x').and.include('+25.0 MB');
    const compression: CompressionResults = {
      config: bun.config,
      payload: 'BookSearchResponse×1000',
      cases: [
        {
          codec: 'json',
          identityBytes: 100_000,
          results: [
            { ...m('json identity', 100), coding: 'identity', bodyBytes: 100_000 },
            { ...m('json gzip', 50), coding: 'gzip', bodyBytes: 10_000 },
          ],
        },
      ],
    };
    expect(compressionTable(compression)).to.include('10.0x smaller, req/s 0.50x identity');
  });
});
