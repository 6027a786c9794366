// Compression of answers and inflation of request bodies with the Fetch API's CompressionStream
// and DecompressionStream: no node:*, so the handler runs unchanged on Workers, Deno and Bun. What
// to compress, and with what, is decided in transports/rest/content-coding.ts.
import { hasZlibHeader, type RequestCoding, type ResponseCoding } from '../protocol/pipeline/content-coding.ts';
import type { Inflated } from '../protocol/pipeline/request-body.ts';
import type { Codings } from '../protocol/pipeline/codings.ts';
import { readAll } from './body.ts';

/** Which formats the runtime's streams take, probed once each on first use (never at module scope: workerd forbids some work there). */
let probed: Map<string, boolean> | undefined;

function takes(kind: 'CompressionStream' | 'DecompressionStream', format: string): boolean {
  probed ??= new Map();
  const key = `${kind} ${format}`;
  let ok = probed.get(key);
  if (ok === undefined) {
    const Stream = (globalThis as Record<string, unknown>)[kind] as (new (format: string) => unknown) | undefined;
    try {
      ok = typeof Stream === 'function' && new Stream(format) !== undefined;
    } catch {
      // A runtime without the format throws a TypeError at construction (Node: br, zstd).
      ok = false;
    }
    probed.set(key, ok);
  }
  return ok;
}

/** Of `wanted`, the codings this runtime's `CompressionStream` can produce (gzip everywhere; br, zstd where it has them). */
export function webResponseCodings(wanted: readonly ResponseCoding[]): ResponseCoding[] {
  return wanted.filter((coding) => takes('CompressionStream', coding));
}

let requestCodings: readonly RequestCoding[] | undefined;

/** The codings this runtime's `DecompressionStream` can inflate: gzip and deflate, br and zstd where it has them. */
export function webRequestCodings(): readonly RequestCoding[] {
  return (requestCodings ??= (['gzip', 'deflate', 'br', 'zstd'] as const).filter((coding) =>
    takes('DecompressionStream', coding),
  ));
}

const utf8 = new TextEncoder();

/** Compresses an answer's body with `coding`, whole: the answer's `Content-Length` is the compressed length. */
export async function compress(coding: ResponseCoding, body: string | Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream(coding as CompressionFormat);
  const writer = stream.writable.getWriter();
  const writing = writer
    .write((typeof body === 'string' ? utf8.encode(body) : body) as Uint8Array<ArrayBuffer>)
    .then(() => writer.close());
  writing.catch(() => {});
  const out = await readAll(stream.readable, Infinity);
  await writing;
  if (out.kind !== 'ok') throw new Error(`lacquer/fetch: the ${coding} CompressionStream failed`);
  return out.body;
}

/**
 * Inflates a request body read whole (its wire size already under `limit`), reading at most
 * `limit` bytes out of the `DecompressionStream`: once over, it is cancelled, so a bomb costs the
 * limit, not what it would inflate to. `deflate` is read zlib-wrapped (RFC 1950) or raw (RFC
 * 1951), whichever the bytes are.
 */
export async function inflate(coding: RequestCoding, bytes: Uint8Array, limit: number): Promise<Inflated> {
  const format = coding === 'deflate' && !hasZlibHeader(bytes) ? 'deflate-raw' : coding;
  let stream: DecompressionStream;
  try {
    stream = new DecompressionStream(format as CompressionFormat);
  } catch {
    return 'corrupt';
  }
  const writer = stream.writable.getWriter();
  // Rejects when the data is corrupt or the reading side is cancelled: the read below tells which.
  writer
    .write(bytes as Uint8Array<ArrayBuffer>)
    .then(() => writer.close())
    .catch(() => {});
  const read = await readAll(stream.readable, limit);
  if (read.kind === 'ok') return read.body;
  return read.kind === 'too-large' ? 'too-large' : 'corrupt';
}

/** The Fetch API's codings, as the pipeline takes them; the runtime's formats are probed on first use. */
export const WEB_CODINGS: Codings = {
  requestCodings: webRequestCodings,
  responseCodings: webResponseCodings,
  compress,
  inflate,
};
