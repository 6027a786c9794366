// Serves a Fetch API handler over node:http, as a runtime built on Request/Response would: the
// request body is a stream the handler pulls (and may cancel), the Response is written back.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running server: its URL and a way to stop it. */
export interface Served {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * The body of `req` as a pull-driven stream: nothing is read until the handler asks for it.
 * Cancelling drops the rest of the upload instead of resetting the connection (so the client
 * still receives the answer), and gives up on the connection after 4 MiB, as HttpServer does.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let closed = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer) => {
          if (closed) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on('end', () => {
          if (!closed) controller.close();
          closed = true;
        });
        req.on('error', (error) => {
          if (!closed) controller.error(error);
          closed = true;
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        closed = true;
        let dropped = 0;
        req.on('data', (chunk: Buffer) => {
          dropped += chunk.length;
          if (dropped > 4 * 1024 * 1024) req.socket.destroy();
        });
        req.resume();
      },
    },
    { highWaterMark: 1 },
  );
}

/** How {@link serveFetch} serves a handler, beyond what every runtime does. */
export interface ServeFetchOptions {
  /**
   * The arguments passed to the handler after the request, as a runtime does (Deno's `info`,
   * Workers' `env` and `ctx`). Default none.
   */
  platform?: (req: IncomingMessage) => readonly unknown[];
  /**
   * Largest request head, in bytes (Node's `maxHeaderSize`). Default Node's 16 KiB; Deno and
   * workerd take larger heads, which a spec may need to reach the handler at all.
   */
  maxHeaderSize?: number;
}

/** The answer's headers for `res.writeHead`: each `Set-Cookie` its own line, as runtimes write them. */
function headLines(headers: Headers): Record<string, string | string[]> {
  const lines: Record<string, string | string[]> = {};
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') lines[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) lines['set-cookie'] = cookies;
  return lines;
}

/**
 * A signal that aborts when the client goes away before the answer is written, as the
 * `Request.signal` of Deno, Bun and workerd does.
 */
function disconnectSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new DOMException('the client disconnected', 'AbortError'));
  });
  return controller.signal;
}

/** Starts node:http on 127.0.0.1 (a free port) in front of `handler`. */
export async function serveFetch(
  handler: (request: Request, ...platform: unknown[]) => Promise<Response>,
  options: ServeFetchOptions = {},
): Promise<Served> {
  const serverOptions = options.maxHeaderSize === undefined ? {} : { maxHeaderSize: options.maxHeaderSize };
  const server = createServer(serverOptions, (req, res) => {
    void (async () => {
      const headers = new Headers();
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const method = req.method ?? 'GET';
      const hasBody = method !== 'GET' && method !== 'HEAD';
      const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: disconnectSignal(res) };
      if (hasBody) {
        init.body = bodyStream(req);
        init.duplex = 'half';
      }
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, init);
      const response = await handler(request, ...(options.platform?.(req) ?? []));
      // The reason phrase the handler chose, as a runtime writing HTTP/1.1 would use it.
      if (response.statusText === '') res.writeHead(response.status, headLines(response.headers));
      else res.writeHead(response.status, response.statusText, headLines(response.headers));
      // A body of unknown length (a stream) gets its headers at once, as runtimes send them.
      if (response.body !== null && !response.headers.has('content-length')) res.flushHeaders();
      if (response.body !== null) {
        // A client gone cancels the body, as runtimes do: the handler's source is told to stop.
        const reader = response.body.getReader();
        const gone = () => {
          if (!res.writableFinished) reader.cancel().catch(() => {});
        };
        res.once('close', gone);
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // Pulled only once the connection takes more, as runtimes pull a body.
          if (!res.write(value) && !res.destroyed)
            await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
        }
        res.off('close', gone);
      }
      res.end();
      // A body the handler never touched (a GET-like answer to a POST) is drained, not left pending.
      if (hasBody && !req.complete) req.resume();
    })().catch((error: unknown) => {
      console.error('fetch-server: the handler failed', error);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
