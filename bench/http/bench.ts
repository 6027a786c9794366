// The HTTP benchmark: lacquer (JSON and MessagePack), Fastify and bare node:http, each server in a
// process of its own that loads only its own stack, loaded by autocannon in alternating rounds
// (A B C D E, then E D C B A, ...); then lacquer and Fastify with a bearer token and one interceptor.
// A second lacquer process runs in the same rounds as a control pair: lacquer ÷ lacquer should read
// 1.00 ± 0.03, and an endpoint whose control does not is not to be trusted.
import { median } from '../harness.ts';
import { AUTH_ENDPOINT, ENDPOINTS, type BenchEndpoint } from './data.ts';
import { load, type LoadSettings } from './load.ts';
import { ServerProcess } from './processes.ts';
import { checkAnswer, requestFor, type BenchRequest, type WireFormat } from './requests.ts';
import { roundOrder } from './rounds.ts';
import type { ServerKind } from './server-kinds.ts';

export interface HttpConfig extends LoadSettings {
  readonly rounds: number;
  /** Seconds of load per contender, endpoint and round. */
  readonly seconds: number;
  /** Seconds of load per contender and endpoint before the rounds. */
  readonly warmupSeconds: number;
  /** Requests sent to lacquer between the two RSS readings of the memory check. */
  readonly memoryRequests: number;
}

export const HTTP_FULL: HttpConfig = {
  connections: 50,
  pipelining: 1,
  rounds: 5,
  seconds: 4,
  warmupSeconds: 2,
  memoryRequests: 100_000,
};
export const HTTP_QUICK: HttpConfig = {
  connections: 50,
  pipelining: 1,
  rounds: 2,
  seconds: 1.25,
  warmupSeconds: 0.5,
  memoryRequests: 20_000,
};

export interface Contender {
  readonly name: string;
  readonly server: ServerKind;
  /** Which process of that kind serves it: the control pair's second lacquer is `copy` 2. */
  readonly copy?: number;
  readonly format: WireFormat;
}

/** The name of the control pair's second lacquer process. */
export const CONTROL = 'lacquer json (control)';

/** lacquer first: the ratios are lacquer's against the others. */
export const CONTENDERS: readonly Contender[] = [
  { name: 'lacquer json', server: 'lacquer', format: 'json' },
  { name: CONTROL, server: 'lacquer', copy: 2, format: 'json' },
  { name: 'lacquer msgpack', server: 'lacquer', format: 'msgpack' },
  { name: 'Fastify', server: 'fastify', format: 'json' },
  { name: 'node:http', server: 'node:http', format: 'json' },
];

/**
 * The cases in the order they run: the plain endpoints against every contender, then the auth case
 * (bearer token, one interceptor) against Fastify alone, in JSON; the control pair in each.
 */
export const HTTP_CASES: readonly { readonly endpoint: BenchEndpoint; readonly contenders: readonly Contender[] }[] = [
  ...ENDPOINTS.map((endpoint) => ({ endpoint, contenders: CONTENDERS })),
  {
    endpoint: AUTH_ENDPOINT,
    contenders: CONTENDERS.filter((c) => c.name === 'lacquer json' || c.name === CONTROL || c.name === 'Fastify'),
  },
];

/** The label of a contender's server process: `lacquer`, `lacquer (2)`. */
const processName = (c: Contender) => (c.copy === undefined ? c.server : `${c.server} (${c.copy})`);

interface Sample {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** The server process's CPU time (user + system) per answered request. */
  readonly cpuMicrosPerRequest: number;
}

export interface HttpMeasurement extends Sample {
  readonly name: string;
  readonly server: ServerKind;
  readonly copy?: number;
  readonly format: WireFormat;
  /** Each round's figures; the measurement holds their medians. */
  readonly rounds: readonly Sample[];
}

export interface HttpCase {
  readonly endpoint: string;
  readonly results: readonly HttpMeasurement[];
}

export interface MemoryCheck {
  readonly server: ServerKind;
  /** Requests between the two readings, spread over every lacquer endpoint in JSON and MessagePack. */
  readonly requests: number;
  readonly rssAfterWarmupMB: number;
  readonly rssAfterMB: number;
  readonly growthMB: number;
  readonly heapAfterWarmupMB: number;
  readonly heapAfterMB: number;
}

