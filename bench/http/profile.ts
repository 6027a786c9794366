// `node --import tsx bench/http/profile.ts [seconds] [json|msgpack] [endpoint substring] [server] [--node=24|26|/path/to/node]`:
// runs a benchmark server (lacquer by default; on that Node with `--node=`) under `--cpu-prof`, loads its endpoints, and prints
// where the server's time goes (self time per function and per source file). The profile stays in
// the printed folder, for Chrome DevTools or speedscope. With no substring, the three plain endpoints;
// the auth case (bearer token and one interceptor) runs when the substring is in its name: `bearer`.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUTH_ENDPOINT, ENDPOINTS } from './data.ts';
import { load } from './load.ts';
import { ServerProcess } from './processes.ts';
import { RPC_CALL, requestFor, type WireFormat } from './requests.ts';
import { isServerKind } from './server-kinds.ts';
import { nodeOption } from '../node-binary.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const node = nodeOption(process.argv);
const seconds = Number(positional[0] ?? 5);
const format = (positional[1] ?? 'json') as WireFormat;
const only = positional[2] ?? '';
const kind = positional[3] ?? 'lacquer';
if (!isServerKind(kind)) throw new Error(`unknown server ${kind}`);
const dir = mkdtempSync(join(tmpdir(), 'lacquer-prof-'));

const server = await ServerProcess.start(
  kind,
  ['--cpu-prof', '--cpu-prof-dir', dir],
  node === undefined ? {} : { node: node.path },
);
console.log(`${kind} on Node ${server.nodeVersion}`);
let requests = 0;
// The auth case only when asked for by name (`bearer`): lacquer and Fastify serve it, node:http does not.
// `jsonrpc` (with the server `lacquer+jsonrpc`): getUserById as one JSON-RPC call.
const endpoints =
  only === 'jsonrpc'
    ? []
    : only === ''
      ? ENDPOINTS
      : [...ENDPOINTS, AUTH_ENDPOINT].filter((e) => e.name.includes(only));
const requests_ = endpoints.map((e) => [e.name, requestFor(e, format)] as const);
if (only === 'jsonrpc') requests_.push(['JSON-RPC getUserById', RPC_CALL]);
for (const [name, request] of requests_) {
  const r = await load(server.url, request, { connections: 50, pipelining: 1 }, { seconds });
  requests += r.requests;
  console.log(`${kind} ${name} (${format}): ${Math.round(r.requestsPerSec)} req/s, p99 ${r.p99Ms} ms`);
}
await server.stop();

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (file === undefined) throw new Error(`no profile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
const total = profile.samples.length;
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url === '' ? '(native)' : url.replace(/^file:\/\/.*\/node_modules\//, '').replace(/^file:\/\/.*\//, '');
  const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  byFile.set(where, (byFile.get(where) ?? 0) + hits);
}
// Inclusive time of the server's own functions (the bundle): a function and what it calls, in one turn.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const inclusive = new Map<string, number>();
const walk = (node: ProfileNode, open: Set<string>): number => {
  let hits = node.hitCount ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = url.includes('lacquer-bench') ? `${functionName || '(anonymous)'}  :${lineNumber + 1}` : undefined;
  const counted = key !== undefined && !open.has(key);
  if (counted) open.add(key);
  for (const id of node.children ?? []) hits += walk(byId.get(id)!, open);
  if (counted) {
    open.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
  }
  return hits;
};
walk(profile.nodes[0]!, new Set());
// Each sample stands for the profile's duration over the sample count; per request, over the requests sent.
const microsPerHit = (profile.endTime - profile.startTime) / total / requests;
const top = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([k, v]) =>
        `  ${((100 * v) / total).toFixed(1).padStart(5)}% ${(v * microsPerHit).toFixed(2).padStart(6)} µs/req  ${k}`,
    )
    .join('\n');
console.log(
  `\nprofile: ${join(dir, file)} (${total} samples)\nself time by function:\n${top(byFunction, 30)}\n\nself time by file:\n${top(byFile, 12)}\n\ntime in the server's own functions, callees included:\n${top(inclusive, 25)}`,
);
