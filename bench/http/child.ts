// A benchmark server in its own process: `node <bundle of child.ts> <kind>` (see build-child.ts), started by
// processes.ts. It reports its port over IPC, answers questions about its memory and CPU time, and
// exits on 'stop'.
import { SERVERS, isServerKind } from './servers/index.ts';

export type ParentMessage = { type: 'stats' } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; port: number }
  | { type: 'stats'; rss: number; heapUsed: number; cpuMicros: number };

const kind = process.argv[2] ?? '';
if (!isServerKind(kind) || process.send === undefined) {
  console.error(`usage (under fork): child.ts ${Object.keys(SERVERS).join('|')}`);
  process.exit(2);
}
const send = (message: ChildMessage) => process.send!(message);

const server = await SERVERS[kind](0);
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
send({ type: 'ready', port: server.port });
