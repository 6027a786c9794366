// One call of a service's method over REST, JSON-RPC and MCP, in process (`endpoints.handle`), each
// answer reduced to the same outcome: the value (as JSON) or the read errors' codes and paths, so
// that specs can say the three protocols agree.
import { JSONRPC, MCP, Registry, type Endpoints, type RegistryOptions } from '../../../index.ts';
import { answerText } from '../../support/answer-body.ts';

/**
 * What a call gave: a value (JSON), or a refusal: its status and the paths of its read errors, into
 * the arguments (MCP's text names no codes, so the paths are what the three can be compared by).
 */
export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: number; readonly paths: readonly string[] };

/** REST, JSON-RPC and MCP registries of one service instance. */
export interface ThreeRegistries {
  readonly rest: Endpoints;
  readonly rpc: Endpoints;
  readonly mcp: Endpoints;
}

export function threeRegistries(instance: object, options: RegistryOptions = {}): ThreeRegistries {
  const all = { onError: () => {}, onWarning: () => {}, ...options };
  return {
    rest: new Registry(all).on(instance).endpoints,
    rpc: new Registry(all, JSONRPC).on(instance).endpoints,
    mcp: new Registry(all, MCP).on(instance).endpoints,
  };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

type ErrorList = { path: string }[] | undefined;
const paths = (errors: ErrorList) => (errors ?? []).map((e) => e.path);

/** A REST request: `target` with its query; `body` written as JSON when given. */
export async function restCall(endpoints: Endpoints, method: string, target: string, body?: unknown): Promise<Outcome> {
  const [path, search] = target.split('?') as [string, string | undefined];
  const answer = await endpoints.handle({
    method,
    path,
    headers: new Headers(JSON_HEADERS),
    ...(search === undefined ? {} : { search }),
    body: body === undefined ? new Uint8Array(0) : new TextEncoder().encode(JSON.stringify(body)),
  });
  const text = answerText(answer.body);
  if (answer.status < 300) return { ok: true, value: text === '' ? undefined : JSON.parse(text) };
  return { ok: false, status: answer.status, paths: paths((JSON.parse(text) as { errors?: ErrorList }).errors) };
}

/** A JSON-RPC call with `params` (absent when `undefined`). */
export async function rpcCall(endpoints: Endpoints, name: string, params?: unknown): Promise<Outcome> {
  const message = { jsonrpc: '2.0', method: name, ...(params === undefined ? {} : { params }), id: 1 };
  const answer = await endpoints.handle({
    method: 'POST',
    path: '/',
    headers: new Headers(JSON_HEADERS),
    body: new TextEncoder().encode(JSON.stringify(message)),
  });
  const reply = JSON.parse(answerText(answer.body)) as {
    result?: unknown;
    error?: { code: number; data?: { status?: number; errors?: ErrorList } };
  };
  if (reply.error === undefined) return { ok: true, value: reply.result };
  return { ok: false, status: reply.error.data?.status ?? reply.error.code, paths: paths(reply.error.data?.errors) };
}

/** An MCP `tools/call` with `args` (absent when `undefined`); a refusal's errors are read from the result's text. */
export async function mcpCall(endpoints: Endpoints, name: string, args?: unknown): Promise<Outcome> {
  const message = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, ...(args === undefined ? {} : { arguments: args }) },
  };
  const answer = await endpoints.handle({
    method: 'POST',
    path: '/',
    headers: new Headers(MCP_HEADERS),
    body: new TextEncoder().encode(JSON.stringify(message)),
  });
  const reply = JSON.parse(answerText(answer.body)) as {
    result?: { content: { text: string }[]; isError?: boolean };
    error?: unknown;
  };
  if (reply.result === undefined) throw new Error(`MCP answered no tool result: ${JSON.stringify(reply.error)}`);
  const text = reply.result.content[0]?.text;
  if (reply.result.isError !== true) return { ok: true, value: text === undefined ? undefined : JSON.parse(text) };
  // `400 Bad Request`, then one line per error: `/path: message` (`(arguments)` for the whole).
  const [head = '', ...lines] = (text ?? '').replace(/ \(request [^)]*\)$/, '').split('\n');
  return {
    ok: false,
    status: Number(head.slice(0, 3)),
    paths: lines.map((line) => (line.startsWith('(arguments)') ? '' : line.slice(0, line.indexOf(': ')))),
  };
}
