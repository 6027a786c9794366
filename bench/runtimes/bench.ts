// lacquer's fetch handler against Hono (with @hono/zod-validator), both on Bun, each in its own Bun
// process: the HTTP bench's three endpoints in JSON, answers checked byte for byte, then loaded by
// autocannon in alternating rounds (A B, then B A, ...).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { ENDPOINTS, FEED_LENGTH, FEED_PATH } from '../http/data.ts';
import { requestFor, checkAnswer } from '../http/requests.ts';
import { alternate, type Measured, type RoundsConfig } from '../http/rounds.ts';
import { bunBinary, startBun, type BunProcess } from './bun.ts';
import { checkSameAnswer } from './check.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const BUN_FULL: RoundsConfig = { connections: 50, pipelining: 1, rounds: 5, seconds: 4, warmupSeconds: 2 };
export const BUN_QUICK: RoundsConfig = { connections: 50, pipelining: 1, rounds: 2, seconds: 1.25, warmupSeconds: 0.5 };

/** lacquer first: the ratios are lacquer's against Hono. Scripts relative to the repository. */
export const BUN_SERVERS = [
  { name: 'lacquer fetch handler', script: 'bench/runtimes/bun-lacquer.ts' },
  { name: 'Hono + zod-validator', script: 'bench/runtimes/bun-hono.ts' },
] as const;

export interface BunCase {
  readonly endpoint: string;
  /** lacquer, then Hono. */
  readonly results: readonly Measured[];
}

export interface BunResults {
  readonly config: RoundsConfig;
  /** `1.4.5` */
  readonly bun: string;
  /** `hono 4.13.19, @hono/zod-validator 0.9.1, zod 4.6.7` */
  readonly peer: string;
  readonly cases: readonly BunCase[];
  /** Each server process's RSS after the run (VmRSS). */
  readonly rss: readonly { name: string; rssMB: number }[];
}

/** The stream case's name in the table. */
export const FEED_CASE = `SSE stream (${FEED_LENGTH} Users)`;

/** The `data` of each message event of a Server-Sent Events answer, read by eventsource-parser. */
async function sseData(url: string): Promise<string[]> {
  const res = await fetch(url, { headers: { accept: 'text/event-stream' } });
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    throw new Error(`${url}: ${res.status} ${res.headers.get('content-type')}`);
  const data: string[] = [];
  const parser = createParser({
    onEvent: (event) => void ((event.event ?? 'message') === 'message' && data.push(event.data)),
  });
  parser.feed(await res.text());
  return data;
}

const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(`${ROOT}node_modules/${pkg}/package.json`, 'utf8')) as { version: string }).version;

export async function runBunBenchmarks(config: RoundsConfig, log: (line: string) => void): Promise<BunResults> {
  const bun = bunBinary();
  const servers: BunProcess[] = [];
  try {
    for (const s of BUN_SERVERS) servers.push(await startBun(bun.path, s.script));
    const [ours, theirs] = servers as [BunProcess, BunProcess];
    // Wrong answers would make the figures meaningless: lacquer's must hold the expected value, and
    // Hono's must be the same bytes.
    for (const endpoint of ENDPOINTS) {
      await checkAnswer(ours.url, endpoint, 'json');
      await checkSameAnswer(ours.url, theirs.url, endpoint, BUN_SERVERS[1].name);
    }
    const cases: BunCase[] = [];
    for (const endpoint of ENDPOINTS) {
      log(`  bun: ${endpoint.name}`);
      const targets = BUN_SERVERS.map((s, i) => ({
        name: s.name,
        url: servers[i]!.url,
        request: requestFor(endpoint, 'json'),
        cpuMicros: () => servers[i]!.stats().cpuMicros,
      }));
      cases.push({ endpoint: endpoint.name, results: await alternate(targets, config) });
    }
    // A stream: the same users as Server-Sent Events, lacquer's stream method against Hono's streamSSE.
    const feed = { method: 'GET' as const, path: FEED_PATH, headers: { accept: 'text/event-stream' }, body: undefined };
    const [ourFeed, theirFeed] = await Promise.all(servers.map((s) => sseData(s.url + FEED_PATH)));
    if (ourFeed!.length !== FEED_LENGTH || ourFeed!.join('\n') !== theirFeed!.join('\n')) {
      throw new Error(
        `the SSE stream: lacquer sent ${ourFeed!.length} events, ${BUN_SERVERS[1].name} ${theirFeed!.length}, or other data`,
      );
    }
    log(`  bun: ${FEED_CASE}`);
    const feedTargets = BUN_SERVERS.map((s, i) => ({
      name: s.name,
      url: servers[i]!.url,
      request: feed,
      cpuMicros: () => servers[i]!.stats().cpuMicros,
    }));
    cases.push({ endpoint: FEED_CASE, results: await alternate(feedTargets, config) });
    return {
      config,
      bun: bun.version,
      peer: ['hono', '@hono/zod-validator', 'zod'].map((p) => `${p} ${versionOf(p)}`).join(', '),
      cases,
      rss: BUN_SERVERS.map((s, i) => ({ name: s.name, rssMB: servers[i]!.stats().rss / 1024 / 1024 })),
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
