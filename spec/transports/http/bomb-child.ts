// Run by spec/transports/http/inflate-bomb.spec.ts and spec/transports/fetch/compression.spec.ts
// in a child process, so that its peak memory is its own:
//   node --import tsx spec/transports/http/bomb-child.ts <http|fetch> <gzip|deflate|br> <inflated MiB> <maxBodyBytes>
// Builds a body of zeros compressed with the coding (streamed: the zeros are never held whole),
// serves a registry on the transport, warms the path up with a small bomb, then posts the big one
// and prints the status, the time and how much the process's peak RSS (a high-water mark, so no
// sampling) grew while it was answered.
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { Registry, meta, method, service, t } from '../../../index.ts';
import { toFetchHandler } from '../../../transports/fetch/index.ts';
import { DEFAULT_MAX_BUFFERED_BODY_BYTES, HttpServer } from '../../../transports/http/index.ts';

const MiB = 1024 * 1024;

class Sink {
  take(text: string): number {
    return text.length;
  }
}
meta(Sink, service({ take: method([t.string()], t.u32()) }));

/** `mib` MiB of zeros compressed with `coding`, fed 1 MiB at a time. */
async function bomb(coding: string, mib: number): Promise<Buffer> {
  const stream =
    coding === 'gzip'
      ? zlib.createGzip()
      : coding === 'deflate'
        ? zlib.createDeflate()
        : zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => stream.on('end', resolve));
  const zeros = Buffer.alloc(MiB, 0x30);
  for (let i = 0; i < mib; i++) {
    if (!stream.write(zeros)) await new Promise((resolve) => stream.once('drain', resolve));
  }
  stream.end();
  await done;
  return Buffer.concat(chunks);
}

/** Posts `body` and resolves with the status, the answer read and dropped. */
type Post = (body: Buffer) => Promise<number>;

async function transport(
  kind: string,
  coding: string,
  limit: number,
): Promise<{ post: Post; stop: () => Promise<void> }> {
  const registry = new Registry({ maxBodyBytes: limit, onError: () => {} }).on(new Sink());
  const headers = { 'content-type': 'application/json', 'content-encoding': coding };
  // A limit above the bodies the server holds at once by default (the control case) raises that too.
  const maxBufferedBodyBytes = Math.max(DEFAULT_MAX_BUFFERED_BODY_BYTES, 2 * limit);
  if (kind === 'fetch') {
    const handle = toFetchHandler('/api', registry.endpoints, { maxBodyBytes: limit, maxBufferedBodyBytes });
    return {
      post: async (body) => {
        const response = await handle(
          new Request('http://in-process/api/take', { method: 'POST', body: new Uint8Array(body), headers }),
        );
        await response.arrayBuffer();
        return response.status;
      },
      stop: async () => {},
    };
  }
  const server = new HttpServer({ maxBodyBytes: limit, maxBufferedBodyBytes, onError: () => {} })
    .mount('/api', registry.endpoints)
    .bind(0);
  await server.start();
  return {
    post: (body) =>
      new Promise((resolve, reject) => {
        const req = request(
          `${server.url}/api/take`,
          { method: 'POST', headers: { ...headers, 'content-length': body.length }, agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    stop: () => server.stop(),
  };
}

/** What the child reports. */
export interface BombResult {
  readonly status: number;
  readonly ms: number;
  /** How much the child's peak RSS grew while the bomb was answered, in MiB. */
  readonly growthMiB: number;
  readonly wireBytes: number;
}

/** Runs this file in a child process: `mib` MiB of zeros compressed with `coding`, posted to `kind` under `limit`. */
export function runBombChild(
  kind: 'http' | 'fetch',
  coding: 'gzip' | 'deflate' | 'br',
  mib: number,
  limit: number,
): Promise<BombResult> {
  const child = fileURLToPath(import.meta.url);
  const args = ['--expose-gc', '--import', 'tsx', child, kind, coding, String(mib), String(limit)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { timeout: 60_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`the child failed (${error.message.split('\n')[0]}): ${stderr.slice(-2000)}`));
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(last) as BombResult);
      } catch {
        reject(new Error(`no result from the child: ${stdout.slice(-2000)}`));
      }
    });
  });
}

if (process.argv[1]?.endsWith('bomb-child.ts')) {
  const [kind = 'http', coding = 'gzip', mib = '128', limit = String(MiB)] = process.argv.slice(2);
  const big = await bomb(coding, Number(mib));
  const small = await bomb(coding, 4);
  const { post, stop } = await transport(kind, coding, Number(limit));
  // The path warmed up, JIT and zlib's pool included, by bombs that stop at the same limit.
  for (let i = 0; i < 3; i++) await post(small);
  globalThis.gc?.();
  const before = process.resourceUsage().maxRSS;
  const start = performance.now();
  const status = await post(big);
  const ms = performance.now() - start;
  const growthMiB = (process.resourceUsage().maxRSS - before) / 1024;
  await stop();
  process.stdout.write(`${JSON.stringify({ status, ms, growthMiB, wireBytes: big.length })}\n`);
}
