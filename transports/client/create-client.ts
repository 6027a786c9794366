import { abortable, discard, timerMs } from './abort.ts';
import type { Codec } from '../../core/codec.ts';
import { json } from '../../codecs/json/index.ts';
import type { MethodContract } from '../../core/contract/method.ts';
import type { Contract, Methods } from '../../core/contract/service.ts';
import type { ReadOptions } from '../../core/options.ts';
import { argumentSources } from '../rest/arguments.ts';
import { requestShape } from './request-shape.ts';
import { streamResult } from './stream-result.ts';
import { streamBody, streamWriter } from './stream-body.ts';
import { StreamType } from '../../core/descriptors/stream.ts';
import { verbFor } from '../rest/verb.ts';
import { DEFAULT_MAX_ERROR_BYTES, errorFor, readResult } from './answer.ts';
import { checkInterceptors, intercepted } from './interceptors.ts';
import { isIdempotent, markingNetworkErrors, retryPolicy, withRetries, type RetryPolicy } from './retry.ts';
import { deadline } from './timeout.ts';
import { withClientSpan } from './telemetry.ts';
import type { Telemetry } from '../protocol/call/telemetry.ts';
import type { CallOptions, Client, ClientOptions, FetchFunction, HeadersOption } from './types.ts';

/** What every method of one client shares. */
interface Settings {
  readonly base: string;
  readonly codec: Codec;
  /** The codecs answers may come in: the client's, then JSON. */
  readonly codecs: readonly Codec[];
  readonly accept: string;
  /** `Accept` of a stream method: the codec's sequence type, JSON Lines second. */
  readonly streamAccept: string;
  /** `fetch` inside the interceptors: what sends each request. */
  readonly send: FetchFunction;
  readonly retry: RetryPolicy | undefined;
  /** The calls' default `timeoutMs`; 0 for none. */
  readonly timeoutMs: number;
  /** Spans of the calls, when given. */
  readonly telemetry: Telemetry | undefined;
  readonly headers: HeadersOption | undefined;
  readonly opts: ReadOptions;
  readonly allowCrossOriginRedirects: boolean;
  /** The most of an error answer read for its problem document. */
  readonly errorBytes: number;
}

/** Redirects followed in a row before a call fails, as `fetch` itself allows. */
export const DEFAULT_MAX_REDIRECTS = 20;

/** `Accept` of a client: its codec first, JSON second (`application/cbor, application/json;q=0.5`). */
export function acceptFor(codec: Codec): string {
  const own = codec.contentTypes[0]!;
  return own === json.contentTypes[0] ? own : `${own}, ${json.contentTypes[0]};q=0.5`;
}

/** `Accept` of a client's stream methods: its codec's sequence type first, JSON Lines second. */
export function streamAcceptFor(codec: Codec): string {
  const own = codec.sequenceType;
  const lines = json.sequenceType!;
  return own === undefined || own === lines ? lines : `${own}, ${lines};q=0.5`;
}

/**
 * A typed client for `contract`: one async function per method, sending the verb, path and body
 * the registry expects (`api.getUserById(5n)` is `POST {baseUrl}/getUserById` with the body `5`)
 * and resolving to the result decoded by the method's descriptor, with `errorOnUnknownKeys: false`
 * unless the options say otherwise (a server whose contract grew a member still answers older
 * clients). Parameters are typed by `InferInput` (members with `.default()` may be left out).
 * Non-2xx answers reject with `HttpError` (status, `detail`, `code`, `path`, and `errors`, every
 * problem a server found in the body); every method takes an optional last argument
 * `{ signal, headers, timeoutMs }`. Idempotent calls are retried with `retry`, and `interceptors`
 * wrap the sending of each request.
 */
