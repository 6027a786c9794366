import type { ParsedMessage } from '../../core/codec.ts';
import { json } from '../../codecs/json/index.ts';
import { shownText } from '../../core/errors/shown-text.ts';
import { errorAnswer } from '../jsonrpc/answers.ts';
import { MessageRequest, overridden, type MessageHandler, type MessageSettings } from '../jsonrpc/message-request.ts';
import { RpcCode, type RpcId } from '../jsonrpc/messages.ts';
import { exactId, requestObject } from '../jsonrpc/request-object.ts';
import { Negotiation } from '../protocol/negotiate.ts';
import { problem, problemForError, type ProblemDocument } from '../protocol/problem.ts';
import { isMessageObject, type MessagePart } from '../protocol/call/message-part.ts';
import type { Outcome, Procedure } from '../protocol/call/procedure.ts';
import type { EndpointRequest, EndpointResponse, Handler, HeaderValues } from '../protocol/types.ts';
import { mcpAnswer } from './answer.ts';
import { initializeResult, type ServerInfo } from './initialize.ts';
import { originRefusal } from './origin.ts';
import { versionRefusal } from './protocol-version.ts';
import { toolResult, type ValueText } from './tool-result.ts';
import { ToolList, type Tool } from './tools.ts';

/** What the MCP route of one registry needs. */
export interface McpSettings extends MessageSettings {
  readonly mcp: ServerInfo & {
    /** The `Origin`s browsers may call from. */
    readonly origins: ReadonlySet<string>;
  };
}

/** Where a tool call's arguments are in its message. */
const ARGUMENTS: readonly string[] = ['params', 'arguments'];

/** The answer to a notification or a response: 202, no body. */
const accepted = (): EndpointResponse => ({ status: 202, headers: {}, body: undefined });

/**
 * The one route of an MCP registry, `POST {prefix}` (Streamable HTTP, stateless: no session, every
 * answer one JSON body, never an event stream). Refuses a request from an `Origin` not listed
 * (403) or naming an `MCP-Protocol-Version` not served (400) before reading it; then takes one
 * JSON-RPC message in any of the registry's codecs: `initialize`, `ping`, `tools/list` and
 * `tools/call` are answered, notifications and responses accepted (202, no body), anything else
 * is `-32601`. A batch (which MCP 2025-06-18 removed) and a message that is no JSON-RPC message
 * are answered 400 with `-32600`, a body that does not parse with `-32700`.
 */
