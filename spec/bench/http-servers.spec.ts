// The HTTP benchmark's servers answer the same thing, and its harness works. Behaviour only: no timing.
import { expect } from 'chai';
import {
  AUTH_ENDPOINT,
  CHALLENGE,
  ENDPOINTS,
  INVALID_TOKEN_CHALLENGE,
  NEW_BOOK,
  PREFIX,
  RPC_PREFIX,
  TOKENS,
} from '../../bench/http/data.ts';
import { ServerProcess } from '../../bench/http/processes.ts';
import { checkAnswer, type WireFormat } from '../../bench/http/requests.ts';
import { SERVERS, type RunningServer, type ServerKind } from '../../bench/http/servers/index.ts';
import { checkTargets } from '../../bench/targets.ts';
import { renderChart } from '../../bench/chart.ts';
import type { HttpResults } from '../../bench/http/bench.ts';
import { roundRatio } from '../../bench/http/ratio.ts';
import { BUN_SERVERS } from '../../bench/runtimes/bench.ts';
import { bunBinary, startBun, type BunProcess } from '../../bench/runtimes/bun.ts';
import { checkSameAnswer, rawAnswer } from '../../bench/runtimes/check.ts';

const FORMATS: Record<ServerKind, readonly WireFormat[]> = {
  lacquer: ['json', 'msgpack'],
  'lacquer+otel': ['json', 'msgpack'],
  'lacquer+ratelimit': ['json'],
  'lacquer+jsonrpc': ['json'],
  fastify: ['json'],
  'node:http': ['json'],
};

/** POSTs user id 7 in JSON to the authenticated getUserById (or `path`) with `headers`; the answer, body read. */
async function postUserId(port: number, headers: Record<string, string>, path = AUTH_ENDPOINT.path): Promise<Response> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
    body: '7',
  });
  await res.arrayBuffer();
  return res;
}

/** Requests both servers refuse the same way, and the challenge they answer with. */
const REFUSALS: readonly (readonly [string, Record<string, string>, string])[] = [
  ['without an Authorization header', {}, CHALLENGE],
  ['with another scheme in Authorization', { authorization: 'Basic dXNlcjpwYXNz' }, CHALLENGE],
  ['with an unknown token', { authorization: 'Bearer bench-unknown-token' }, INVALID_TOKEN_CHALLENGE],
  ['with an empty token', { authorization: 'Bearer ' }, INVALID_TOKEN_CHALLENGE],
  [
    'with a token holding characters a token cannot have',
    { authorization: `Bearer ${TOKENS[0]![0]}!` },
    INVALID_TOKEN_CHALLENGE,
  ],
  [
    'with a token longer than 8192 characters',
    { authorization: `Bearer ${'a'.repeat(8193)}` },
    INVALID_TOKEN_CHALLENGE,
  ],
];

describe('bench/http servers', () => {
  for (const kind of Object.keys(SERVERS) as ServerKind[]) {
    describe(kind, () => {
      let server: RunningServer;
      before(async () => {
        server = await SERVERS[kind](0);
      });
      after(() => server.close());

      for (const endpoint of ENDPOINTS) {
        for (const format of FORMATS[kind]) {
          it(`answers ${endpoint.name} in ${format} with the expected value`, () =>
            checkAnswer(`http://127.0.0.1:${server.port}`, endpoint, format));
        }
      }

      if (kind === 'lacquer+jsonrpc') {
        it("answers getUserById as one JSON-RPC call and as a batch, with the REST endpoint's user", async () => {
          const post = async (body: string) =>
            (
              await fetch(`http://127.0.0.1:${server.port}${RPC_PREFIX}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body,
              })
            ).json();
          const rest = await (
            await fetch(`http://127.0.0.1:${server.port}${PREFIX}/getUserById`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '7',
            })
          ).json();
          expect(await post('{"jsonrpc":"2.0","method":"getUserById","params":[7],"id":1}')).to.deep.equal({
            jsonrpc: '2.0',
            result: rest,
            id: 1,
          });
          expect(
            await post(
              '[{"jsonrpc":"2.0","method":"getUserById","params":[7],"id":1},{"jsonrpc":"2.0","method":"getUserById","params":[7],"id":2}]',
            ),
          ).to.have.length(2);
        });
      }

      if (kind === 'lacquer' || kind === 'lacquer+otel' || kind === 'lacquer+ratelimit' || kind === 'fastify') {
        it(`answers ${AUTH_ENDPOINT.name} with the expected value, given a known bearer token`, () =>
          checkAnswer(`http://127.0.0.1:${server.port}`, AUTH_ENDPOINT, 'json'));

        it('answers the authenticated getUserById for every known token, whatever the case of "Bearer"', async () => {
          for (const [token] of TOKENS) {
            const res = await postUserId(server.port, { authorization: `bearer ${token}` });
            expect(res.status, token).to.equal(200);
          }
        });

        for (const [what, headers, challenge] of REFUSALS) {
          it(`refuses the authenticated getUserById ${what}: 401 with WWW-Authenticate ${challenge}`, async () => {
            const res = await postUserId(server.port, headers);
            expect(res.status).to.equal(401);
            expect(res.headers.get('www-authenticate')).to.equal(challenge);
          });
        }

        it('serves the plain endpoints without a token', async () => {
          const res = await postUserId(server.port, {}, `${PREFIX}/getUserById`);
          expect(res.status).to.equal(200);
        });

        it('refuses a Book with a missing key, as its body schema says', async () => {
          const { year: _, ...partial } = NEW_BOOK;
          const res = await fetch(`http://127.0.0.1:${server.port}${PREFIX}/createBook`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(partial),
          });
          expect(res.status).to.equal(400);
        });
      }
    });
  }

  it('runs a server in its own process, reports its memory and CPU time, and stops it', async function () {
    this.timeout(60_000);
    const server = await ServerProcess.start('lacquer');
    try {
      await checkAnswer(server.url, ENDPOINTS[0]!, 'json');
      const stats = await server.stats();
      expect(stats.rss).to.be.above(stats.heapUsed).and.above(0);
      expect(stats.cpuMicros).to.be.above(0);
    } finally {
      await server.stop();
    }
  });
});

