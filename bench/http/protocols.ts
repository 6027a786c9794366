// JSON-RPC 2.0 against REST on one lacquer server: the same getUserById as a REST endpoint
// (POST /api/getUserById), as one JSON-RPC call, and as a batch of 100 calls, loaded in alternating
// rounds. Prints req/s, calls/s and the ratios the targets name.
//   node --import tsx bench/http/protocols.ts [--rounds=6] [--seconds=3] [--node=24|26|/path/to/node]
import { execFileSync } from 'node:child_process';
import { json } from '../../codecs/json/index.ts';
import { ENDPOINTS, PREFIX, USER_ID, USERS, User } from './data.ts';
import { nodeOption } from '../node-binary.ts';
import { ServerProcess } from './processes.ts';
import { RPC_CALL, requestFor, rpcCallText, rpcRequest, type BenchRequest } from './requests.ts';
import { alternate, kilo, type LoadTarget } from './rounds.ts';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const rounds = Number(option('rounds') ?? 6);
const seconds = Number(option('seconds') ?? 3);
const BATCH = 100;

// This process (autocannon) on core 0, every thread of it; the server on core 1.
execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
const node = nodeOption(args);
const server = await ServerProcess.start('lacquer+jsonrpc', [], {
  cpus: '1',
  ...(node === undefined ? {} : { node: node.path }),
});

const rest = requestFor(ENDPOINTS.find((e) => e.path === `${PREFIX}/getUserById`)!, 'json');
const single = RPC_CALL;
const batch = rpcRequest(`[${Array.from({ length: BATCH }, (_, i) => rpcCallText(i)).join(',')}]`);

// Each answer checked once before any timing: the same user, exactly.
const user = json.encode(User, USERS[Number(USER_ID) - 1]!);
const answer = async (request: BenchRequest) =>
  (
    await fetch(server.url + request.path, {
      method: 'POST',
      headers: request.headers,
      body: new Uint8Array(request.body!),
    })
  ).text();
const answers = [await answer(rest), await answer(single), await answer(batch)];
const expected = [user, `{"jsonrpc":"2.0","result":${user},"id":1}`];
if (
  answers[0] !== expected[0] ||
  answers[1] !== expected[1] ||
  (JSON.parse(answers[2]!) as unknown[]).length !== BATCH ||
  !answers[2]!.includes(user)
) {
  throw new Error(`unexpected answers: ${answers.map((a) => a.slice(0, 120)).join(' | ')}`);
}

const target = (name: string, request: BenchRequest): LoadTarget => ({
  name,
  url: server.url,
  request,
  cpuMicros: async () => (await server.stats()).cpuMicros,
});
console.log(
  `REST and JSON-RPC 2.0 on one lacquer server: ${rounds} alternating rounds × ${seconds} s, json, server on core 1 (Node ${server.nodeVersion}), load on core 0 (Node ${process.version})`,
);
try {
  const [r, s, b] = await alternate(
    [target('REST', rest), target('JSON-RPC', single), target('JSON-RPC batch', batch)],
    {
      connections: 50,
      pipelining: 1,
      rounds,
      seconds,
      warmupSeconds: 2,
    },
  );
  const callsPerSec = b!.requestsPerSec * BATCH;
  console.log(
    `  REST POST /api/getUserById:        ${kilo(r!.requestsPerSec)} req/s, CPU/req ${r!.cpuMicrosPerRequest.toFixed(1)} µs`,
  );
  console.log(
    `  JSON-RPC getUserById:              ${kilo(s!.requestsPerSec)} req/s, CPU/req ${s!.cpuMicrosPerRequest.toFixed(1)} µs`,
  );
  console.log(
    `  JSON-RPC batch of ${BATCH}:             ${kilo(b!.requestsPerSec)} req/s = ${kilo(callsPerSec)} calls/s, CPU/call ${(b!.cpuMicrosPerRequest / BATCH).toFixed(2)} µs`,
  );
  console.log(`  JSON-RPC ÷ REST (req/s): ${(s!.requestsPerSec / r!.requestsPerSec).toFixed(2)}x (target ≥ 0.9x)`);
  console.log(
    `  batch of ${BATCH} ÷ single calls (calls/s): ${(callsPerSec / s!.requestsPerSec).toFixed(2)}x (target ≥ 5x)`,
  );
} finally {
  await server.stop();
}