export interface HttpResults {
  readonly config: HttpConfig;
  /** The Node the servers ran on (`v24.22.3`). */
  readonly node: string;
  readonly cases: readonly HttpCase[];
  /** Each server process's memory after the whole run, by its name (`lacquer`, `lacquer (2)`, `fastify`, ...). */
  readonly rss: readonly { server: string; rssMB: number; heapUsedMB: number }[];
  readonly memory: MemoryCheck;
}

const MB = 1024 * 1024;

/** One load run, with the server's CPU time over it. */
async function measure(
  server: ServerProcess,
  request: BenchRequest,
  config: HttpConfig,
  seconds: number,
): Promise<Sample> {
  const before = await server.stats();
  const r = await load(server.url, request, config, { seconds });
  const after = await server.stats();
  return {
    requestsPerSec: r.requestsPerSec,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / r.requests,
  };
}

/**
 * RSS before and after `config.memoryRequests` more requests, spread over lacquer's endpoints in
 * both formats. Run after the timed rounds, so "after warm-up" means a server in its steady state.
 */
async function memoryCheck(lacquer: ServerProcess, config: HttpConfig): Promise<MemoryCheck> {
  const before = await lacquer.stats();
  const variants = ENDPOINTS.flatMap((e) =>
    CONTENDERS.filter((c) => c.server === 'lacquer' && c.copy === undefined).map((c) => requestFor(e, c.format)),
  );
  let sent = 0;
  for (const [i, request] of variants.entries()) {
    const amount = Math.round((config.memoryRequests * (i + 1)) / variants.length) - sent;
    sent += (await load(lacquer.url, request, config, { amount })).requests;
  }
  const after = await lacquer.stats();
  return {
    server: lacquer.kind,
    requests: sent,
    rssAfterWarmupMB: before.rss / MB,
    rssAfterMB: after.rss / MB,
    growthMB: (after.rss - before.rss) / MB,
    heapAfterWarmupMB: before.heapUsed / MB,
    heapAfterMB: after.heapUsed / MB,
  };
}

export async function runHttpBenchmarks(config: HttpConfig, log: (line: string) => void): Promise<HttpResults> {
  const servers = new Map<string, ServerProcess>();
  try {
    for (const c of CONTENDERS) {
      if (!servers.has(processName(c))) servers.set(processName(c), await ServerProcess.start(c.server));
    }
    const serverOf = (c: Contender) => servers.get(processName(c))!;

    // Wrong answers would make the figures meaningless: check each one first.
    for (const { endpoint, contenders } of HTTP_CASES) {
      for (const c of contenders) await checkAnswer(serverOf(c).url, endpoint, c.format);
    }

    log('  http: warm-up');
    for (const { endpoint, contenders } of HTTP_CASES) {
      for (const c of contenders)
        await load(serverOf(c).url, requestFor(endpoint, c.format), config, { seconds: config.warmupSeconds });
    }

    const cases: HttpCase[] = [];
    for (const { endpoint, contenders } of HTTP_CASES) {
      log(`  http: ${endpoint.name}`);
      const samples = contenders.map(() => [] as Sample[]);
      for (let r = 0; r < config.rounds; r++) {
        for (const i of roundOrder(contenders.length, r)) {
          const c = contenders[i]!;
          samples[i]!.push(await measure(serverOf(c), requestFor(endpoint, c.format), config, config.seconds));
        }
      }
      const mid = (s: readonly Sample[], key: keyof Sample) => median(s.map((x) => x[key]));
      cases.push({
        endpoint: endpoint.name,
        results: contenders.map((c, i) => {
          const s = samples[i]!;
          return {
            ...c,
            requestsPerSec: mid(s, 'requestsPerSec'),
            p50Ms: mid(s, 'p50Ms'),
            p99Ms: mid(s, 'p99Ms'),
            cpuMicrosPerRequest: mid(s, 'cpuMicrosPerRequest'),
            rounds: s,
          };
        }),
      });
    }

    log(`  http: memory check, ${config.memoryRequests} requests to lacquer`);
    const memory = await memoryCheck(servers.get('lacquer')!, config);

    const rss = [];
    for (const [server, p] of servers) {
      const m = await p.stats();
      rss.push({ server, rssMB: m.rss / MB, heapUsedMB: m.heapUsed / MB });
    }
    return { config, node: servers.get('lacquer')!.nodeVersion, cases, rss, memory };
  } finally {
    await Promise.all([...servers.values()].map((p) => p.stop()));
  }
}
