import type { Codec } from '../../core/codec.ts';
import { t } from '../../core/descriptors/index.ts';
import { ANY_VALUE } from '../protocol/any-value.ts';
import type { RpcId } from '../jsonrpc/messages.ts';

/** A JSON-RPC answer carrying a result made of plain JSON values (an MCP result). */
const ResultAnswer = t.object({ jsonrpc: t.literal('2.0'), id: ANY_VALUE, result: ANY_VALUE });

/** The answer to the request `id` carrying `result`, in `codec`. */
export function mcpAnswer(codec: Codec, id: RpcId, result: object): Uint8Array | string {
  return codec.encode(ResultAnswer, { jsonrpc: '2.0', id, result } as never);
}

/** `id` as JSON text, for an answer written by hand. */
export function jsonId(id: RpcId): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}
