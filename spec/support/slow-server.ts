// A child process for the graceful-shutdown spec: GET /slow answers only once "release" arrives on stdin.
import { HttpServer } from '../../transports/http/index.ts';

let release!: () => void;
const released = new Promise<void>((resolve) => (release = resolve));
const server = new HttpServer();
server.get('/slow', async (_req, res) => {
  console.log('SLOW-STARTED');
  await released;
  res.json('done');
});
server.get('/fast', (_req, res) => void res.json('fast'));
server.bind(0).withSignals();
// Registered after withSignals: when this prints, the server has stopped accepting.
process.on('SIGTERM', () => console.log('SIGTERM-RECEIVED'));
await server.start();
console.log(`PORT ${server.port}`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => {
  if (!d.includes('release')) return;
  release();
  process.stdin.destroy();
});
await server.waitForSignal();
console.log('STOPPED');
