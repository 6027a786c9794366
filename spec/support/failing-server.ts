// A hand-made node:http server for the client's resilience specs: it answers its requests in turn
// with the steps it is given (an answer, a dropped socket, a request left hanging) and records each.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. */
export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** `performance.now()` when the request's body had arrived. */
  readonly at: number;
  /** Resolves when the request's connection or answer closes (a client that gave up closes it). */
  readonly closed: Promise<void>;
}

/** What the server does with one request. */
export type Step = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers `status` with a JSON body (`"ok"` by default) and `headers`. */
export const answer =
  (status: number, headers: Record<string, string> = {}, body = '"ok"'): Step =>
  (_req, res) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  };

/** Destroys the socket without answering: the client sees a network error. */
export const drop: Step = (req) => req.socket.destroy();

/** Never answers. */
export const hang: Step = () => {};

export interface FailingServer {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

/** Listens on a free port; request n gets `steps[n]`, and the requests after the last step get the last. */
export async function failingServer(steps: readonly Step[]): Promise<FailingServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const step = steps[Math.min(seen.length, steps.length - 1)]!;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        closed,
      });
      step(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
