// The compression part's requests (each codec's `Accept` with an `Accept-Encoding` of identity, gzip
// or br) and the check that an answer is the 1,000 books in that codec, in that coding, really
// compressed: read with node:http, which inflates nothing, unlike fetch.
import { deepStrictEqual } from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { cbor } from '../../codecs/cbor/index.ts';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import type { BenchRequest } from '../http/requests.ts';
import { BOOKS, BOOKS_PATH } from './server.ts';

export type Codec = 'json' | 'msgpack' | 'cbor';
export type Coding = 'identity' | 'gzip' | 'br';

export const CODECS: readonly Codec[] = ['json', 'msgpack', 'cbor'];
export const CODINGS: readonly Coding[] = ['identity', 'gzip', 'br'];

const MEDIA: Record<Codec, string> = {
  json: 'application/json',
  msgpack: 'application/msgpack',
  cbor: 'application/cbor',
};
const DECODERS = { json, msgpack, cbor } as const;
const INFLATE: Record<Coding, (b: Buffer) => Buffer> = {
  identity: (b) => b,
  gzip: gunzipSync,
  br: brotliDecompressSync,
};
const STRICT = { errorOnMissingKeys: true, errorOnUnknownKeys: true } as const;

export function booksRequest(codec: Codec, coding: Coding): BenchRequest {
  return {
    method: 'GET',
    path: BOOKS_PATH,
    headers: { accept: MEDIA[codec], 'accept-encoding': coding },
    body: undefined,
  };
}

export interface CheckedAnswer {
  /** Bytes of the body as sent (compressed, or not). */
  readonly bodyBytes: number;
  /** Bytes of the body once inflated: the codec's own size. */
  readonly identityBytes: number;
}

function get(
  baseUrl: string,
  req: BenchRequest,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = request(baseUrl + req.path, { method: req.method, headers: req.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end();
  });
}

/**
 * Sends the request once; throws unless the answer is 200 in `codec`, with `Content-Encoding: coding`
 * (none for identity) and a `Content-Length` of the bytes sent, smaller than the codec's own size when
 * compressed, and inflates and decodes (strictly) to exactly the 1,000 books.
 */
export async function checkBooksAnswer(baseUrl: string, codec: Codec, coding: Coding): Promise<CheckedAnswer> {
  const res = await get(baseUrl, booksRequest(codec, coding));
  const where = `GET ${baseUrl}${BOOKS_PATH} (${codec}, Accept-Encoding: ${coding})`;
  if (res.status !== 200) throw new Error(`${where}: status ${res.status}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith(MEDIA[codec])) throw new Error(`${where}: content-type ${type}`);
  const encoding = res.headers['content-encoding'];
  if ((coding === 'identity' ? undefined : coding) !== encoding)
    throw new Error(`${where}: content-encoding ${encoding ?? '(none)'}`);
  if (Number(res.headers['content-length']) !== res.body.length)
    throw new Error(`${where}: content-length ${res.headers['content-length']} for ${res.body.length} bytes`);
  const inflated = INFLATE[coding](res.body);
  if (coding !== 'identity' && res.body.length >= inflated.length)
    throw new Error(`${where}: ${res.body.length} bytes, not smaller than the ${inflated.length} inflated`);
  deepStrictEqual(DECODERS[codec].decode(BOOKS.type, inflated, STRICT), BOOKS.value, `${where}: unexpected answer`);
  return { bodyBytes: res.body.length, identityBytes: inflated.length };
}
