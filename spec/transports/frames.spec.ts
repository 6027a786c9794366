// Answers whose body is frames (an async sequence of byte chunks), on both transports: each frame
// reaches the client as it is produced, a HEAD or a client gone stops the source, a source that
// fails cuts the connection (never a clean end), and frames are never compressed whole.
import { expect } from 'chai';
import { request, type IncomingMessage } from 'node:http';
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { HttpServer } from '../../transports/http/index.ts';
import type { EndpointRequest, EndpointResponse, Frames, MountableEndpoints } from '../../index.ts';
import { serveFetch, type Served } from '../support/fetch-server.ts';

const utf8 = new TextEncoder();

/** A latch a frame source waits on. */
interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}
function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** What the frame source of one request did. */
interface Source {
  readonly sent: string[];
  stopped: boolean;
}

/**
 * Endpoints at `/frames`: frames `a`, then `b` once `next` opens, then `c`; `/endless` never ends;
 * `/broken` fails after `a`.
 */
function framesEndpoints(sources: Source[], next: () => Gate): MountableEndpoints {
  const answer =
    (frames: (source: Source) => Frames) =>
    (_request: EndpointRequest): EndpointResponse => {
      const source: Source = { sent: [], stopped: false };
      sources.push(source);
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: frames(source) };
    };
  async function* three(source: Source): AsyncGenerator<Uint8Array> {
    try {
      source.sent.push('a');
      yield utf8.encode('a'.repeat(4096));
      await next().opened;
      source.sent.push('b');
      yield utf8.encode('b'.repeat(4096));
      source.sent.push('c');
      yield utf8.encode('c');
    } finally {
      source.stopped = true;
    }
  }
  async function* endless(source: Source): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        source.sent.push('x');
        yield utf8.encode('x'.repeat(1024));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      source.stopped = true;
    }
  }
  async function* broken(source: Source): AsyncGenerator<Uint8Array> {
    try {
      source.sent.push('a');
      yield utf8.encode('a');
      throw new Error('the source failed');
    } finally {
      source.stopped = true;
    }
  }
  return {
    routes: new Map([
      ['/frames', new Map([['GET', answer(three)]])],
      ['/broken', new Map([['GET', answer(broken)]])],
      ['/endless', new Map([['GET', answer(endless)]])],
    ]) as MountableEndpoints['routes'],
  };
}

/** Sends a request and hands over the answer as it starts, its body unread. */
function open(url: string, method = 'GET', headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers, agent: false }, resolve).on('error', reject).end();
  });
}

/** Reads an answer's body to its end: the text, or the error that cut it. */
function readAll(res: IncomingMessage): Promise<{ text: string; error?: Error }> {
  return new Promise((resolve) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolve({ text }));
    res.on('error', (error) => resolve({ text, error }));
    res.on('aborted', () => resolve({ text, error: new Error('aborted') }));
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 3000) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const SERVERS: readonly { readonly kind: string; serve(endpoints: MountableEndpoints): Promise<Served> }[] = [
  {
    kind: 'HttpServer',
    async serve(endpoints) {
      const server = await new HttpServer().mount('', endpoints).bind(0).start();
      return { url: server.url, stop: () => server.stop() };
    },
  },
  { kind: 'fetch handler', serve: (endpoints) => serveFetch(toFetchHandler('', endpoints)) },
];