describe('bench targets and chart', () => {
  const codecs = [
    {
      payload: 'User',
      operation: 'json encode',
      results: [
        { name: 'lacquer json.encode', opsPerSec: 3 },
        { name: 'JSON.stringify', opsPerSec: 2 },
        { name: 'fast-json-stringify', opsPerSec: 2 },
      ],
    },
    {
      payload: 'BookSearchResponse×1000',
      operation: 'json encode',
      results: [
        { name: 'lacquer json.encode', opsPerSec: 1 },
        { name: 'fast-json-stringify', opsPerSec: 2 },
      ],
    },
    {
      payload: 'User',
      operation: 'cbor decode',
      results: [
        { name: 'lacquer cbor.decode (strict)', opsPerSec: 1 },
        { name: 'cbor-x (no checks)', opsPerSec: 2 },
      ],
    },
  ];
  const m = (name: string, requestsPerSec: number, p99Ms: number) => ({
    name,
    server: 'lacquer' as const,
    format: 'json' as const,
    requestsPerSec,
    p50Ms: 1,
    p99Ms,
    cpuMicrosPerRequest: 10,
    rounds: [],
  });
  const http = {
    cases: [
      {
        endpoint: 'GET list',
        results: [m('lacquer json', 100, 4), m('lacquer msgpack', 80, 4), m('Fastify', 90, 5), m('node:http', 200, 2)],
      },
      { endpoint: AUTH_ENDPOINT.name, results: [m('lacquer json', 90, 6), m('Fastify', 100, 5)] },
    ],
    memory: {
      server: 'lacquer',
      requests: 100_000,
      rssAfterWarmupMB: 80,
      rssAfterMB: 85,
      growthMB: 5,
      heapAfterWarmupMB: 10,
      heapAfterMB: 11,
    },
  } as unknown as HttpResults;

  it('checks every benchmark target against the ratios of a run', () => {
    const checks = checkTargets(codecs, http);
    const line = (group: string, label: string) => checks.find((c) => c.group === group && c.label.includes(label));
    expect(line('json.encode', 'vs JSON.stringify, User')).to.include({ value: 1.5, target: 1.5, met: true });
    expect(line('json.encode', 'vs fast-json-stringify, User')).to.include({ value: 1.5, met: true });
    expect(line('json.encode', '×1000'), 'only small and medium payloads').to.equal(undefined);
    expect(line('cbor.decode (strict)', 'vs bare cbor-x, User')).to.include({ value: 0.5, met: false });
    expect(line('HTTP req/s', 'GET list')).to.include({ met: true });
    expect(line('HTTP p99', 'GET list')).to.include({ value: 1.25, met: true });
    expect(line('HTTP MessagePack', 'GET list')).to.include({ value: 0.8, met: false });
    expect(line('HTTP memory', '100,000')).to.include({ value: 5, unit: 'MB', met: true });
  });

  it('checks the auth case on req/s against Fastify only: it has no MessagePack contender and no p99 target', () => {
    const checks = checkTargets(codecs, http);
    const auth = checks.filter((c) => c.label.includes(AUTH_ENDPOINT.name));
    expect(auth).to.have.length(1);
    expect(auth[0]).to.include({
      group: 'HTTP req/s',
      label: `lacquer/Fastify, ${AUTH_ENDPOINT.name}`,
      value: 0.9,
      target: 1,
      met: false,
    });
  });

  it("takes an HTTP ratio as the median of the rounds' side-by-side ratios, not a ratio of medians", () => {
    const round = (requestsPerSec: number, p99Ms: number) => ({
      requestsPerSec,
      p50Ms: 1,
      p99Ms,
      cpuMicrosPerRequest: 10,
    });
    // Medians 100 and 100 (ratio of medians 1.0); round by round the ratios are 2.0, 0.5 and 1.2.
    const a = { ...m('lacquer json', 100, 3), rounds: [round(200, 2), round(50, 0), round(120, 3)] };
    const b = { ...m('Fastify', 100, 3), rounds: [round(100, 4), round(100, 1), round(100, 3)] };
    expect(roundRatio(a, b)).to.equal(1.2);
    // Latency the other way round, a p99 under 1 ms counted as 1 ms: 4/2, 1/1, 3/3.
    expect(roundRatio(b, a, 'p99Ms')).to.equal(1);
    expect(roundRatio({ ...a, rounds: [] }, { ...b, rounds: [] }), 'no rounds: the medians').to.equal(1);
  });

  it('draws one bar per ratio target, the 1.0x line and the memory note', () => {
    const svg = renderChart(checkTargets(codecs, http), 'title & <more>', 'subtitle');
    expect(svg).to.match(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.match(/<rect [^>]*height="12"/g)).to.have.length(
      checkTargets(codecs, http).filter((c) => c.unit === 'x').length + 2,
    );
    expect(svg).to.include('title &amp; &lt;more&gt;').and.include('>1.0x<').and.include('RSS growth of lacquer');
    expect(svg.trim().endsWith('</svg>')).to.equal(true);
  });
});

