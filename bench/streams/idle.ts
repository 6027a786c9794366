// What idle streams cost a server: `node --import tsx bench/streams/idle.ts [clients]` opens that
// many Server-Sent Events streams (1,000 by default) to a server in a child process, each waiting
// after its first item, and prints the growth of the server's resident memory (after a GC).
import { spawn } from 'node:child_process';
import http from 'node:http';

const CLIENTS = Number(process.argv[2] ?? 1000);
const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', new URL('./idle-server.ts', import.meta.url).pathname],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
const port = await new Promise<number>((resolve) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    const m = /PORT (\d+)/.exec((out += d));
    if (m !== null) resolve(Number(m[1]));
  });
});
const memory = () =>
  new Promise<number>((resolve, reject) => {
    http
      .get(
        { port, host: '127.0.0.1', path: '/api/getMemory', agent: false, headers: { accept: 'application/json' } },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (d: string) => (body += d))
            .on('end', () => resolve(Number(body)));
        },
      )
      .on('error', reject);
  });
const before = await memory();
const requests: http.ClientRequest[] = [];
await Promise.all(
  Array.from(
    { length: CLIENTS },
    () =>
      new Promise<void>((resolve, reject) => {
        const req = http.get(
          { port, host: '127.0.0.1', path: '/api/listUpdates', agent: false, headers: { accept: 'text/event-stream' } },
          (res) => {
            res.once('data', () => resolve());
          },
        );
        req.on('error', reject);
        requests.push(req);
      }),
  ),
);
const after = await memory();
console.log(
  `${CLIENTS} idle Server-Sent Events streams: server RSS ${(before / 2 ** 20).toFixed(1)} MiB before, ${(after / 2 ** 20).toFixed(1)} MiB with them open, growth ${((after - before) / 2 ** 20).toFixed(1)} MiB (${((after - before) / CLIENTS / 1024).toFixed(1)} KiB per stream)`,
);
for (const req of requests) req.destroy();
child.kill();
