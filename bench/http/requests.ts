// The HTTP request of one endpoint in one wire format, and the check that an answer is the right one.
import { deepStrictEqual } from 'node:assert/strict';
import { json } from '../../codecs/json/index.ts';
import { msgpack } from '../../codecs/msgpack/index.ts';
import { RPC_PREFIX, USER_ID, type BenchEndpoint } from './data.ts';

export type WireFormat = 'json' | 'msgpack';

const MEDIA: Record<WireFormat, string> = { json: 'application/json', msgpack: 'application/msgpack' };

export interface BenchRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
}

export function requestFor(endpoint: BenchEndpoint, format: WireFormat): BenchRequest {
  const raw = format === 'json' ? endpoint.jsonBody : endpoint.msgpackBody;
  const body = raw === undefined ? undefined : Buffer.from(raw);
  const headers: Record<string, string> = { ...endpoint.headers, accept: MEDIA[format] };
  if (body !== undefined) headers['content-type'] = MEDIA[format];
  return { method: endpoint.method, path: endpoint.path, headers, body };
}

/** getUserById as the JSON-RPC request object `id` (the `lacquer+jsonrpc` server answers it). */
export function rpcCallText(id: number): string {
  return `{"jsonrpc":"2.0","method":"getUserById","params":[${USER_ID}],"id":${id}}`;
}

/** A JSON-RPC message to the `lacquer+jsonrpc` server, in JSON. */
export function rpcRequest(body: string): BenchRequest {
  return {
    method: 'POST',
    path: RPC_PREFIX,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: Buffer.from(body),
  };
}

/** getUserById as one JSON-RPC call. */
export const RPC_CALL: BenchRequest = rpcRequest(rpcCallText(1));

const STRICT = { errorOnMissingKeys: true, errorOnUnknownKeys: true } as const;

/** Sends the request once and throws unless the answer is 200, in `format`, and holds exactly the expected value. */
export async function checkAnswer(baseUrl: string, endpoint: BenchEndpoint, format: WireFormat): Promise<void> {
  const req = requestFor(endpoint, format);
  const res = await fetch(baseUrl + req.path, {
    method: req.method,
    headers: req.headers,
    body: req.body === undefined ? null : new Uint8Array(req.body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const where = `${req.method} ${baseUrl}${req.path} (${format})`;
  if (res.status !== 200) throw new Error(`${where}: status ${res.status}: ${new TextDecoder().decode(bytes)}`);
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith(MEDIA[format])) throw new Error(`${where}: content-type ${type}`);
  const value =
    format === 'json'
      ? json.decode(endpoint.answerType, bytes, STRICT)
      : msgpack.decode(endpoint.answerType, bytes, STRICT);
  deepStrictEqual(value, endpoint.answer, `${where}: unexpected answer`);
}
