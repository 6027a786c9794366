// lacquer's fetch handler on Bun: the HTTP bench's BenchService in a Registry read strictly, as the
// Node server has it, served by `Bun.serve`. Run by bench/runtimes/bun.ts as `bun run <this file>`;
// prints `LISTENING <port>` once it listens on 127.0.0.1, on a port the system chose.
import { Registry } from '../../index.ts';
import { toFetchHandler } from '../../transports/fetch/index.ts';
import { PREFIX } from '../http/data.ts';
import { BenchService } from '../http/servers/lacquer.ts';

/** The little of Bun's API used here (no @types/bun in this repository). */
declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(request: Request, server: unknown): Promise<Response> }): {
    readonly port: number;
  };
};

const handle = toFetchHandler(PREFIX, new Registry({ errorOnMissingKeys: true }).on(new BenchService()).endpoints);
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle });
console.log(`LISTENING ${server.port}`);
