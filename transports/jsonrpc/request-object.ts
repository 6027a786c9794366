import type { ParsedMessage } from '../../core/codec.ts';
import { isMessageObject } from '../protocol/call/message-part.ts';
import type { RpcId } from './messages.ts';
import { RpcCode } from './messages.ts';

/** One request object of a message, checked: a call, or why it is not one. */
export type RequestObject =
  | {
      readonly kind: 'call';
      /** Absent for a notification, which gets no answer. */
      readonly hasId: boolean;
      readonly id: RpcId;
      readonly method: string;
      /** An array or an object; `undefined` when absent. */
      readonly params: unknown;
    }
  | {
      /** Answered whether or not it has an id: nothing tells it is a notification. */
      readonly kind: 'invalid';
      /** `null` when absent, or when the id itself is what is wrong. */
      readonly id: RpcId;
      readonly code: number;
      readonly detail: string;
    };

/**
 * `item` as a JSON-RPC 2.0 request object `{ jsonrpc: '2.0', method, params?, id? }`: an object,
 * `jsonrpc` exactly `"2.0"`, a string `method`, `params` an array or an object, `id` a string, a
 * number or `null`. What is wrong otherwise is an `Invalid Request`, answered with `id: null` when
 * the id is absent or cannot be told (the specification's examples answer `{"method": 1}` so).
 */
export function requestObject(item: unknown): RequestObject {
  if (!isMessageObject(item)) {
    return invalid(null, 'a request is an object { jsonrpc, method, params?, id? }');
  }
  const fields = item as Record<string, unknown>;
  const hasId = Object.hasOwn(fields, 'id');
  const id = fields.id;
  if (hasId && !isId(id)) return invalid(null, 'id must be a string, a number or null');
  const known = (hasId ? id : null) as RpcId;
  if (fields.jsonrpc !== '2.0') return invalid(known, 'jsonrpc must be "2.0"');
  const method = fields.method;
  if (typeof method !== 'string') return invalid(known, 'method must be a string');
  const params = fields.params;
  if (params !== undefined && !isMessageObject(params) && !Array.isArray(params)) {
    return invalid(known, 'params must be an array or an object');
  }
  return { kind: 'call', hasId, id: known, method, params };
}

function invalid(id: RpcId, detail: string): RequestObject {
  return { kind: 'invalid', id, code: RpcCode.invalidRequest, detail };
}

function isId(value: unknown): value is RpcId {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'bigint' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * `id` as the client wrote it: an integer beyond 2^53 (which `JSON.parse` rounds) read again from
 * the exact parse, so that the answer names the same id.
 */
export function exactId(message: ParsedMessage, index: number | undefined, id: RpcId): RpcId {
  if (typeof id !== 'number' || Number.isSafeInteger(id) || !Number.isInteger(id) || message.exact === undefined)
    return id;
  const tree = message.exact();
  const item = (index === undefined ? tree : (tree as unknown[])[index]) as { id?: unknown };
  return typeof item.id === 'bigint' ? item.id : id;
}
