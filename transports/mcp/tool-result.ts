import type { Codec } from '../../core/codec.ts';
import { ANY_VALUE } from '../protocol/any-value.ts';
import type { Opts } from '../../core/options.ts';
import type { RpcId } from '../jsonrpc/messages.ts';
import type { ProblemDocument } from '../protocol/problem.ts';
import { isObjectType } from '../protocol/call/message-arguments.ts';
import type { Outcome, Procedure } from '../protocol/call/procedure.ts';
import { jsonId, mcpAnswer } from './answer.ts';

const decoder = new TextDecoder();

/** How a value's text is written: the registry's JSON codec and options. */
export interface ValueText {
  readonly json: Codec;
  readonly opts: Opts;
}

/**
 * The answer to the `tools/call` request `id` that ran `procedure`: the value's JSON, written once
 * by the return descriptor, as the `text` of the one content item and, for a method returning an
 * object, as `structuredContent` (`t.void()` gives no content); bad arguments and failures of the
 * method are a result with `isError: true` whose text is the problem's. A value the return
 * descriptor cannot write fails the call as the method would have: the outcome returned is the
 * one to report.
 */
export function toolResult(
  codec: Codec,
  valueText: ValueText,
  id: RpcId,
  procedure: Procedure,
  outcome: Outcome,
): { encoded: Uint8Array | string; outcome: Outcome } {
  if (!outcome.ok) return { encoded: errorResult(codec, id, outcome.doc), outcome };
  const { returns } = procedure;
  if (returns.kind === 'void') return { encoded: mcpAnswer(codec, id, { content: [] }), outcome };
  const { json, opts } = valueText;
  let text: string;
  try {
    const written = json.encode(returns, outcome.value as never, opts);
    text = typeof written === 'string' ? written : decoder.decode(written);
  } catch (e) {
    const failed = procedure.fail(outcome.call, e);
    return { encoded: errorResult(codec, id, failed.doc), outcome: failed };
  }
  const structured = isObjectType(returns);
  if (codec === json) {
    // The value's text is JSON already: the answer is written around it, not parsed again.
    const tail = structured ? `,"structuredContent":${text}}}` : '}}';
    return {
      encoded: `{"jsonrpc":"2.0","id":${jsonId(id)},"result":{"content":[{"type":"text","text":${JSON.stringify(text)}}]${tail}`,
      outcome,
    };
  }
  const result: Record<string, unknown> = { content: [{ type: 'text', text }] };
  if (structured) result.structuredContent = json.decode(ANY_VALUE, text, opts);
  return { encoded: mcpAnswer(codec, id, result), outcome };
}

/** A tool result saying what went wrong: the problem's detail (or title) and each read error at its path in `arguments`. */
function errorResult(codec: Codec, id: RpcId, doc: ProblemDocument): Uint8Array | string {
  return mcpAnswer(codec, id, { content: [{ type: 'text', text: toolErrorText(doc) }], isError: true });
}

/**
 * `doc` as text for an agent: `404 Not Found: no note 7`; for arguments that do not read, each
 * error at its path in `arguments` on a line of its own; a failure's request id, to find it in the
 * server's logs.
 */
export function toolErrorText(doc: ProblemDocument): string {
  let text = `${doc.status} ${doc.title}`;
  const errors = doc.errors ?? [];
  if (errors.length === 0) text += doc.detail === undefined ? '' : `: ${doc.detail}`;
  else for (const { path, message } of errors) text += `\n${path === '' ? '(arguments)' : path}: ${message}`;
  return doc.requestId === undefined ? text : `${text} (request ${doc.requestId})`;
}