describe("bench/runtimes: lacquer's fetch handler and Hono on Bun", function () {
  this.timeout(60_000);
  let node: RunningServer;
  let lacquer: BunProcess;
  let hono: BunProcess;
  const base = (port: number) => `http://127.0.0.1:${port}`;
  before(async () => {
    const bun = bunBinary().path;
    [node, lacquer, hono] = await Promise.all([
      SERVERS.lacquer(0),
      startBun(bun, BUN_SERVERS[0].script),
      startBun(bun, BUN_SERVERS[1].script),
    ]);
  });
  after(() => Promise.all([node?.close(), lacquer?.stop(), hono?.stop()]));

  for (const endpoint of ENDPOINTS) {
    it(`answer ${endpoint.name} with the status, media type and bytes of lacquer's HttpServer`, async () => {
      await checkAnswer(lacquer.url, endpoint, 'json');
      await checkSameAnswer(base(node.port), lacquer.url, endpoint, 'lacquer on Bun');
      await checkSameAnswer(base(node.port), hono.url, endpoint, 'Hono on Bun');
    });
  }

  const { year: _, ...noYear } = NEW_BOOK;
  const BAD_BODIES: readonly (readonly [string, number, string])[] = [
    ['a Book with a missing key', 1, JSON.stringify(noYear)],
    ['a Book with an unknown key', 1, JSON.stringify({ ...NEW_BOOK, extra: 1 })],
    ['a Book with a fractional id', 1, JSON.stringify({ ...NEW_BOOK, id: 4.5 })],
    ['a Book with a year beyond i32', 1, JSON.stringify({ ...NEW_BOOK, year: 2 ** 31 })],
    ['a Book with an empty title', 1, JSON.stringify({ ...NEW_BOOK, title: '' })],
    ['malformed JSON', 1, '{"id":'],
    ['a negative user id', 2, '-1'],
    ['a user id as a string', 2, '"7"'],
  ];
  for (const [what, index, body] of BAD_BODIES) {
    it(`both refuse ${what} with 400`, async () => {
      const endpoint = ENDPOINTS[index]!;
      const [ours, theirs] = await Promise.all([
        rawAnswer(lacquer.url, endpoint, body),
        rawAnswer(hono.url, endpoint, body),
      ]);
      expect([ours.status, theirs.status], `lacquer ${ours.body}; Hono ${theirs.body}`).to.deep.equal([400, 400]);
    });
  }

  it('both answer 404 for an unknown user id', async () => {
    const [ours, theirs] = await Promise.all([
      rawAnswer(lacquer.url, ENDPOINTS[2]!, '99'),
      rawAnswer(hono.url, ENDPOINTS[2]!, '99'),
    ]);
    expect([ours.status, theirs.status]).to.deep.equal([404, 404]);
  });

  it("reads each Bun process's memory and CPU time from /proc", () => {
    const stats = lacquer.stats();
    expect(stats.rss).to.be.above(1024 * 1024);
    expect(stats.cpuMicros).to.be.above(0);
  });
});