export function mcpHandler(procedures: ReadonlyMap<string, Procedure>, settings: McpSettings): Handler {
  const { codecs, mcp } = settings;
  const negotiation = new Negotiation(codecs);
  const tools = new ToolList(procedures, settings.opts);
  // A value's text is JSON whatever the codec of the answer.
  const valueText: ValueText = { json: codecs.find((c) => c.name === 'json') ?? json, opts: settings.opts };
  const vary: HeaderValues = codecs.length > 1 ? { vary: 'Accept' } : {};

  const reply = (exchange: MessageRequest, status: number, body: Uint8Array | string): EndpointResponse => ({
    status,
    headers: { ...vary, 'content-type': exchange.choice.contentType },
    body,
  });
  // The message says what is wrong (an agent reads it), as the MCP SDK's servers do; `data` is the problem.
  const error = (exchange: MessageRequest, code: number, id: RpcId, doc: ProblemDocument): EndpointResponse =>
    reply(
      exchange,
      code === RpcCode.invalidRequest || code === RpcCode.parseError ? 400 : 200,
      errorAnswer(exchange.choice.codec, code, id, doc, doc.detail),
    );

  const answer = (exchange: MessageRequest, message: ParsedMessage): EndpointResponse | Promise<EndpointResponse> => {
    const { tree } = message;
    if (Array.isArray(tree)) {
      return error(
        exchange,
        RpcCode.invalidRequest,
        null,
        problem(400, 'one JSON-RPC message per request: MCP takes no batches'),
      );
    }
    if (isResponse(tree)) return accepted();
    const request = requestObject(tree);
    if (request.kind === 'invalid') return error(exchange, request.code, request.id, problem(400, request.detail));
    // A notification (`notifications/initialized`, a cancellation) asks nothing of a stateless server.
    if (!request.hasId) return accepted();
    const { method, params } = request;
    const id = exactId(message, undefined, request.id);
    const codec = exchange.choice.codec;
    switch (method) {
      case 'initialize': {
        const requested = isMessageObject(params) ? params.protocolVersion : undefined;
        if (typeof requested !== 'string')
          return error(
            exchange,
            RpcCode.invalidParams,
            id,
            problem(400, 'initialize takes { protocolVersion, capabilities, clientInfo }'),
          );
        return reply(exchange, 200, mcpAnswer(codec, id, initializeResult(requested, mcp)));
      }
      case 'ping':
        return reply(exchange, 200, mcpAnswer(codec, id, {}));
      case 'tools/list': {
        let list: readonly Tool[];
        try {
          list = tools.tools;
        } catch (e) {
          // A tool without a schema (two different objects of one name among its descriptors): the server's fault.
          return error(
            exchange,
            RpcCode.internalError,
            id,
            problem(500, `the tools cannot be listed: ${e instanceof Error ? e.message : String(e)}`),
          );
        }
        return reply(exchange, 200, mcpAnswer(codec, id, { tools: list }));
      }
      case 'tools/call':
        return callTool(exchange, message, id, params);
      default:
        return error(
          exchange,
          RpcCode.methodNotFound,
          id,
          problem(400, `there is no method '${shownText(method)}' (served: initialize, ping, tools/list, tools/call)`),
        );
    }
  };

  /** `tools/call { name, arguments }`: an unknown tool or arguments that are no object are `-32602`; the rest is the tool's result. */
  const callTool = (
    exchange: MessageRequest,
    message: ParsedMessage,
    id: RpcId,
    params: unknown,
  ): EndpointResponse | Promise<EndpointResponse> => {
    const name = isMessageObject(params) ? params.name : undefined;
    if (typeof name !== 'string')
      return error(exchange, RpcCode.invalidParams, id, problem(400, 'tools/call takes { name, arguments }'));
    const procedure = procedures.get(name);
    if (procedure === undefined)
      return error(exchange, RpcCode.invalidParams, id, problem(400, `there is no tool '${shownText(name)}'`));
    const args = (params as Record<string, unknown>).arguments;
    if (args !== undefined && !isMessageObject(args))
      return error(exchange, RpcCode.invalidParams, id, problem(400, 'the arguments of a tool are an object'));
    const part: MessagePart | undefined = args === undefined ? undefined : { tree: args, message, at: ARGUMENTS };
    const outcome = procedure.invoke(exchange.request, exchange.requestId, part);
    return outcome instanceof Promise
      ? outcome.then((o) => called(exchange, id, procedure, o))
      : called(exchange, id, procedure, outcome);
  };

  /**
   * A call's answer: a caller refused is the HTTP refusal itself (401 with its challenge, 403), and
   * one over its rate limit the HTTP 429 with `Retry-After`; anything else a tool result.
   */
  const called = (exchange: MessageRequest, id: RpcId, procedure: Procedure, outcome: Outcome): EndpointResponse => {
    let response: EndpointResponse;
    let reported = outcome;
    if (!outcome.ok && (outcome.stage === 'refused' || outcome.stage === 'limited'))
      response = exchange.fail(outcome.doc, outcome.headers);
    else {
      const result = toolResult(exchange.choice.codec, valueText, id, procedure, outcome);
      reported = result.outcome;
      response = reply(exchange, 200, result.encoded);
    }
    const prefix = exchange.request.prefix ?? '';
    response.written = (sent) => procedure.written(reported, prefix, overridden(response, sent));
    return response;
  };

  const route: MessageHandler = {
    answer,
    unparsed: (exchange, e) => error(exchange, RpcCode.parseError, null, problemForError(e, false)),
  };

  return (request: EndpointRequest) => {
    const refusal = originRefusal(request.headers, mcp.origins) ?? versionRefusal(request.headers);
    const exchange = new MessageRequest(request, settings);
    return refusal === undefined ? exchange.take(negotiation, route) : exchange.fail(refusal);
  };
}

/** A JSON-RPC response (to a request the server never sends, since it sends none): no `method`, a `result` or an `error`. */
function isResponse(tree: unknown): boolean {
  return (
    isMessageObject(tree) &&
    !Object.hasOwn(tree, 'method') &&
    (Object.hasOwn(tree, 'result') || Object.hasOwn(tree, 'error'))
  );
}
