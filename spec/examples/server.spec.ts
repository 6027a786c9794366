// `npm start` (examples/server.ts) on a port that is taken: one line on stderr, no stack, a non-zero exit.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = fileURLToPath(new URL('../../examples/server.ts', import.meta.url));
const env = (port: number) => ({ ...process.env, PORT: String(port), HOST: '127.0.0.1' });
const inUse = (port: number) =>
  `lacquer: port ${port} on 127.0.0.1 is already in use (EADDRINUSE); set PORT=<another port> or stop the other process`;

/** Runs the example server to its end (it ends at once when it cannot listen). */
function runExample(port: number) {
  return spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: root, env: env(port), encoding: 'utf8', timeout: 30_000 });
}

function expectInUse(run: ReturnType<typeof runExample>, port: number): void {
  expect(run.error, 'the example server did not end by itself').to.equal(undefined);
  expect(run.status).to.be.a('number').and.not.equal(0);
  expect(run.stderr).not.to.include('    at ');
  expect(run.stderr.trim()).to.equal(inUse(port));
  expect(run.stdout).not.to.include('listening');
}

describe('examples: the example server on a port that is taken', () => {
  let holder: Server | undefined;
  let first: ChildProcess | undefined;
  afterEach(async () => {
    holder?.close();
    holder = undefined;
    if (first !== undefined && first.exitCode === null && first.signalCode === null) {
      first.kill('SIGTERM');
      await once(first, 'exit');
    }
    first = undefined;
  });

  it('says so in one line and exits non-zero when another server holds the port', async () => {
    holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as AddressInfo;
    expectInUse(runExample(port), port);
  });

  it('says so in one line and exits non-zero when started twice on the same port', async () => {
    first = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env: env(0), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    first.stdout!.setEncoding('utf8');
    first.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
    const port = await new Promise<number>((resolve, reject) => {
      const onData = (d: string) => {
        out += d;
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (match !== null) {
          first!.stdout!.off('data', onData);
          resolve(Number(match[1]));
        }
      };
      first!.stdout!.on('data', onData);
      first!.once('exit', (code) => reject(new Error(`the first example server exited (${code}): ${out}`)));
    });
    expectInUse(runExample(port), port);
  });
});
