// A benchmark server's side of its process: it reports the port over IPC, answers questions about
// its memory and CPU time, and exits on 'stop'. Each server kind's bundle (build-child.ts) runs
// `await serveChild(start)` with its own start function; this module imports nothing, so that the
// process loads the server's stack and no other.
import type { RunningServer } from './servers/types.ts';

export type ParentMessage = { type: 'stats' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; port: number; node: string }
  | { type: 'stats'; rss: number; heapUsed: number; cpuMicros: number };

export async function serveChild(start: (port: number) => Promise<RunningServer>): Promise<void> {
  const parent = process.send?.bind(process);
  if (parent === undefined) {
    console.error('a bench server runs under fork (bench/http/processes.ts), with an IPC channel');
    process.exit(2);
  }
  const send = (message: ChildMessage) => parent(message);
  const server = await start(0);
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stats') {
      const { rss, heapUsed } = process.memoryUsage();
      const { user, system } = process.cpuUsage();
      send({ type: 'stats', rss, heapUsed, cpuMicros: user + system });
    } else if (message.type === 'stop') {
      // A normal exit, so that --cpu-prof writes its profile.
      void server.close().finally(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
  send({ type: 'ready', port: server.port, node: process.version });
}
