// Sends a vector's request (spec/runtimes/vectors.ts) and collects the answer as it arrived: over
// HTTP with node:http (which adds nothing but Host and Connection: no Accept, no Accept-Encoding, no
// decompression), or to a fetch handler in process (a `Request` gets no header but those given and
// Content-Length; the `Response`'s bytes are read as they are). The compression vectors depend on
// both; runtimes.spec.ts checks them ("the client the vectors are sent with").
import { request as httpRequest } from 'node:http';
import type { VectorRequest } from '../runtimes/vectors.ts';

/** An answer: status, headers (names lower case, repeats joined by ', '), Set-Cookie lines, body. */
export interface Received {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly setCookie: readonly string[];
  readonly body: Uint8Array;
}

/** The request's body in `chunks` pieces of about equal size. */
function piecesOf(body: Uint8Array, chunks: number): Uint8Array[] {
  const size = Math.ceil(body.byteLength / chunks);
  const out: Uint8Array[] = [];
  for (let at = 0; at < body.byteLength; at += size) out.push(body.subarray(at, at + size));
  return out;
}

const bodyBytes = (body: string | Uint8Array) => (typeof body === 'string' ? new TextEncoder().encode(body) : body);

/** Sends `vector` to `base` (`http://127.0.0.1:<port>`) on a fresh connection. */
export function sendOverHttp(base: string, vector: VectorRequest, timeoutMs = 10_000): Promise<Received> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...vector.headers };
    const body = vector.body === undefined ? undefined : bodyBytes(vector.body);
    // Without Content-Length node:http sends the body chunked.
    if (body !== undefined && vector.chunks === undefined) headers['content-length'] = String(body.byteLength);
    let done = false;
    const req = httpRequest(`${base}${vector.path}`, { method: vector.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => finish(e));
      res.on('end', () => {
        const lines: Record<string, string> = {};
        const setCookie: string[] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          const value = res.rawHeaders[i + 1]!;
          if (name === 'set-cookie') setCookie.push(value);
          else lines[name] = lines[name] === undefined ? value : `${lines[name]}, ${value}`;
        }
        finish(undefined, {
          status: res.statusCode ?? 0,
          headers: lines,
          setCookie,
          body: new Uint8Array(Buffer.concat(chunks)),
        });
      });
    });
    const timer = setTimeout(() => {
      finish(new Error(`no complete answer to ${vector.method} ${vector.path} within ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    function finish(error: Error | undefined, received?: Received) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error !== undefined) reject(error);
      else resolve(received!);
    }
    // A server answering before it read the whole body (413, 401) may close the connection while
    // the rest is being written: what counts is the answer, which may already be in.
    req.on('error', (e) => setTimeout(() => finish(e), 200));
    if (body === undefined) req.end();
    else if (vector.chunks === undefined) req.end(body);
    else {
      for (const piece of piecesOf(body, vector.chunks)) req.write(piece);
      req.end();
    }
  });
}

/** Calls `handler` with `vector` as a `Request` built as a runtime would build it, and `platform` after it. */
export async function sendInProcess(
  handler: (request: Request, ...platform: unknown[]) => Promise<Response>,
  vector: VectorRequest,
  platform: readonly unknown[] = [],
): Promise<Received> {
  const headers = new Headers(vector.headers);
  const init: RequestInit & { duplex?: 'half' } = { method: vector.method, headers };
  if (vector.body !== undefined) {
    const body = bodyBytes(vector.body);
    if (vector.chunks === undefined) {
      // As on the wire: a body of known length says so.
      headers.set('content-length', String(body.byteLength));
      init.body = body as Uint8Array<ArrayBuffer>;
    } else {
      const pieces = piecesOf(body, vector.chunks);
      init.body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = pieces.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
      });
      init.duplex = 'half';
    }
  }
  const response = await handler(new Request(`http://127.0.0.1${vector.path}`, init), ...platform);
  const lines: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') lines[name] = value;
  });
  return {
    status: response.status,
    headers: lines,
    setCookie: response.headers.getSetCookie(),
    body: new Uint8Array(await response.arrayBuffer()),
  };
}
