// Two HTTP servers side by side, endpoint by endpoint: lacquer against another checkout's, against
// Fastify or bare node:http, or any two of bench/http/servers/. Each runs in a process of its own
// that loads only its own stack (build-child.ts), and a second process of the first contender runs
// in the same rounds as a control pair: two copies of one server should read 1.00 ± 0.03, and the
// run says so when they do not (its figures are then not to be trusted). Rounds alternate (A A' B,
// then B A' A, ...), or with `--together` load all three at once, started in alternating order, for
// the same seconds. The servers run side by side on core 1 and the load generator on core 0
// (`taskset`), so that no server competes with autocannon for a core. Ratios are the first ÷ the
// second, as medians of the rounds' side-by-side ratios, for req/s and for the server's CPU time per
// request.
//
//   node --import tsx bench/http/ab.ts [first] <second> [--together] [--rounds=10] [--seconds=3] [--only=scalar] [--format=msgpack] [--node=24|26|/path/to/node] [--no-pin]
//
// A contender is a server of bench/http/servers/ (`lacquer`, `fastify`, `node:http`, `lacquer+otel`,
// `lacquer+ratelimit`, ...) or the path of another checkout of lacquer (its `lacquer` server, with
// this tree's child process and bundling); the first is `lacquer` when only one is given. With
// `--node=`, the servers run on that Node and autocannon stays on this one.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { median } from '../harness.ts';
import { nodeOption } from '../node-binary.ts';
import { control, controlLine } from './control.ts';
import { AUTH_ENDPOINT, ENDPOINTS, type BenchEndpoint } from './data.ts';
import { coreTicks } from './proc.ts';
import { ServerProcess } from './processes.ts';
import { roundRatio } from './ratio.ts';
import { checkAnswer, requestFor, type WireFormat } from './requests.ts';
import { alternate, kilo, sharedWindow, together, type LoadTarget, type Measured } from './rounds.ts';
import { SERVER_KINDS, isServerKind, type ServerKind } from './server-kinds.ts';

const USAGE =
  'usage: node --import tsx bench/http/ab.ts [first] <second: a server of bench/http/servers/ or another checkout> ' +
  '[--together] [--rounds=10] [--seconds=3] [--only=scalar] [--format=msgpack] [--node=24|26|/path/to/node] [--no-pin]';
