// The vectors' app (./app.ts) on `Bun.serve`: started by runtimes.spec.ts as
// `bun --no-env-file run spec/runtimes/bun-server.ts`; prints `LISTENING <port>` once it listens on
// 127.0.0.1, on a port the system chose.
import { makeApp } from './app.ts';

/** The little of Bun's API used here (no @types/bun in this repository). */
interface BunServer {
  readonly port: number;
  requestIP(request: Request): { readonly address: string } | null;
}
declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: BunServer): Promise<Response>;
  }): BunServer;
};

// As docs/deployment.md shows it: Bun calls `fetch(request, server)`, so `call.platform` is
// `[server]`, and the client's address is `server.requestIP(request)`.
const handle = makeApp({ ip: (request) => server.requestIP(request)?.address });
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle });
console.log(`LISTENING ${server.port}`);
