// A small HTTP client over node:http for specs: one fresh connection per request unless an agent is given.
import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import type { HttpServer } from '../../transports/http/index.ts';

export interface Reply {
  status: number;
  /** The reason phrase of the status line. */
  statusMessage: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json(): any;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string | number>;
  body?: string | Uint8Array;
  agent?: Agent;
}

/** Sends one request and reads the whole answer. */
export function send(url: string, options: SendOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    // Node frames bodies of GET and DELETE only with an explicit length.
    if (
      options.body !== undefined &&
      headers['content-length'] === undefined &&
      headers['transfer-encoding'] === undefined
    ) {
      headers['content-length'] = Buffer.byteLength(options.body);
    }
    const req = request(url, { method: options.method ?? 'GET', headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          body,
          text,
          json: () => JSON.parse(text),
        });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Sends a JSON body with `Content-Type: application/json`. */
export function post(url: string, body: string, method = 'POST', headers: Record<string, string> = {}): Promise<Reply> {
  return send(url, { method, body, headers: { 'content-type': 'application/json', ...headers } });
}

/** Starts `server` on 127.0.0.1, a free port; returns its URL. */
export async function listen(server: HttpServer): Promise<string> {
  await server.bind(0).start();
  return server.url;
}

/** Writes raw bytes on a fresh connection and reads until the server closes it. */
export async function raw(port: number, bytes: string): Promise<string> {
  const { connect } = await import('node:net');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}
