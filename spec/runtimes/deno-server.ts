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
    options: {
      hostname: string;
      port: number;
      automaticCompression: boolean;
      onListen(address: { port: number }): void;
    },
    handler: (request: Request, info: ServeHandlerInfo) => Promise<Response>,
  ): unknown;
};

// As docs/deployment.md shows it: Deno calls the handler with `(request, info)`, so `call.platform`
// is `[info]`, and the client's address is `info.remoteAddr.hostname`.
const handle = makeApp({ ip: (_request, info) => (info as ServeHandlerInfo).remoteAddr.hostname });
// `automaticCompression: false`: the answers must be the fetch handler's own. Deno 2.9.6 compresses
// nothing by default (denoland/deno#35486), but `DENO_SERVE_AUTOMATIC_COMPRESSION=1` in the
// environment turns it on, and then Deno gzips or brotlis every answer lacquer left uncompressed
// (those under the 1 KiB threshold, those for `Accept-Encoding: br`), dropping their
// Content-Length; lacquer's own compressed answers it leaves alone. The option outranks the variable.
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: 0,
    automaticCompression: false,
    onListen: ({ port }) => console.log(`LISTENING ${port}`),
  },
  handle,
);
