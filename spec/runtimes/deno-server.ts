// The vectors' app (./app.ts) on `Deno.serve`: started by runtimes.spec.ts as
// `deno run --allow-net=127.0.0.1 spec/runtimes/deno-server.ts`; prints `LISTENING <port>` once it
// listens on 127.0.0.1, on a port the system chose.
import { makeApp } from './app.ts';

/** The little of Deno's API used here (no Deno types in this repository). */
interface ServeHandlerInfo {
  readonly remoteAddr: { readonly transport: string; readonly hostname: string; readonly port: number };
}
declare const Deno: {
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request, info: ServeHandlerInfo) => Promise<Response>,
  ): unknown;
};

// As docs/deployment.md shows it: Deno calls the handler with `(request, info)`, so `call.platform`
// is `[info]`, and the client's address is `info.remoteAddr.hostname`.
const handle = makeApp({ ip: (_request, info) => (info as ServeHandlerInfo).remoteAddr.hostname });
Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`LISTENING ${port}`) }, handle);
