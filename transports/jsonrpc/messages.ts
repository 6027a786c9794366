import { t } from '../../core/descriptors/index.ts';
import { ANY_VALUE } from '../protocol/any-value.ts';
import type { Type } from '../../core/descriptors/type.ts';

/** The error codes of JSON-RPC 2.0 (jsonrpc.org/specification, section 5.1) lacquer answers with. */
export const RpcCode = {
  /** The body does not parse. */
  parseError: -32700,
  /** Not a request object (an empty batch, a batch over the limit, a bad `jsonrpc`, `method` or `id`). */
  invalidRequest: -32600,
  methodNotFound: -32601,
  /** The params do not read as the method's parameters, or the method threw `InvalidArgument`. */
  invalidParams: -32602,
  /** The method failed; its message is hidden unless `exposeErrors`. */
  internalError: -32603,
  /** An `HttpError` the call failed with (a refusal, a 404 the method threw): `data` is its problem document. */
  serverError: -32000,
} as const;

/** The messages the specification gives each code. */
export const RPC_MESSAGES: Readonly<Record<number, string>> = {
  [RpcCode.parseError]: 'Parse error',
  [RpcCode.invalidRequest]: 'Invalid Request',
  [RpcCode.methodNotFound]: 'Method not found',
  [RpcCode.invalidParams]: 'Invalid params',
  [RpcCode.internalError]: 'Internal error',
};

/** A request's id: a string, a number, or `null`. */
export type RpcId = string | number | bigint | null;

/** An answer carrying an error. `data` is a problem document (RFC 9457) when there is one. */
export const ErrorAnswer = t.object({
  jsonrpc: t.literal('2.0'),
  error: t.object({ code: t.i32(), message: t.string(), data: ANY_VALUE }),
  id: ANY_VALUE,
});

/** The answer carrying a method's result, written by the method's return descriptor; `t.void()` gives `null`. */
export function resultAnswer(returns: Type): Type {
  return t.object({
    jsonrpc: t.literal('2.0'),
    result: returns.kind === 'void' ? t.literal(null) : returns,
    id: ANY_VALUE,
  });
}