for (const { kind, serve } of SERVERS) {
  describe(`answers made of frames, on ${kind}`, () => {
    let served: Served;
    const sources: Source[] = [];
    let gates: Gate[] = [];
    before(async () => {
      served = await serve(
        framesEndpoints(sources, () => {
          const g = gate();
          gates.push(g);
          return g;
        }),
      );
    });
    after(() => served.stop());
    beforeEach(() => {
      sources.length = 0;
      gates = [];
    });

    it('reach the client frame by frame, without Content-Length, with the request id', async () => {
      const res = await open(`${served.url}/frames`, 'GET', { 'x-request-id': 'frames-1' });
      expect(res.statusCode).to.equal(200);
      expect(res.headers['content-length']).to.equal(undefined);
      expect(res.headers['x-request-id']).to.equal('frames-1');
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      // The first frame arrives while the source still waits to make the second.
      await until(() => text.length === 4096, 'the first frame arrives');
      expect(sources[0]!.sent).to.deep.equal(['a']);
      gates[0]!.open();
      await new Promise((resolve) => res.on('end', resolve));
      expect(text).to.equal('a'.repeat(4096) + 'b'.repeat(4096) + 'c');
      expect(sources[0]!.stopped).to.equal(true);
    });

    it('are not compressed, whatever Accept-Encoding says', async () => {
      const res = await open(`${served.url}/frames`, 'GET', { 'accept-encoding': 'gzip, br' });
      await until(() => gates.length === 1, 'the source waits');
      gates[0]!.open();
      const { text, error } = await readAll(res);
      expect(error).to.equal(undefined);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(text).to.have.length(4096 * 2 + 1);
    });

    it('are not asked for on HEAD: the source is stopped', async () => {
      const res = await open(`${served.url}/frames`, 'HEAD');
      const { text } = await readAll(res);
      expect(res.statusCode).to.equal(200);
      expect(text).to.equal('');
      await until(
        () => sources.length === 1 && (sources[0]!.sent.length === 0 || sources[0]!.stopped),
        'the source stops',
      );
    });

    it('stop when the client goes away: the source is told to stop', async () => {
      const res = await open(`${served.url}/endless`);
      await new Promise((resolve) => res.once('data', resolve));
      res.destroy();
      await until(() => sources[0]!.stopped, 'the source is stopped');
      const sent = sources[0]!.sent.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sources[0]!.sent.length, 'no frame asked for once stopped').to.equal(sent);
    });

    it('from a source that fails cut the connection: the client reads an error, not a clean end', async () => {
      const { text, error } = await open(`${served.url}/broken`).then(readAll, (failed: Error) => ({
        text: '',
        error: failed,
      }));
      expect(error, 'a cut answer').to.be.instanceOf(Error);
      expect(['', 'a']).to.include(text);
      expect(sources[0]!.stopped).to.equal(true);
    });
  });
}

describe('answers made of frames, on HttpServer with a short writeTimeoutMs', () => {
  it('are not cut while the source is idle and the client has read everything written', async function () {
    this.timeout(5000);
    async function* slow(): AsyncGenerator<Uint8Array> {
      yield utf8.encode('a');
      await new Promise((resolve) => setTimeout(resolve, 600));
      yield utf8.encode('b');
    }
    const endpoints: MountableEndpoints = {
      routes: new Map([
        ['/slow', new Map([['GET', () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: slow() })]])],
      ]) as MountableEndpoints['routes'],
    };
    const server = await new HttpServer({ writeTimeoutMs: 100 }).mount('', endpoints).bind(0).start();
    try {
      const { text, error } = await readAll(await open(`${server.url}/slow`));
      expect(error).to.equal(undefined);
      expect(text).to.equal('ab');
    } finally {
      await server.stop();
    }
  });
});

describe('answers made of frames, on HttpServer, to a client that stops reading', () => {
  it('ask the source for no more than the socket can buffer: a frame is pulled only once the last is taken', async function () {
    this.timeout(5000);
    let made = 0;
    let stopped = false;
    async function* endless(): AsyncGenerator<Uint8Array> {
      try {
        for (;;) {
          made++;
          yield new Uint8Array(64 * 1024);
        }
      } finally {
        stopped = true;
      }
    }
    const endpoints: MountableEndpoints = {
      routes: new Map([
        [
          '/endless',
          new Map([
            ['GET', () => ({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: endless() })],
          ]),
        ],
      ]) as MountableEndpoints['routes'],
    };
    const server = await new HttpServer().mount('', endpoints).bind(0).start();
    try {
      const res = await open(`${server.url}/endless`);
      res.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const early = made;
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Whatever the kernel's buffers hold, the source has stopped being asked: no frame in 300 ms.
      expect(made, 'frames made while the client does not read').to.equal(early);
      expect(made * 64 * 1024).to.be.below(64 * 1024 * 1024);
      res.destroy();
      await until(() => stopped, 'the source is stopped');
    } finally {
      await server.stop();
    }
  });
});
