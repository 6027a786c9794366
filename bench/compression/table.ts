// The compression part of the console output: per codec, bytes on the wire and req/s of identity,
// gzip and br, and each coding's req/s against identity.
import { roundRatio } from '../http/ratio.ts';
import { kilo } from '../http/rounds.ts';
import type { CompressionResults } from './bench.ts';

const bytes = (n: number) => Math.round(n).toLocaleString('en');

export function compressionTable(r: CompressionResults): string {
  const c = r.config;
  const lines = [
    `\ncompression: ${r.payload}, lacquer HttpServer (br quality 4, gzip level 6), by Accept-Encoding;`,
    `  autocannon, ${c.connections} connections, pipelining ${c.pipelining}, ${c.rounds} alternating rounds × ${c.seconds} s, medians;`,
    "  body: the answer's body as sent; wire: bytes autocannon read per answer, headers included; cpu/req: the server process's",
  ];
  for (const { codec, identityBytes, results } of r.cases) {
    const identity = results.find((m) => m.coding === 'identity');
    lines.push(`${codec} (${bytes(identityBytes)} bytes uncompressed)`);
    for (const m of results) {
      const note =
        m === identity || identity === undefined
          ? ''
          : `${(identityBytes / m.bodyBytes).toFixed(1)}x smaller, req/s ${roundRatio(m, identity).toFixed(2)}x identity`;
      lines.push(
        `  ${`${codec} ${m.coding}`.padEnd(18)} body ${bytes(m.bodyBytes).padStart(7)} B  wire ${bytes(m.bytesPerRequest).padStart(7)} B  ${kilo(m.requestsPerSec).padStart(7)} req/s   p99 ${`${m.p99Ms} ms`.padEnd(7)} cpu/req ${`${m.cpuMicrosPerRequest.toFixed(0)} µs`.padStart(7)}   ${note}`,
      );
    }
  }
  return lines.join('\n');
}