export function createClient<M extends Methods>(contract: Contract<M>, options: ClientOptions): Client<M> {
  const {
    baseUrl,
    codec,
    fetch,
    headers,
    allowCrossOriginRedirects,
    retry,
    interceptors,
    timeoutMs,
    telemetry,
    ...given
  } = options;
  // Forward compatible by default: members a newer server added are dropped, not refused.
  const opts: ReadOptions = { ...given, errorOnUnknownKeys: given.errorOnUnknownKeys ?? false };
  if (typeof contract !== 'object' || contract === null || typeof contract.methods !== 'object') {
    throw new TypeError('createClient(): the first argument must be a service({...}) contract');
  }
  if (typeof codec?.encode !== 'function' || codec.contentTypes[0] === undefined) {
    throw new TypeError('createClient(): options.codec must be a Codec (json, msgpack, cbor or your own)');
  }
  if (telemetry !== undefined && typeof telemetry?.clientSpan !== 'function') {
    throw new TypeError('createClient(): options.telemetry must be openTelemetry() from lacquerjs/otel');
  }
  const settings: Settings = {
    base: String(baseUrl).replace(/\/+$/, ''),
    codec,
    codecs: codec === json ? [json] : [codec, json],
    accept: acceptFor(codec),
    streamAccept: streamAcceptFor(codec),
    send: intercepted(
      checkInterceptors(interceptors),
      markingNetworkErrors(fetch ?? ((request) => globalThis.fetch(request))),
    ),
    retry: retryPolicy(retry),
    timeoutMs: timeoutMs === undefined ? 0 : timerMs('createClient(): options.timeoutMs', timeoutMs),
    telemetry,
    headers,
    opts,
    allowCrossOriginRedirects: allowCrossOriginRedirects === true,
    errorBytes: Math.min(DEFAULT_MAX_ERROR_BYTES, opts.maxBytes ?? DEFAULT_MAX_ERROR_BYTES),
  };
  const client = {};
  for (const [name, m] of Object.entries(contract.methods)) {
    // defineProperty: a method named `__proto__` stays a method instead of replacing the prototype.
    Object.defineProperty(client, name, { value: createMethod(name, m, settings), enumerable: true });
  }
  return Object.freeze(client) as Client<M>;
}

function createMethod(
  name: string,
  contract: MethodContract,
  settings: Settings,
): (...args: unknown[]) => Promise<unknown> {
  const verb = verbFor(name, contract);
  const { codec, codecs, opts } = settings;
  const shape = requestShape(name, contract, argumentSources(`createClient(): ${name}`, contract, verb));
  const arity = shape.arity;
  // `method({}, ...)`: no parameters, so one argument is the call options; `{}` before them is taken too.
  const noneByName = contract.paramNames?.length === 0 && contract.bodyStream === undefined;
  const retry = settings.retry !== undefined && isIdempotent(verb, contract) ? settings.retry : undefined;

  return async (...passed: unknown[]): Promise<unknown> => {
    const args = noneByName && passed.length <= 1 ? [undefined, ...passed] : passed;
    if (args.length > arity + 1) {
      const takes = noneByName ? 'call options (or {} and call options)' : `${arity} argument(s) and call options`;
      throw new TypeError(`${name}() takes ${takes}, got ${passed.length} arguments`);
    }
    const call = args.length > arity ? args[arity] : undefined;
    if (call !== undefined && (typeof call !== 'object' || call === null)) {
      throw new TypeError(
        `${name}(): the argument after the parameters must be call options ({ signal, headers, timeoutMs })`,
      );
    }
    const { signal: given, headers: callHeaders, timeoutMs } = (call ?? {}) as CallOptions;
    const ms = timeoutMs === undefined ? settings.timeoutMs : timerMs(`${name}(): timeoutMs`, timeoutMs);
    // A value that does not fit its descriptor throws WriteError here, before anything is sent.
    const { target, body: value } = shape.build(args.slice(0, arity));
    const headers = new Headers(typeof settings.headers === 'function' ? await settings.headers() : settings.headers);
    if (callHeaders !== undefined) new Headers(callHeaders).forEach((v, key) => headers.set(key, v));
    headers.set('accept', contract.returns instanceof StreamType ? settings.streamAccept : settings.accept);
    let body: Uint8Array | string | ReadableStream<Uint8Array> | undefined;
    if (shape.body !== undefined) {
      body = codec.encode(shape.body, value as never, opts);
      headers.set('content-type', codec.contentTypes[0]!);
    } else if (shape.stream !== undefined) {
      const writer = streamWriter(codec, shape.stream, opts);
      body = streamBody(value, writer, name);
      headers.set('content-type', writer.mediaType);
    }
    const init: RequestInit & { duplex?: 'half' } = {
      method: verb,
      headers,
      redirect: settings.allowCrossOriginRedirects ? 'follow' : 'manual',
    };
    if (body !== undefined) init.body = body as BodyInit;
    // A body sent as it is produced: fetch requires saying so.
    if (body instanceof ReadableStream) init.duplex = 'half';
    const timer = ms === 0 ? undefined : deadline(name, ms, given);
    const signal = timer?.signal ?? given;
    if (signal !== undefined) init.signal = signal;
    const url = settings.base + target;
    // Each attempt in its own span, when the client has telemetry.
    const send =
      settings.telemetry === undefined
        ? () => sendFollowingRedirects(settings, url, init, signal)
        : () =>
            withClientSpan(settings.telemetry, name, verb, url, headers, () =>
              sendFollowingRedirects(settings, url, init, signal),
            );
    try {
      // A body given as an AsyncIterable is sent as it is produced: it cannot be sent twice.
      const response =
        retry === undefined || body instanceof ReadableStream ? await send() : await withRetries(send, retry, signal);
      // The signal covers the body too: one that never ends cannot outlive it.
      if (!response.ok) throw await errorFor(response, codecs, settings.errorBytes, signal);
      // A stream's items are read at the caller's pace: its own signal, not the deadline, covers them.
      if (contract.returns instanceof StreamType)
        return streamResult(response, contract.returns.item, codecs, opts, given);
      return await readResult(response, contract.returns, codecs, opts, signal);
    } finally {
      timer?.release();
    }
  };
}

