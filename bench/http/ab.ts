// lacquer's HTTP server against another checkout's (or against Fastify), endpoint by endpoint, in
// alternating rounds (A B, then B A, ...). The two servers run side by side on one core and the
// load generator on the other (`taskset`), so that neither competes with autocannon for a core: on a
// 2-core machine that is what makes a few percent visible. Ratios are this tree ÷ the other, as
// medians of the rounds' side-by-side ratios, for req/s and for the server's CPU time per request.
//
//   node --import tsx bench/http/ab.ts <other checkout | fastify | node:http> [--rounds=10] [--seconds=3] [--only=scalar] [--format=msgpack] [--no-pin]
//
// The other checkout needs its own node_modules (a symlink to this one's will do). Against `fastify`
// or `node:http`, the other contender is that server of bench/http/servers/ in this tree.
import { execFileSync } from 'node:child_process';
import { median } from '../harness.ts';
import { buildChild } from './build-child.ts';
import { AUTH_ENDPOINT, ENDPOINTS } from './data.ts';
import { ServerProcess } from './processes.ts';
import { roundRatio } from './ratio.ts';
import { checkAnswer, requestFor, type WireFormat } from './requests.ts';
import { alternate, kilo, together, type LoadTarget, type Measured } from './rounds.ts';
import { isServerKind } from './servers/index.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const other = args.find((a) => !a.startsWith('--'));
if (other === undefined) throw new Error('usage: node --import tsx bench/http/ab.ts <other checkout | fastify | node:http> [--rounds=10] [--seconds=3] [--only=scalar] [--together]');
const rounds = Number(option('rounds') ?? 10);
const seconds = Number(option('seconds') ?? 3);
const only = option('only') ?? '';
const format = (option('format') ?? 'json') as WireFormat;
const pin = !args.includes('--no-pin');
const atOnce = args.includes('--together');

if (pin) {
  // This process (autocannon) on core 0, every thread of it; the servers on core 1.
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}
const cpus = pin ? { cpus: '1' } : {};
const ours = await ServerProcess.start('lacquer', [], cpus);
/** Another server kind (`fastify`, or `node:http`, the ceiling of node:http without validation), else a checkout. */
const peer = other !== 'lacquer' && isServerKind(other);
const theirs = peer
  ? await ServerProcess.start(other, [], cpus)
  : await ServerProcess.start('lacquer', [], { ...cpus, bundle: await buildChild(other) });

const endpoints = [...ENDPOINTS, AUTH_ENDPOINT].filter((e) => e.name.includes(only) && (only !== '' || e !== AUTH_ENDPOINT));
console.log(`this tree ÷ ${other}: ${rounds} ${atOnce ? 'rounds loading both at once' : 'alternating rounds'} × ${seconds} s, ${format}${pin ? ', servers on core 1, load on core 0' : ''}`);
try {
  for (const endpoint of endpoints) {
    const fmt = peer ? 'json' : format;
    try {
      await checkAnswer(theirs.url, endpoint, fmt);
    } catch (error) {
      console.log(`  ${endpoint.name}: the other server does not answer it (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    await checkAnswer(ours.url, endpoint, fmt);
    const target = (name: string, server: ServerProcess): LoadTarget => ({
      name,
      url: server.url,
      request: requestFor(endpoint, fmt),
      cpuMicros: async () => (await server.stats()).cpuMicros,
    });
    const [a, b] = await (atOnce ? together : alternate)([target('this tree', ours), target(other, theirs)], {
      connections: 50, pipelining: 1, rounds, seconds, warmupSeconds: 2,
    }) as [Measured, Measured];
    const cpuRatio = median(a.rounds.map((r, i) => b.rounds[i]!.cpuMicrosPerRequest / r.cpuMicrosPerRequest));
    const spread = a.rounds.map((r, i) => (r.requestsPerSec / b.rounds[i]!.requestsPerSec).toFixed(2)).join(' ');
    console.log(`  ${endpoint.name}: ${kilo(a.requestsPerSec)} vs ${kilo(b.requestsPerSec)} req/s, ${roundRatio(a, b).toFixed(2)}x`
      + ` | CPU/req ${a.cpuMicrosPerRequest.toFixed(1)} vs ${b.cpuMicrosPerRequest.toFixed(1)} µs, ${cpuRatio.toFixed(2)}x | rounds ${spread}`);
  }
} finally {
  await ours.stop();
  await theirs.stop();
}
