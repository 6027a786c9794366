// Streams whose client went away while the source waits for an event that is rare (here: never
// comes), in a child server with a small heap: the server frees each at once (a generator's
// signal aborts and its `finally` runs, a ReadableStream source is cancelled), not when its source
// next yields. Bounded by counts: the spec polls the child's counters a bounded number of times.
import { expect } from 'chai';
import { request } from 'node:http';
import { ChildServers, type ChildServer } from '../../support/child-server.ts';

interface Counts {
  generators: number;
  finished: number;
  aborted: number;
  sources: number;
  cancelled: number;
  heapMiB: number;
}

function get(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path, agent: false }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (text += d))
        .on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
}

/** Opens a stream, reads its first bytes and leaves. */
function openAndLeave(port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', path, agent: false, headers: { accept: 'application/jsonl' } },
      (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      },
    );
    req.on('error', reject).end();
  });
}

async function counts(server: ChildServer): Promise<Counts> {
  return JSON.parse(JSON.parse(await get(server.port, '/api/stats')) as string) as Counts;
}

/** The counters once `settled` holds of them, asked for at most 200 times (each a round trip). */
async function settledCounts(server: ChildServer, settled: (c: Counts) => boolean): Promise<Counts> {
  let last = await counts(server);
  for (let i = 0; i < 200 && !settled(last); i++) last = await counts(server);
  return last;
}

describe('transports: a stream whose client went away (HttpServer, 48 MiB heap)', () => {
  const children = new ChildServers();
  after(() => children.end());
  const STREAMS = 3000;

  for (const [path, label] of [
    ['watchEvents', 'an async generator watching call.signal'],
    ['streamEvents', 'a ReadableStream'],
  ] as const) {
    it(`frees ${STREAMS} streams of ${label} as their clients leave`, async function () {
      this.timeout(120_000);
      const server = await children.start('spec/transports/streams/idle-feed-child.ts', {}, [
        '--max-old-space-size=48',
      ]);
      try {
        for (let opened = 0; opened < STREAMS; opened += 50) {
          await Promise.all(Array.from({ length: 50 }, () => openAndLeave(server.port, `/api/${path}`)));
        }
      } catch (error) {
        throw new Error(`${String(error)} (${server.state()})`);
      }
      const c = await settledCounts(server, (n) => n.finished === n.generators && n.cancelled === n.sources);
      expect(server.state()).to.equal('running');
      expect(c.generators + c.sources, 'streams opened').to.equal(STREAMS);
      expect(c.aborted, 'calls whose signal aborted').to.equal(STREAMS);
      expect(c.generators - c.finished, 'generators held').to.equal(0);
      expect(c.sources - c.cancelled, 'ReadableStream sources held').to.equal(0);
    });
  }
});