const args = process.argv.slice(2);
const option = (name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const named = args.filter((a) => !a.startsWith('--'));
if (named.length < 1 || named.length > 2) throw new Error(USAGE);
const rounds = Number(option('rounds') ?? 10);
const seconds = Number(option('seconds') ?? 3);
const only = option('only') ?? '';
const pin = !args.includes('--no-pin');
const atOnce = args.includes('--together');
const node = nodeOption(args);

interface Contender {
  readonly label: string;
  readonly kind: ServerKind;
  /** Another checkout, whose server module runs. */
  readonly root?: string;
}

function contender(name: string): Contender {
  if (isServerKind(name)) return { label: name, kind: name };
  if (existsSync(name) && statSync(name).isDirectory()) return { label: name, kind: 'lacquer', root: name };
  throw new Error(
    `${name}: neither a server of bench/http/servers/ (${Object.keys(SERVER_KINDS).join(', ')}) nor a checkout of lacquer\n${USAGE}`,
  );
}

const [first, second] =
  named.length === 2 ? [contender(named[0]!), contender(named[1]!)] : [contender('lacquer'), contender(named[0]!)];
const bothLacquer = SERVER_KINDS[first.kind].stack === 'lacquer' && SERVER_KINDS[second.kind].stack === 'lacquer';
const format = (bothLacquer ? (option('format') ?? 'json') : 'json') as WireFormat;

if (pin) {
  // This process (autocannon) on core 0, every thread of it; the servers on core 1.
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}
const options = { ...(pin ? { cpus: '1' } : {}), ...(node === undefined ? {} : { node: node.path }) };
const start = (c: Contender) =>
  ServerProcess.start(c.kind, [], { ...options, ...(c.root === undefined ? {} : { root: c.root }) });
// The first contender, its copy (the control pair), the second.
const servers: ServerProcess[] = [];
try {
  for (const c of [first, first, second]) servers.push(await start(c));
  const [a, copy, b] = servers as [ServerProcess, ServerProcess, ServerProcess];

  const endpoints = [...ENDPOINTS, AUTH_ENDPOINT].filter(
    (e) => e.name.includes(only) && (only !== '' || e !== AUTH_ENDPOINT),
  );
  const where = pin
    ? `servers on core 1 (Node ${a.nodeVersion}), load on core 0 (Node ${process.version})`
    : `servers on Node ${a.nodeVersion}, load on Node ${process.version}, unpinned`;
  console.log(
    `${first.label} ÷ ${second.label}: ${rounds} ${atOnce ? 'rounds loading all three at once' : 'alternating rounds'} × ${seconds} s, ${format}, ${where}`,
  );
  console.log(
    `  control pair: ${first.label} against a second process of itself, in the same rounds (expected 1.00 ± 0.03)`,
  );

  const answers = async (server: ServerProcess, endpoint: BenchEndpoint): Promise<string | undefined> => {
    try {
      await checkAnswer(server.url, endpoint, format);
      return undefined;
    } catch (error) {
      return (error as Error).message.split('\n')[0];
    }
  };
  const untrusted: string[] = [];
  for (const endpoint of endpoints) {
    const refused = (await answers(a, endpoint)) ?? (await answers(copy, endpoint)) ?? (await answers(b, endpoint));
    if (refused !== undefined) {
      console.log(`  ${endpoint.name}: not answered by both (${refused})`);
      continue;
    }
    const target = (name: string, server: ServerProcess): LoadTarget => ({
      name,
      url: server.url,
      request: requestFor(endpoint, format),
      cpuMicros: async () => (await server.stats()).cpuMicros,
    });
    const before = pin && atOnce ? coreTicks(1) : undefined;
    const measured = await (atOnce ? together : alternate)(
      [target(first.label, a), target(`${first.label} (control)`, copy), target(second.label, b)],
      {
        connections: 50,
        pipelining: 1,
        rounds,
        seconds,
        warmupSeconds: 2,
      },
    );
    const after = pin && atOnce ? coreTicks(1) : undefined;
    const [x, x2, y] = measured as [Measured, Measured, Measured];
    const cpuRatio = median(x.rounds.map((r, i) => y.rounds[i]!.cpuMicrosPerRequest / r.cpuMicrosPerRequest));
    const spread = x.rounds.map((r, i) => (r.requestsPerSec / y.rounds[i]!.requestsPerSec).toFixed(2)).join(' ');
    console.log(
      `  ${endpoint.name}: ${kilo(x.requestsPerSec)} vs ${kilo(y.requestsPerSec)} req/s, ${roundRatio(x, y).toFixed(2)}x` +
        ` | CPU/req ${x.cpuMicrosPerRequest.toFixed(1)} vs ${y.cpuMicrosPerRequest.toFixed(1)} µs, ${cpuRatio.toFixed(2)}x | rounds ${spread}`,
    );
    const pair = control(x, x2);
    console.log(`    ${controlLine(first.label, pair)}`);
    if (!pair.trusted) untrusted.push(endpoint.name);
    if (atOnce) {
      const shared = sharedWindow(measured);
      if (shared < 0.97)
        console.log(
          `    the three load runs of a round overlapped for only ${(100 * shared).toFixed(0)}% of it: the ratios lean on the runs' ends`,
        );
      // Loaded together, the servers' ratio is their inverse CPU ratio only while they keep their core busy.
      if (before !== undefined && after !== undefined && after.total > before.total) {
        const busy = 1 - (after.idle - before.idle) / (after.total - before.total);
        if (busy < 0.95)
          console.log(
            `    the servers' core was busy ${(100 * busy).toFixed(0)}% of the time: the load generator did not keep it full, which draws the ratios towards 1`,
          );
      }
    }
  }
  console.log(
    untrusted.length === 0
      ? 'control pair within 1.00 ± 0.03 on every endpoint'
      : `CONTROL PAIR OUTSIDE 1.00 ± 0.03 on ${untrusted.join(', ')}: those figures are not to be trusted (a busy machine; rerun with more rounds, or on a quiet one)`,
  );
} finally {
  await Promise.all(servers.map((s) => s.stop()));
}
