// The ceiling: a bare node:http handler, JSON.parse and JSON.stringify, no validation at all.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLAIN_USERS, PREFIX } from '../plain.ts';
import type { RunningServer } from './types.ts';

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startNodeHttp(port = 0): Promise<RunningServer> {
  const byId = new Map(PLAIN_USERS.map((u) => [u.id, u]));
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === `${PREFIX}/listUsers`) return send(res, 200, JSON.stringify(PLAIN_USERS));
    if (req.method === 'GET' && req.url?.startsWith(`${PREFIX}/users/`)) {
      const found = byId.get(Number(req.url.slice(PREFIX.length + 7)));
      return found === undefined ? send(res, 404, '{"message":"no such user"}') : send(res, 200, JSON.stringify(found));
    }
    if (req.method !== 'POST' || (req.url !== `${PREFIX}/createBook` && req.url !== `${PREFIX}/getUserById`)) {
      return send(res, 404, '{"message":"not found"}');
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let value: unknown;
      try {
        value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, '{"message":"malformed JSON"}');
      }
      if (req.url === `${PREFIX}/createBook`) return send(res, 200, JSON.stringify(value));
      const found = byId.get(value as number);
      if (found === undefined) return send(res, 404, '{"message":"no such user"}');
      send(res, 200, JSON.stringify(found));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
