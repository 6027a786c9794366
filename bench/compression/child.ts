// The compression part's server in its own process: `node <bundle of this file>`, forked by
// bench/compression/bench.ts; reports its port over IPC and exits on `stop`.
import { startBooksServer } from './server.ts';

export interface BooksReady {
  readonly type: 'ready';
  readonly port: number;
}

if (process.send === undefined) {
  console.error('usage: under fork, with IPC');
  process.exit(2);
}
const server = await startBooksServer(0);
process.on('message', (message: { type?: unknown }) => {
  if (message?.type === 'stop') void server.close().finally(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready', port: server.port } satisfies BooksReady);