const REDIRECTS = [301, 302, 303, 307, 308];

/**
 * Sends the request, following redirects within its origin only (unless
 * `allowCrossOriginRedirects`), and settling as soon as `signal` aborts, whatever `fetch` does.
 */
async function sendFollowingRedirects(
  settings: Settings,
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
): Promise<Response> {
  for (let hop = 0, target = url; ; hop++) {
    // Not sent at all once aborted, whatever `fetch` would do with the signal.
    signal?.throwIfAborted();
    const response = await abortable(settings.send(new Request(target, init)), signal);
    const { status } = response;
    const location = REDIRECTS.includes(status) ? response.headers.get('location') : null;
    if (settings.allowCrossOriginRedirects || (location === null && response.type !== 'opaqueredirect'))
      return response;
    discard(response);
    // `target` may be relative (`/api` in a page): resolve it as the runtime did. A browser hides
    // where a redirect it does not follow goes, and a URL that cannot be resolved cannot be
    // checked: both are treated as another origin.
    const here = parseUrl(target, response.url || (globalThis as { location?: { href?: string } }).location?.href);
    const next = location === null || here === undefined ? undefined : parseUrl(location, here.href);
    if (next === undefined || next.origin !== here!.origin) {
      const where = next?.href ?? location ?? 'hidden by the runtime';
      throw new Error(
        `lacquer/client: a redirect to another origin (${where}) is refused; allowCrossOriginRedirects follows it`,
      );
    }
    if (hop >= DEFAULT_MAX_REDIRECTS) throw new Error(`lacquer/client: more than ${DEFAULT_MAX_REDIRECTS} redirects`);
    // As fetch does: 303, and 301/302 after a POST, go on as a GET without a body.
    if (status === 303 || (status < 303 && init.method === 'POST')) {
      const headers = new Headers(init.headers);
      headers.delete('content-type');
      init = { ...init, method: 'GET', headers, body: null };
    }
    target = next.href;
  }
}

/** `url` resolved against `base`, or `undefined` when it cannot be. */
function parseUrl(url: string, base: string | undefined): URL | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}
