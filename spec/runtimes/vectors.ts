// Fetch-level vectors for the app of ./app.ts: a request in, and the exact status, headers and
// decoded body that must come out, in every runtime that serves the fetch handler
// (spec/runtimes/runtimes.spec.ts runs them in Node in process, Bun, Deno and workerd). Where a
// runtime rightly answers differently (what it passes the handler, where it keeps the client's
// address, whether it lets code be generated during a request) the vector says so per runtime.
//
// Bodies in MessagePack and CBOR are written and read here by other libraries (@msgpack/msgpack,
// cbor), not by lacquer; compressed bodies likewise (node:zlib). JSON is compared as exact text:
// that is where a u64 above 2^53 shows.
import { decode as msgpackDecode, encode as msgpackEncode } from '@msgpack/msgpack';
import cbor from 'cbor';
import { nodeCborEncode } from '../support/node-cbor.ts';
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import {
  ALLOWED_ORIGIN,
  LIST_LENGTH,
  MAX_BODY_BYTES,
  PREFIX,
  RPC_PREFIX,
  SECRET,
  TOKENS,
  listedSample,
  type Sample,
} from './app.ts';
import { DEFAULT_EXPOSED_HEADERS } from '../../transports/protocol/pipeline/cors.ts';

/** Where the vectors run. */
export type RuntimeKind = 'node' | 'bun' | 'deno' | 'workerd';
export const RUNTIMES: readonly RuntimeKind[] = ['node', 'bun', 'deno', 'workerd'];

export interface VectorRequest {
  readonly method: string;
  /** Path and query, from the root (the app is mounted at {@link PREFIX}). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Sends the body as a stream without `Content-Length` (chunked on the wire), in this many pieces. */
  readonly chunks?: number;
}

/** The body of an answer, as it must decode. */
export type ExpectedBody =
  | { readonly empty: true }
  /** Exact UTF-8 text (JSON answers and problem documents). */
  | { readonly text: string }
  /**
   * A JSON object with exactly these members in this order, each equal or, for a RegExp, a string
   * matching it whole: for what a runtime's own messages leak into (`JSON.parse`'s, in a 400).
   */
  | { readonly json: Readonly<Record<string, unknown>> }
  /** Decoded by @msgpack/msgpack (64-bit integers as bigint). */
  | { readonly msgpack: unknown }
  /** Decoded by the `cbor` package (integers past 2^53 as bigint). */
  | { readonly cbor: unknown }
  /**
   * Compressed with `encoded` (what `Content-Encoding` must say too): the spec checks that
   * `Content-Length` is the count of compressed bytes received and that they are fewer than the
   * inflated ones, inflates them (node:zlib; zstd where node:zlib lacks it: see runtimes.spec.ts),
   * and checks what comes out as `inflated`.
   */
  | { readonly encoded: AnswerCoding; readonly inflated: ExpectedBody };

/** A coding an answer may arrive in (lacquer's response codings). */
export type AnswerCoding = 'br' | 'zstd' | 'gzip';

export interface Expected {
  readonly status: number;
  /**
   * Every header of the answer, exactly (names lower case), except what the runtime's HTTP layer
   * adds on the wire: `date`, `connection`, `keep-alive`. A RegExp must match the whole value.
   * `Vary` is compared as the set of its members: their order and repeats mean nothing (RFC 9110
   * §12.5.5).
   */
  readonly headers: Readonly<Record<string, string | RegExp>>;
  /** The `Set-Cookie` lines, in order (kept apart: they are never joined). Default none. */
  readonly setCookie?: readonly string[];
  readonly body: ExpectedBody;
}

export interface Vector {
  readonly name: string;
  readonly request: VectorRequest;
  readonly expect: Expected | ((runtime: RuntimeKind) => Expected);
}

/** Any `Content-Length`: the spec checks it against the bytes received. */
export const ANY_LENGTH = /^\d+$/;
/** A request id the transport made: 12 random hex digits of the process, a dash, a counter in base 36. */
export const GENERATED_ID = /^[0-9a-f]{12}-[0-9a-z]{1,11}$/;

const utf8 = new TextEncoder();
const bytes = (text: string) => utf8.encode(text).byteLength;

/** Every media type the app's registry reads, as `Accept-Post` lists them. */
const READ_TYPES =
  'application/json, application/msgpack, application/x-msgpack, application/vnd.msgpack, application/cbor';

// ---- Builders -----------------------------------------------------------------------------------

/** A request with its own `x-request-id` (answers echo it). */
function ask(
  id: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Uint8Array,
): VectorRequest {
  return {
    method,
    path: `${PREFIX}${path}`,
    headers: { 'x-request-id': id, ...headers },
    ...(body === undefined ? {} : { body }),
  };
}

const JSON_BODY = { 'content-type': 'application/json' };

/** A 2xx JSON answer of an endpoint. */
function jsonAnswer(id: string, text: string, status = 200, headers: Record<string, string | RegExp> = {}): Expected {
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'content-length': String(bytes(text)),
      vary: 'Accept',
      'x-request-id': id,
      ...headers,
    },
    body: { text },
  };
}

/** A binary answer of an endpoint, decoded by another library. */
function binaryAnswer(
  id: string,
  contentType: string,
  decoded: { msgpack: unknown } | { cbor: unknown },
  headers: Record<string, string | RegExp> = {},
): Expected {
  return {
    status: 200,
    headers: {
      'content-type': contentType,
      'content-length': ANY_LENGTH,
      vary: 'Accept',
      'x-request-id': id,
      ...headers,
    },
    body: decoded,
  };
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

/** A problem document in JSON, its members in lacquer's order. */
function problemJson(
  id: string,
  status: number,
  members: Record<string, unknown>,
  headers: Record<string, string | RegExp> = {},
): Expected {
  const text = JSON.stringify({ type: 'about:blank', title: TITLES[status], status, ...members });
  return {
    status,
    headers: {
      'content-type': 'application/problem+json',
      'content-length': String(bytes(text)),
      vary: 'Accept',
      'x-request-id': id,
      ...headers,
    },
    body: { text },
  };
}

/** The same answer for HEAD: headers unchanged (`Content-Length` too), no body. */
function headOf(answer: Expected): Expected {
  return { ...answer, body: { empty: true } };
}

// ---- Values -------------------------------------------------------------------------------------

const U64_MAX = 2n ** 64n - 1n;
/** The app's SAMPLE, as JSON text (the id exact). */
const SAMPLE_JSON = `{"id":${U64_MAX},"count":-7,"ratio":0.5,"label":"grüße","tags":["a","b"],"flag":true}`;
/** The app's SAMPLE, as other libraries decode it. */
const SAMPLE_VALUE = { id: U64_MAX, count: -7, ratio: 0.5, label: 'grüße', tags: ['a', 'b'], flag: true };
/** What `echoSample` answers for SAMPLE (it adds one to `count`). */
const ECHOED_VALUE = { ...SAMPLE_VALUE, count: -6 };
const ECHOED_JSON = SAMPLE_JSON.replace('"count":-7', '"count":-6');

const asMsgpack = (value: unknown) => msgpackEncode(value, { useBigInt64: true });
const asCbor = (value: unknown) => nodeCborEncode(value);

/** Decodes an answer body the way {@link ExpectedBody} says. */
export function decodeBody(kind: 'msgpack' | 'cbor', body: Uint8Array): unknown {
  return kind === 'msgpack' ? msgpackDecode(body, { useBigInt64: true }) : cbor.decodeFirstSync(body);
}

// ---- The vectors --------------------------------------------------------------------------------

const CODECS: Vector[] = [
  {
    name: 'JSON in, JSON out: a u64 above 2^53 exact both ways, text outside ASCII',
    request: ask('codec-json', 'POST', '/echoSample', JSON_BODY, SAMPLE_JSON),
    expect: jsonAnswer('codec-json', ECHOED_JSON),
  },
  {
    name: 'MessagePack in, MessagePack out',
    request: ask(
      'codec-msgpack',
      'POST',
      '/echoSample',
      { 'content-type': 'application/msgpack', accept: 'application/msgpack' },
      asMsgpack(SAMPLE_VALUE),
    ),
    expect: binaryAnswer('codec-msgpack', 'application/msgpack', { msgpack: ECHOED_VALUE }),
  },
  {
    name: 'CBOR in, CBOR out',
    request: ask(
      'codec-cbor',
      'POST',
      '/echoSample',
      { 'content-type': 'application/cbor', accept: 'application/cbor' },
      asCbor(SAMPLE_VALUE),
    ),
    expect: binaryAnswer('codec-cbor', 'application/cbor', { cbor: ECHOED_VALUE }),
  },
  {
    name: 'JSON in, MessagePack out',
    request: ask(
      'codec-json-msgpack',
      'POST',
      '/echoSample',
      { ...JSON_BODY, accept: 'application/msgpack' },
      SAMPLE_JSON,
    ),
    expect: binaryAnswer('codec-json-msgpack', 'application/msgpack', { msgpack: ECHOED_VALUE }),
  },
  {
    name: 'MessagePack in, CBOR out',
    request: ask(
      'codec-msgpack-cbor',
      'POST',
      '/echoSample',
      { 'content-type': 'application/msgpack', accept: 'application/cbor' },
      asMsgpack(SAMPLE_VALUE),
    ),
    expect: binaryAnswer('codec-msgpack-cbor', 'application/cbor', { cbor: ECHOED_VALUE }),
  },
  {
    name: 'CBOR in, JSON out',
    request: ask(
      'codec-cbor-json',
      'POST',
      '/echoSample',
      { 'content-type': 'application/cbor', accept: 'application/json' },
      asCbor(SAMPLE_VALUE),
    ),
    expect: jsonAnswer('codec-cbor-json', ECHOED_JSON),
  },
  {
    name: "without Accept, the answer is in the request's codec (CBOR)",
    request: ask(
      'codec-cbor-noaccept',
      'POST',
      '/echoSample',
      { 'content-type': 'application/cbor' },
      asCbor(SAMPLE_VALUE),
    ),
    expect: binaryAnswer('codec-cbor-noaccept', 'application/cbor', { cbor: ECHOED_VALUE }),
  },
  {
    name: 'an alias named in Accept labels the answer (application/x-msgpack)',
    request: ask(
      'codec-x-msgpack',
      'POST',
      '/echoSample',
      { 'content-type': 'application/vnd.msgpack', accept: 'application/x-msgpack' },
      asMsgpack(SAMPLE_VALUE),
    ),
    expect: binaryAnswer('codec-x-msgpack', 'application/x-msgpack', { msgpack: ECHOED_VALUE }),
  },
  {
    name: 'a u64 of 2^53 + 1 and a Content-Type with parameters',
    request: ask(
      'codec-2p53',
      'POST',
      '/echoSample',
      { 'content-type': 'Application/JSON; charset=utf-8' },
      '{"id": 9007199254740993, "count": 1, "ratio": 1e-7, "label": "", "tags": [], "flag": false}',
    ),
    expect: jsonAnswer(
      'codec-2p53',
      '{"id":9007199254740993,"count":2,"ratio":1e-7,"label":"","tags":[],"flag":false}',
    ),
  },
];

const NEGOTIATION: Vector[] = [
  {
    name: 'GET without Accept answers JSON',
    request: ask('neg-none', 'GET', '/getSample'),
    expect: jsonAnswer('neg-none', SAMPLE_JSON),
  },
  {
    name: 'Accept q-values: CBOR (q=1) over JSON (q=0.5)',
    request: ask('neg-q-cbor', 'GET', '/getSample', { accept: 'application/json;q=0.5, application/cbor' }),
    expect: binaryAnswer('neg-q-cbor', 'application/cbor', { cbor: SAMPLE_VALUE }),
  },
  {
    name: 'Accept q-values: MessagePack (q=0.8) over CBOR (q=0.2)',
    request: ask('neg-q-msgpack', 'GET', '/getSample', { accept: 'application/cbor;q=0.2, application/msgpack;q=0.8' }),
    expect: binaryAnswer('neg-q-msgpack', 'application/msgpack', { msgpack: SAMPLE_VALUE }),
  },
  {
    name: 'Accept: a type named outright beats */* at equal q',
    request: ask('neg-specific', 'GET', '/getSample', { accept: '*/*, application/cbor' }),
    expect: binaryAnswer('neg-specific', 'application/cbor', { cbor: SAMPLE_VALUE }),
  },
  {
    name: 'Accept: q=0 excludes JSON, */* takes the next codec (MessagePack)',
    request: ask('neg-q0', 'GET', '/getSample', { accept: 'application/json;q=0, */*;q=0.1' }),
    expect: binaryAnswer('neg-q0', 'application/msgpack', { msgpack: SAMPLE_VALUE }),
  },
  {
    name: 'nothing acceptable: 406',
    request: ask('neg-406', 'GET', '/getSample', { accept: 'text/html' }),
    expect: problemJson('neg-406', 406, {
      detail: `none of the accepted types can be written; available: ${READ_TYPES}`,
    }),
  },
  {
    name: 'a body in a type no codec reads: 415 with Accept-Post',
    request: ask('neg-415', 'POST', '/echoSample', { 'content-type': 'text/plain' }, 'hello'),
    expect: problemJson(
      'neg-415',
      415,
      { detail: "a body of type 'text/plain' cannot be read" },
      { 'accept-post': READ_TYPES },
    ),
  },
];

const PROBLEMS: Vector[] = [
  {
    name: '400: a read error with its code and JSON Pointer path',
    request: ask('problem-400', 'POST', '/echoSample', JSON_BODY, SAMPLE_JSON.replace('"label":"grüße"', '"label":7')),
    expect: problemJson('problem-400', 400, {
      detail: 'expected a string, got the integer 7 at /label',
      code: 'type_mismatch',
      path: '/label',
      errors: [{ code: 'type_mismatch', path: '/label', message: 'expected a string, got the integer 7 at /label' }],
    }),
  },
  {
    name: '400 in CBOR, for a client naming application/problem+cbor',
    request: ask(
      'problem-400-cbor',
      'POST',
      '/echoSample',
      { 'content-type': 'application/cbor', accept: 'application/cbor, application/problem+cbor' },
      asCbor({ ...SAMPLE_VALUE, tags: 'a' }),
    ),
    expect: {
      status: 400,
      headers: {
        'content-type': 'application/problem+cbor',
        'content-length': ANY_LENGTH,
        vary: 'Accept',
        'x-request-id': 'problem-400-cbor',
      },
      body: {
        cbor: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: 'expected an array, got a string at /tags',
          code: 'type_mismatch',
          path: '/tags',
          errors: [{ code: 'type_mismatch', path: '/tags', message: 'expected an array, got a string at /tags' }],
        },
      },
    },
  },
  {
    // The detail quotes the engine's JSON.parse message, which differs between V8 versions (Node 20:
    // 'at position 9'; Deno, workerd: 'at position 9 (line 1 column 10)') and JavaScriptCore (Bun:
    // 'JSON Parse error: Property name must be a string literal'): `code` and `path` are the contract.
    name: '400: a body that is not JSON (code syntax_error, path the root)',
    request: ask('problem-syntax', 'POST', '/echoSample', JSON_BODY, '{"id": 1,}'),
    expect: {
      status: 400,
      headers: {
        'content-type': 'application/problem+json',
        'content-length': ANY_LENGTH,
        vary: 'Accept',
        'x-request-id': 'problem-syntax',
      },
      body: {
        json: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: /invalid JSON: .+ at the root/,
          code: 'syntax_error',
          path: '',
          errors: [{ code: 'syntax_error', path: '', message: /invalid JSON: .+ at the root/ }],
        },
      },
    },
  },
  {
    name: '404 under the prefix',
    request: ask('problem-404', 'GET', '/nothingHere'),
    expect: problemJson('problem-404', 404, { detail: `nothing at ${PREFIX}/nothingHere` }),
  },
  {
    name: '404 outside the prefix',
    request: { method: 'GET', path: '/elsewhere', headers: { 'x-request-id': 'problem-404-outside' } },
    expect: {
      status: 404,
      headers: {
        'content-type': 'application/problem+json',
        'content-length': ANY_LENGTH,
        'x-request-id': 'problem-404-outside',
      },
      body: { text: '{"type":"about:blank","title":"Not Found","status":404,"detail":"nothing at /elsewhere"}' },
    },
  },
  {
    name: '405 with Allow: POST to a GET endpoint',
    request: ask('problem-405', 'POST', '/getSample', JSON_BODY, '{}'),
    expect: problemJson(
      'problem-405',
      405,
      { detail: `POST is not allowed on ${PREFIX}/getSample; use GET, HEAD` },
      { allow: 'GET, HEAD' },
    ),
  },
  {
    name: '405 with Allow: DELETE to a POST endpoint',
    request: ask('problem-405-delete', 'DELETE', '/echoSample'),
    expect: problemJson(
      'problem-405-delete',
      405,
      { detail: `DELETE is not allowed on ${PREFIX}/echoSample; use POST` },
      { allow: 'POST' },
    ),
  },
  {
    name: '413: a declared Content-Length over the limit, refused unread',
    request: ask('problem-413-declared', 'POST', '/echoSample', JSON_BODY, `"${'x'.repeat(MAX_BODY_BYTES)}"`),
    expect: problemJson('problem-413-declared', 413, { detail: `the request body is over ${MAX_BODY_BYTES} bytes` }),
  },
  {
    name: '413: a streamed body (no Content-Length) cut off once it crosses the limit',
    request: {
      ...ask('problem-413-streamed', 'POST', '/echoSample', JSON_BODY, `"${'y'.repeat(3 * MAX_BODY_BYTES)}"`),
      chunks: 6,
    },
    expect: problemJson('problem-413-streamed', 413, { detail: `the request body is over ${MAX_BODY_BYTES} bytes` }),
  },
  {
    name: '500: the request id, never the message',
    request: ask('problem-500', 'POST', '/crash'),
    expect: problemJson('problem-500', 500, {
      detail: 'The server failed to handle the request.',
      requestId: 'problem-500',
    }),
  },
  {
    name: "an HttpError's status, extension member and header",
    request: ask('problem-409', 'POST', '/reserve', JSON_BODY, '"12A"'),
    expect: problemJson('problem-409', 409, { detail: 'seat 12A is taken', seat: '12A' }, { 'retry-after': '30' }),
  },
  {
    name: 'an extension member in MessagePack: a problem descriptor first written during a request',
    request: ask(
      'problem-409-msgpack',
      'POST',
      '/reserve',
      { ...JSON_BODY, accept: 'application/json;q=0.5, application/problem+msgpack' },
      '"14C"',
    ),
    expect: {
      status: 409,
      headers: {
        'content-type': 'application/problem+msgpack',
        'content-length': ANY_LENGTH,
        vary: 'Accept',
        'retry-after': '30',
        'x-request-id': 'problem-409-msgpack',
      },
      body: {
        msgpack: { type: 'about:blank', title: 'Conflict', status: 409, detail: 'seat 14C is taken', seat: '14C' },
      },
    },
  },
];

const SAMPLE_ANSWER = jsonAnswer('head', SAMPLE_JSON);
const METHODS: Vector[] = [
  {
    name: "HEAD: the GET answer's headers, Content-Length included, without its body",
    request: ask('head', 'HEAD', '/getSample'),
    expect: headOf(SAMPLE_ANSWER),
  },
  {
    name: 'HEAD on a POST endpoint: 405 without a body',
    request: ask('head-405', 'HEAD', '/echoSample'),
    expect: headOf(
      problemJson(
        'head-405',
        405,
        { detail: `HEAD is not allowed on ${PREFIX}/echoSample; use POST` },
        { allow: 'POST' },
      ),
    ),
  },
  {
    name: 'OPTIONS: 204 with Allow',
    request: ask('options', 'OPTIONS', '/getSample'),
    expect: { status: 204, headers: { allow: 'GET, HEAD', 'x-request-id': 'options' }, body: { empty: true } },
  },
  {
    name: 'OPTIONS on a POST endpoint',
    request: ask('options-post', 'OPTIONS', '/echoSample'),
    expect: { status: 204, headers: { allow: 'POST', 'x-request-id': 'options-post' }, body: { empty: true } },
  },
  {
    name: '201 with Location',
    request: ask('status-201', 'POST', '/createSample', JSON_BODY, SAMPLE_JSON),
    expect: jsonAnswer('status-201', SAMPLE_JSON, 201, { location: `${PREFIX}/samples/${U64_MAX}` }),
  },
  {
    name: 'DELETE of a void method: 204 without a body',
    request: ask('status-204', 'DELETE', '/deleteSample', JSON_BODY, '5'),
    expect: { status: 204, headers: { vary: 'Accept', 'x-request-id': 'status-204' }, body: { empty: true } },
  },
  {
    name: 'two Set-Cookie lines stay two',
    request: ask('cookies', 'POST', '/login'),
    expect: {
      status: 204,
      headers: { vary: 'Accept', 'x-request-id': 'cookies' },
      setCookie: ['session=s1; Path=/; HttpOnly', 'theme=dark; Path=/'],
      body: { empty: true },
    },
  },
];

/** The app lists x-request-id, which lacquer exposes anyway. */
const EXPOSED = DEFAULT_EXPOSED_HEADERS.join(', ');
const CORS_ANSWER = (id: string) =>
  jsonAnswer(id, SAMPLE_JSON, 200, {
    vary: 'Accept, Origin',
    'access-control-allow-origin': ALLOWED_ORIGIN,
    'access-control-expose-headers': EXPOSED,
  });
const CORS: Vector[] = [
  {
    name: 'CORS: an allowed origin is named in the answer',
    request: ask('cors-allowed', 'GET', '/getSample', { origin: ALLOWED_ORIGIN }),
    expect: CORS_ANSWER('cors-allowed'),
  },
  {
    name: 'CORS: the preflight of an allowed origin',
    request: ask('cors-preflight', 'OPTIONS', '/echoSample', {
      origin: ALLOWED_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, authorization',
    }),
    expect: {
      status: 204,
      headers: {
        'access-control-allow-origin': ALLOWED_ORIGIN,
        'access-control-expose-headers': EXPOSED,
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'content-type, authorization',
        'access-control-max-age': '300',
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'x-request-id': 'cors-preflight',
      },
      body: { empty: true },
    },
  },
  {
    name: 'CORS: the preflight of another origin is refused',
    request: ask('cors-refused', 'OPTIONS', '/echoSample', {
      origin: 'https://evil.example',
      'access-control-request-method': 'POST',
    }),
    expect: problemJson('cors-refused', 403, {
      detail: 'cross-origin requests from https://evil.example are not allowed',
    }),
  },
  {
    name: 'CORS: a request from another origin is answered without CORS headers',
    request: ask('cors-other', 'GET', '/getSample', { origin: 'https://evil.example' }),
    expect: jsonAnswer('cors-other', SAMPLE_JSON),
  },
];

const CALLER_ADA = '{"name":"ada"}';
const SECURITY: Vector[] = [
  {
    name: 'bearer: a good token',
    request: ask('auth-good', 'POST', '/whoAmI', { authorization: `Bearer ${TOKENS.good}` }),
    expect: jsonAnswer('auth-good', CALLER_ADA),
  },
  {
    name: 'bearer: the scheme name in any case',
    request: ask('auth-case', 'POST', '/whoAmI', { authorization: `bEaReR ${TOKENS.good}` }),
    expect: jsonAnswer('auth-case', CALLER_ADA),
  },
  {
    name: 'bearer: no credentials, 401 with the challenge',
    request: ask('auth-missing', 'POST', '/whoAmI'),
    expect: problemJson(
      'auth-missing',
      401,
      { detail: 'this call needs credentials' },
      { 'www-authenticate': 'Bearer realm="api"' },
    ),
  },
  {
    name: 'bearer: a wrong token, 401 invalid_token',
    request: ask('auth-wrong', 'POST', '/whoAmI', { authorization: `Bearer ${TOKENS.wrong}` }),
    expect: problemJson(
      'auth-wrong',
      401,
      { detail: 'the credentials were refused' },
      { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' },
    ),
  },
  {
    name: 'bearer: a known caller refused, 403 without a challenge',
    request: ask('auth-403', 'POST', '/whoAmI', { authorization: `Bearer ${TOKENS.suspended}` }),
    expect: problemJson('auth-403', 403, { detail: 'ada is suspended' }),
  },
  {
    name: 'bearer: checked before the body is read (401, not 413)',
    request: ask('auth-before-body', 'POST', '/whoAmI', JSON_BODY, 'z'.repeat(2 * MAX_BODY_BYTES)),
    expect: problemJson(
      'auth-before-body',
      401,
      { detail: 'this call needs credentials' },
      { 'www-authenticate': 'Bearer realm="api"' },
    ),
  },
];

const REQUEST_IDS: Vector[] = [
  {
    name: "x-request-id: the client's own is echoed",
    request: ask('client-chosen-id_42', 'GET', '/getSample'),
    expect: jsonAnswer('client-chosen-id_42', SAMPLE_JSON),
  },
  {
    name: 'x-request-id: generated when the client sends none',
    request: { method: 'GET', path: `${PREFIX}/getSample`, headers: {} },
    expect: jsonAnswer('', SAMPLE_JSON, 200, { 'x-request-id': GENERATED_ID }),
  },
  {
    name: 'x-request-id: one with a space is replaced',
    request: ask('has space', 'GET', '/getSample'),
    expect: jsonAnswer('', SAMPLE_JSON, 200, { 'x-request-id': GENERATED_ID }),
  },
];

const INTERCEPTORS: Vector[] = [
  {
    name: "interceptors: the registry's outermost, then the service's, around the method",
    request: ask('trace', 'POST', '/trace'),
    expect: jsonAnswer('trace', '["registry in","service in","method","service out","registry out"]'),
  },
  {
    name: 'interceptors: one refusing with an HttpError and its header',
    request: ask('throttled', 'POST', '/throttled'),
    expect: problemJson('throttled', 429, { detail: 'slow down' }, { 'retry-after': '7' }),
  },
];

/** What each runtime passes the handler after the request, as `Platform.platform` describes it. */
export const PLATFORM: Readonly<Record<RuntimeKind, readonly string[]>> = {
  node: [], // called in process with the request alone
  bun: ['object{requestIP,upgrade}'], // Bun.serve: the server
  deno: ['object{remoteAddr,completed}'], // Deno.serve: ServeHandlerInfo
  workerd: ['object{STAGE}', 'object{waitUntil,passThroughOnException}'], // env (a text binding), ctx
};

/** `call.ip` per runtime: Bun and Deno know the peer (this test's 127.0.0.1); workerd alone sets no CF-Connecting-IP. */
const PEER: Readonly<Record<RuntimeKind, string>> = {
  node: 'unknown',
  bun: '127.0.0.1',
  deno: '127.0.0.1',
  workerd: 'unknown',
};

const PLATFORM_VECTORS: Vector[] = [
  {
    name: 'call.platform: what the runtime passes after the request',
    request: ask('platform', 'POST', '/platform'),
    expect: (runtime) => jsonAnswer('platform', JSON.stringify(PLATFORM[runtime])),
  },
  {
    name: "call.ip: the connection's address, through the ip option",
    request: ask('ip', 'POST', '/whereFrom'),
    expect: (runtime) => jsonAnswer('ip', JSON.stringify(PEER[runtime])),
  },
  {
    name: 'call.ip: CF-Connecting-IP counts only where the ip option reads it (Workers)',
    request: ask('ip-cf', 'POST', '/whereFrom', { 'cf-connecting-ip': '192.0.2.44' }),
    expect: (runtime) => jsonAnswer('ip-cf', JSON.stringify(runtime === 'workerd' ? '192.0.2.44' : PEER[runtime])),
  },
  {
    name: 'call.ip: X-Forwarded-For believed from the trusted load balancer (127.0.0.1)',
    request: ask('ip-xff', 'POST', '/whereFrom', { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' }),
    // The rightmost hop the load balancer added is the client; hops to its left are the client's word.
    expect: (runtime) =>
      jsonAnswer('ip-xff', JSON.stringify(PEER[runtime] === '127.0.0.1' ? '203.0.113.9' : PEER[runtime])),
  },
  {
    name: 'call.ip: X-Forwarded-For not believed from an untrusted peer',
    request: ask('ip-xff-untrusted', 'POST', '/whereFrom', {
      'cf-connecting-ip': '192.0.2.44',
      'x-forwarded-for': '198.51.100.7',
    }),
    expect: (runtime) =>
      jsonAnswer(
        'ip-xff-untrusted',
        JSON.stringify(
          runtime === 'workerd' ? '192.0.2.44' : PEER[runtime] === '127.0.0.1' ? '198.51.100.7' : PEER[runtime],
        ),
      ),
  },
];

/**
 * Code generation: the registry's endpoints were compiled when it was built (at start-up, in every
 * runtime); descriptors first used during a request are compiled where the runtime allows it, and
 * take the closure path, with the same answers, in workerd, which refuses `new Function` then.
 */
const CODEGEN: Vector[] = [
  {
    name: 'code generation: compiled at registration, closures for what a request uses first where the runtime refuses',
    request: ask('codegen', 'POST', '/codegen'),
    expect: (runtime) =>
      jsonAnswer(
        'codegen',
        JSON.stringify({
          registeredGenerated: true,
          lateRoundTrips: ['json true', 'msgpack true', 'cbor true'],
          lateGenerated: runtime !== 'workerd',
          inner: [
            '200 application/json {"id":9007199254740993,"note":"hi!"}',
            '400 application/problem+json {"type":"about:blank","title":"Bad Request","status":400,"detail":"-1 is outside u64 (0..18446744073709551615) at /id","code":"out_of_range","path":"/id","errors":[{"code":"out_of_range","path":"/id","message":"-1 is outside u64 (0..18446744073709551615) at /id"}]}',
          ],
        }),
      ),
  },
];

// ---- Compression --------------------------------------------------------------------------------
// Answers of 1 KiB or more are compressed with the runtime's CompressionStream for a client whose
// Accept-Encoding allows it, and carry `Vary: Accept-Encoding` whatever the coding; request bodies
// with Content-Encoding are inflated with its DecompressionStream, maxBodyBytes applying to the
// inflated size. Which formats those streams take differs between runtimes (probed with
// `new CompressionStream(format)` and `new DecompressionStream(format)`, alike in each):
//
//   Node 20                gzip, deflate
//   Bun 1.4.5              gzip, deflate, zstd
//   Deno 2.9.6             gzip, deflate
//   workerd 2026-11-17     gzip, deflate
//
// (deflate-raw in every one too; deflate is no answer coding of lacquer's.) br is in none of them,
// so lacquer's first choice (its order is br, zstd, gzip) is never offered in these runtimes, and
// Bun alone answers zstd where the client names it, as browsers do.
//
// None of the runtimes transforms the handler's answers on its own here: Bun.serve and workerd never
// compress what a handler returns (workerd would compress a body labelled `Content-Encoding` but not
// marked `encodeBody: 'manual'`, which the handler does mark), and Deno.serve compresses only when
// its automatic compression is on (off by default in 2.9.6, denoland/deno#35486; deno-server.ts turns
// it off explicitly, so that `DENO_SERVE_AUTOMATIC_COMPRESSION=1` cannot change the answers). No
// runtime inflates a request body before the handler reads it.

/** The codings each runtime's CompressionStream produces, in lacquer's order of preference (br, zstd, gzip). */
const COMPRESSES: Readonly<Record<RuntimeKind, readonly AnswerCoding[]>> = {
  // The Node running this spec, asked: Node 20 has gzip only (neither br nor zstd).
  node: (['br', 'zstd', 'gzip'] as const).filter((coding) => takesFormat('CompressionStream', coding)),
  bun: ['zstd', 'gzip'],
  deno: ['gzip'],
  workerd: ['gzip'],
};

/** The request codings each runtime's DecompressionStream inflates: what a 415's `Accept-Encoding` lists. */
const INFLATES: Readonly<Record<RuntimeKind, string>> = {
  node: (['gzip', 'deflate', 'br', 'zstd'] as const)
    .filter((coding) => takesFormat('DecompressionStream', coding))
    .join(', '),
  bun: 'gzip, deflate, zstd',
  deno: 'gzip, deflate',
  workerd: 'gzip, deflate',
};

/** Whether this process's `kind` stream takes `format`, as the fetch handler probes it. */
function takesFormat(kind: 'CompressionStream' | 'DecompressionStream', format: string): boolean {
  try {
    return new (globalThis[kind] as new (format: string) => unknown)(format) !== undefined;
  } catch {
    return false;
  }
}

/** The coding of a compressible answer in `runtime` for a client accepting `accepted` at equal q: the first lacquer prefers that the runtime has. */
function codingIn(runtime: RuntimeKind, accepted: readonly AnswerCoding[]): AnswerCoding | undefined {
  return COMPRESSES[runtime].find((coding) => accepted.includes(coding));
}

/** A sample as lacquer writes it in JSON: the u64 exact. */
function sampleJson(sample: Sample): string {
  return JSON.stringify({ ...sample, id: '\u0000' }).replace('"\\u0000"', String(sample.id));
}

/** What `listSamples` answers. */
const LIST: readonly Sample[] = Array.from({ length: LIST_LENGTH }, (_, i) => listedSample(i));
const LIST_JSON = `[${LIST.map(sampleJson).join(',')}]`;
/** What `echoSamples` answers for LIST (one added to each `count`). */
const ECHOED_LIST = LIST.map((sample) => ({ ...sample, count: sample.count + 1 }));
const ECHOED_LIST_JSON = `[${ECHOED_LIST.map(sampleJson).join(',')}]`;

/** Vary of an answer whose coding depended on Accept-Encoding. */
const VARY_CODED = 'Accept, Accept-Encoding';

/** A compressed answer; `inflated`, what its bytes inflate to. */
function encodedAnswer(
  id: string,
  coding: AnswerCoding,
  contentType: string,
  inflated: ExpectedBody,
  headers: Record<string, string | RegExp> = {},
): Expected {
  return {
    status: 200,
    headers: {
      'content-type': contentType,
      'content-length': ANY_LENGTH,
      'content-encoding': coding,
      vary: VARY_CODED,
      'x-request-id': id,
      ...headers,
    },
    body: { encoded: coding, inflated },
  };
}

/** LIST in JSON, compressed with `coding`, or as it is (with the Vary) when the runtime has none the client takes. */
function listAnswer(
  id: string,
  coding: AnswerCoding | undefined,
  headers: Record<string, string | RegExp> = {},
): Expected {
  return coding === undefined
    ? jsonAnswer(id, LIST_JSON, 200, { vary: VARY_CODED, ...headers })
    : encodedAnswer(id, coding, 'application/json', { text: LIST_JSON }, headers);
}

/** `echoSample`'s request and answer (JSON) for a sample whose answer is exactly `size` bytes. */
function echoOfSize(size: number): { request: string; answer: string } {
  const label = 'x'.repeat(size - bytes(ECHOED_JSON) + bytes(SAMPLE_VALUE.label));
  const request = sampleJson({ ...SAMPLE_VALUE, label });
  const answer = sampleJson({ ...ECHOED_VALUE, label });
  if (bytes(answer) !== size) throw new Error(`echoOfSize(${size}): ${bytes(answer)} bytes`);
  return { request, answer };
}
const AT_THRESHOLD = echoOfSize(1024);
const BELOW_THRESHOLD = echoOfSize(1023);

const gzip = (body: string | Uint8Array) => new Uint8Array(gzipSync(body));
/** SAMPLE_JSON in zstd, written by the zstd CLI 1.5.4 (`zstd -19`): node:zlib before Node 22.15 has no zstd. */
const SAMPLE_JSON_ZSTD = new Uint8Array(
  Buffer.from(
    'KLUv/QRo5QIAEgYWHaA5B3MVAnDWxij9z76/bcEEcFC69Mkgaxn0vwgB0oPk5MOOy/U4cn3f4D+w5/VvqqhKwvPjQzpeW7D4DjNbXh3Anw3kJNfGBtZasZzg1q4bdgnGV5hHAQAkxwjh',
    'base64',
  ),
);
/** A gzip bomb under the wire limit: 2 MiB of zeros in about 2 KB. */
const SMALL_BOMB = gzip(new Uint8Array(2 * 1024 * 1024));
/** A gzip bomb over the wire limit: 8 MiB of zeros in about 8 KB. */
const LARGE_BOMB = gzip(new Uint8Array(8 * 1024 * 1024));
if (SMALL_BOMB.byteLength >= MAX_BODY_BYTES || LARGE_BOMB.byteLength <= MAX_BODY_BYTES)
  throw new Error('the bombs no longer straddle MAX_BODY_BYTES');
/** SAMPLE_JSON gzipped, its deflate data damaged (bytes after the 10-byte header overwritten). */
const CORRUPT_GZIP = (() => {
  const bytes = gzip(SAMPLE_JSON);
  bytes.fill(0xff, 12, 20);
  return bytes;
})();
/** SAMPLE_JSON gzipped and cut short: no end of the deflate data, no CRC, no length. */
const TRUNCATED_GZIP = gzip(SAMPLE_JSON).subarray(0, 40);

const COMPRESSION: Vector[] = [
  // Answers.
  {
    name: 'compression: gzip for Accept-Encoding: gzip, with Vary: Accept-Encoding and the compressed Content-Length',
    request: ask('gzip', 'GET', '/listSamples', { 'accept-encoding': 'gzip' }),
    expect: listAnswer('gzip', 'gzip'),
  },
  {
    name: "compression: br where the runtime's CompressionStream takes it, gzip otherwise (everywhere, today)",
    request: ask('br-or-gzip', 'GET', '/listSamples', { 'accept-encoding': 'br, gzip' }),
    expect: (runtime) => listAnswer('br-or-gzip', codingIn(runtime, ['br', 'gzip'])),
  },
  {
    name: "compression: a browser's Accept-Encoding (gzip, deflate, br, zstd): zstd in Bun, gzip elsewhere",
    request: ask('browser', 'GET', '/listSamples', { 'accept-encoding': 'gzip, deflate, br, zstd' }),
    expect: (runtime) => listAnswer('browser', codingIn(runtime, ['gzip', 'br', 'zstd'])),
  },
  {
    name: 'compression: x-gzip is gzip',
    request: ask('x-gzip', 'GET', '/listSamples', { 'accept-encoding': 'x-gzip' }),
    expect: listAnswer('x-gzip', 'gzip'),
  },
  {
    name: 'compression: br alone, which no CompressionStream here takes: identity, with the Vary',
    request: ask('br-only', 'GET', '/listSamples', { 'accept-encoding': 'br' }),
    expect: (runtime) => listAnswer('br-only', codingIn(runtime, ['br'])),
  },
  {
    name: 'compression: every coding at q=0 (gzip;q=0, br;q=0): identity, with the Vary',
    request: ask('q0', 'GET', '/listSamples', { 'accept-encoding': 'gzip;q=0, br;q=0' }),
    expect: listAnswer('q0', undefined),
  },
  {
    name: 'compression: identity rated above gzip (gzip;q=0.5, identity): identity',
    request: ask('identity-first', 'GET', '/listSamples', { 'accept-encoding': 'gzip;q=0.5, identity' }),
    expect: listAnswer('identity-first', undefined),
  },
  {
    name: 'compression: an Accept-Encoding of junk is identity, never an error',
    request: ask('ae-junk', 'GET', '/listSamples', {
      'accept-encoding': 'gzip;q=2, "br", ;;, gzip;level=9, =, zstd;q=x',
    }),
    expect: listAnswer('ae-junk', undefined),
  },
  {
    name: 'compression: an answer below the threshold goes as it is, without Vary: Accept-Encoding',
    request: ask('small', 'GET', '/getSample', { 'accept-encoding': 'gzip, br, zstd' }),
    expect: jsonAnswer('small', SAMPLE_JSON),
  },
  {
    name: 'compression: an answer of exactly the threshold (1,024 bytes) is compressed',
    request: ask('threshold', 'POST', '/echoSample', { ...JSON_BODY, 'accept-encoding': 'gzip' }, AT_THRESHOLD.request),
    expect: encodedAnswer('threshold', 'gzip', 'application/json', { text: AT_THRESHOLD.answer }),
  },
  {
    name: 'compression: an answer of 1,023 bytes is not, and has no Vary: Accept-Encoding',
    request: ask(
      'below-threshold',
      'POST',
      '/echoSample',
      { ...JSON_BODY, 'accept-encoding': 'gzip' },
      BELOW_THRESHOLD.request,
    ),
    expect: jsonAnswer('below-threshold', BELOW_THRESHOLD.answer),
  },
  {
    name: 'compression: HEAD is never compressed (the identity Content-Length), and keeps the Vary',
    request: ask('head-gzip', 'HEAD', '/listSamples', { 'accept-encoding': 'gzip' }),
    expect: headOf(listAnswer('head-gzip', undefined)),
  },
  {
    name: 'compression: a MessagePack answer, gzipped',
    request: ask('gzip-msgpack', 'GET', '/listSamples', { accept: 'application/msgpack', 'accept-encoding': 'gzip' }),
    expect: encodedAnswer('gzip-msgpack', 'gzip', 'application/msgpack', { msgpack: LIST }),
  },
  {
    name: "compression: a CBOR answer in the runtime's best coding for a browser",
    request: ask('browser-cbor', 'GET', '/listSamples', {
      accept: 'application/cbor',
      'accept-encoding': 'gzip, deflate, br, zstd',
    }),
    expect: (runtime) =>
      encodedAnswer('browser-cbor', codingIn(runtime, ['gzip', 'br', 'zstd'])!, 'application/cbor', { cbor: LIST }),
  },
  {
    name: 'compression: with CORS, Vary lists Accept, Origin and Accept-Encoding',
    request: ask('gzip-cors', 'GET', '/listSamples', { origin: ALLOWED_ORIGIN, 'accept-encoding': 'gzip' }),
    expect: listAnswer('gzip-cors', 'gzip', {
      vary: 'Accept, Origin, Accept-Encoding',
      'access-control-allow-origin': ALLOWED_ORIGIN,
      'access-control-expose-headers': EXPOSED,
    }),
  },
  // Request bodies.
  {
    name: 'request body: gzip JSON, inflated',
    request: ask(
      'in-gzip-json',
      'POST',
      '/echoSample',
      { ...JSON_BODY, 'content-encoding': 'gzip' },
      gzip(SAMPLE_JSON),
    ),
    expect: jsonAnswer('in-gzip-json', ECHOED_JSON),
  },
  {
    name: 'request body: gzip CBOR, inflated',
    request: ask(
      'in-gzip-cbor',
      'POST',
      '/echoSample',
      { 'content-type': 'application/cbor', 'content-encoding': 'gzip' },
      gzip(asCbor(SAMPLE_VALUE)),
    ),
    expect: binaryAnswer('in-gzip-cbor', 'application/cbor', { cbor: ECHOED_VALUE }),
  },
  {
    name: 'request body: deflate (zlib-wrapped) JSON, inflated',
    request: ask(
      'in-deflate-json',
      'POST',
      '/echoSample',
      { ...JSON_BODY, 'content-encoding': 'deflate' },
      new Uint8Array(deflateSync(SAMPLE_JSON)),
    ),
    expect: jsonAnswer('in-deflate-json', ECHOED_JSON),
  },
  {
    name: 'request body: deflate sent raw (no zlib header) in CBOR, inflated',
    request: ask(
      'in-deflate-raw-cbor',
      'POST',
      '/echoSample',
      { 'content-type': 'application/cbor', 'content-encoding': 'deflate' },
      new Uint8Array(deflateRawSync(asCbor(SAMPLE_VALUE))),
    ),
    expect: binaryAnswer('in-deflate-raw-cbor', 'application/cbor', { cbor: ECHOED_VALUE }),
  },
  {
    name: 'request body: gzip streamed without Content-Length, inflated',
    request: {
      ...ask('in-gzip-chunked', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'gzip' }, gzip(SAMPLE_JSON)),
      chunks: 3,
    },
    expect: jsonAnswer('in-gzip-chunked', ECHOED_JSON),
  },
  {
    name: 'request body: Content-Encoding: identity is read as it is',
    request: ask('in-identity', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'identity' }, SAMPLE_JSON),
    expect: jsonAnswer('in-identity', ECHOED_JSON),
  },
  {
    name: 'request body: gzip in, gzip out (a list over the threshold both ways)',
    request: ask(
      'in-out-gzip',
      'POST',
      '/echoSamples',
      { ...JSON_BODY, 'content-encoding': 'gzip', 'accept-encoding': 'gzip' },
      gzip(LIST_JSON),
    ),
    expect: encodedAnswer('in-out-gzip', 'gzip', 'application/json', { text: ECHOED_LIST_JSON }),
  },
  {
    name: 'request body: zstd, inflated where DecompressionStream takes it (Bun), 415 elsewhere',
    request: ask('in-zstd', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'zstd' }, SAMPLE_JSON_ZSTD),
    expect: (runtime) =>
      INFLATES[runtime].split(', ').includes('zstd')
        ? jsonAnswer('in-zstd', ECHOED_JSON)
        : problemJson(
            'in-zstd',
            415,
            { detail: `a body with Content-Encoding 'zstd' cannot be read; supported: ${INFLATES[runtime]}` },
            { 'accept-encoding': INFLATES[runtime] },
          ),
  },
  {
    name: `request body: a gzip bomb of ${SMALL_BOMB.byteLength} bytes (2 MiB of zeros): 413 once inflating crosses the limit`,
    request: ask('in-bomb', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'gzip' }, SMALL_BOMB),
    expect: problemJson('in-bomb', 413, { detail: `the request body inflates to over ${MAX_BODY_BYTES} bytes` }),
  },
  {
    name: `request body: a gzip bomb of ${LARGE_BOMB.byteLength} bytes (8 MiB of zeros): 413 on its declared length, never inflated`,
    request: ask('in-bomb-large', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'gzip' }, LARGE_BOMB),
    expect: problemJson('in-bomb-large', 413, { detail: `the request body is over ${MAX_BODY_BYTES} bytes` }),
  },
  {
    name: 'request body: an unknown Content-Encoding (compress): 415 with the codings read in Accept-Encoding',
    request: ask('in-compress', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'compress' }, SAMPLE_JSON),
    expect: (runtime) =>
      problemJson(
        'in-compress',
        415,
        { detail: `a body with Content-Encoding 'compress' cannot be read; supported: ${INFLATES[runtime]}` },
        { 'accept-encoding': INFLATES[runtime] },
      ),
  },
  {
    name: 'request body: two codings stacked (gzip, deflate): 415',
    request: ask(
      'in-stacked',
      'POST',
      '/echoSample',
      { ...JSON_BODY, 'content-encoding': 'gzip, deflate' },
      gzip(SAMPLE_JSON),
    ),
    expect: (runtime) =>
      problemJson(
        'in-stacked',
        415,
        {
          detail: `a body with several content codings (gzip, deflate) cannot be read; one of ${INFLATES[runtime]} can`,
        },
        { 'accept-encoding': INFLATES[runtime] },
      ),
  },
  {
    name: 'request body: corrupt gzip: 400',
    request: ask('in-corrupt', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'gzip' }, CORRUPT_GZIP),
    expect: problemJson('in-corrupt', 400, { detail: 'the request body is not valid gzip data' }),
  },
  {
    name: 'request body: truncated gzip: 400',
    request: ask('in-truncated', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'gzip' }, TRUNCATED_GZIP),
    expect: problemJson('in-truncated', 400, { detail: 'the request body is not valid gzip data' }),
  },
  {
    name: 'request body: bytes that are not gzip at all under Content-Encoding: gzip: 400',
    request: ask('in-not-gzip', 'POST', '/echoSample', { ...JSON_BODY, 'content-encoding': 'gzip' }, SAMPLE_JSON),
    expect: problemJson('in-not-gzip', 400, { detail: 'the request body is not valid gzip data' }),
  },
];

const ROUTES: Vector[] = [
  {
    name: 'route: a u64 above 2^53 read from its path segment',
    request: ask('route-get', 'GET', `/samples/${U64_MAX}`),
    expect: jsonAnswer('route-get', SAMPLE_JSON),
  },
  {
    name: 'route: HEAD of a GET route, the same headers and no body',
    request: ask('route-head', 'HEAD', `/samples/${U64_MAX}`),
    expect: headOf(jsonAnswer('route-head', SAMPLE_JSON)),
  },
  {
    name: 'route: a path segment that is no u64 is 400 naming the parameter',
    request: ask('route-400', 'GET', '/samples/-1'),
    expect: problemJson('route-400', 400, {
      detail: '-1 is outside u64 (0..18446744073709551615) at /id',
      code: 'out_of_range',
      path: '/id',
      errors: [{ code: 'out_of_range', path: '/id', message: '-1 is outside u64 (0..18446744073709551615) at /id' }],
    }),
  },
  {
    name: 'route: PUT on the same path, the id from the path and the body in MessagePack, the answer in CBOR',
    request: ask(
      'route-put',
      'PUT',
      '/samples/5',
      { 'content-type': 'application/msgpack', accept: 'application/cbor' },
      asMsgpack({ label: 'neu' }),
    ),
    expect: binaryAnswer('route-put', 'application/cbor', { cbor: { ...SAMPLE_VALUE, id: 5, label: 'neu' } }),
  },
  {
    name: 'route: another verb on a routed path is 405 with Allow',
    request: ask('route-405', 'DELETE', '/samples/5'),
    expect: problemJson(
      'route-405',
      405,
      { detail: 'DELETE is not allowed on /api/samples/5; use GET, HEAD, PUT' },
      { allow: 'GET, HEAD, PUT' },
    ),
  },
  {
    name: 'route: an object parameter spread over the query, percent-encoding and + decoded, a default filled in',
    request: ask('route-query', 'GET', '/samples?label=gr%C3%BC%C3%9Fe+x'),
    expect: jsonAnswer('route-query', '["grüße x 0","grüße x 1"]'),
  },
  {
    name: 'route: a security scheme on a route, 401 before the path is read',
    request: ask('route-401', 'GET', '/samples/nope/secret'),
    expect: problemJson(
      'route-401',
      401,
      { detail: 'this call needs credentials' },
      { 'www-authenticate': 'Bearer realm="api"' },
    ),
  },
  {
    name: 'route: the same, admitted',
    request: ask('route-admitted', 'GET', '/samples/7/secret', { authorization: `Bearer ${TOKENS.good}` }),
    // A secured method's answers are private to their caller by default.
    expect: jsonAnswer('route-admitted', '"7 for ada"', 200, { 'cache-control': 'private' }),
  },
];

/** A JSON-RPC message to the app's JSON-RPC registry, with its own `x-request-id`. */
function askRpc(id: string, body: string | Uint8Array, headers: Record<string, string> = JSON_BODY): VectorRequest {
  return { method: 'POST', path: RPC_PREFIX, headers: { 'x-request-id': id, ...headers }, body };
}

/** The problem document of a JSON-RPC error's `data`, as JSON text. */
const outOfRange =
  '{"type":"about:blank","title":"Bad Request","status":400,"detail":"-1 is outside u64 (0..18446744073709551615) at /id","code":"out_of_range",' +
  '"path":"/id","errors":[{"code":"out_of_range","path":"/id","message":"-1 is outside u64 (0..18446744073709551615) at /id"}]}';

const JSON_RPC: Vector[] = [
  {
    name: 'JSON-RPC: a call by name, a u64 above 2^53 exact in params and in the result',
    request: askRpc('rpc-call', `{"jsonrpc":"2.0","method":"sampleById","params":{"id":${U64_MAX}},"id":1}`),
    expect: jsonAnswer('rpc-call', `{"jsonrpc":"2.0","result":${SAMPLE_JSON},"id":1}`),
  },
  {
    name: 'JSON-RPC: a batch answered in order: a result, invalid params with their path, a method not found',
    request: askRpc(
      'rpc-batch',
      '[{"jsonrpc":"2.0","method":"sampleById","params":[5],"id":1},' +
        '{"jsonrpc":"2.0","method":"relabel","params":{"id":-1,"label":"x"},"id":2},{"jsonrpc":"2.0","method":"nothing","id":3}]',
    ),
    expect: jsonAnswer(
      'rpc-batch',
      `[{"jsonrpc":"2.0","result":${SAMPLE_JSON.replace(String(U64_MAX), '5')},"id":1},` +
        `{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params","data":${outOfRange}},"id":2},` +
        '{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":{"type":"about:blank","title":"Bad Request","status":400,"detail":"there is no method \'nothing\'"}},"id":3}]',
    ),
  },
  {
    name: 'JSON-RPC: a MessagePack message answered in CBOR',
    request: askRpc(
      'rpc-binary',
      asMsgpack({ jsonrpc: '2.0', method: 'relabel', params: { id: U64_MAX, label: 'neu' }, id: 'b' }),
      { 'content-type': 'application/msgpack', accept: 'application/cbor' },
    ),
    expect: binaryAnswer('rpc-binary', 'application/cbor', {
      cbor: { jsonrpc: '2.0', result: { ...SAMPLE_VALUE, label: 'neu' }, id: 'b' },
    }),
  },
  {
    name: 'JSON-RPC: security per call, the refused call answered -32000 with its 401',
    request: askRpc('rpc-refused', '{"jsonrpc":"2.0","method":"whoAmI","id":1}'),
    expect: jsonAnswer(
      'rpc-refused',
      '{"jsonrpc":"2.0","error":{"code":-32000,"message":"this call needs credentials","data":' +
        '{"type":"about:blank","title":"Unauthorized","status":401,"detail":"this call needs credentials"}},"id":1}',
      200,
      { 'www-authenticate': 'Bearer realm="api"' },
    ),
  },
  {
    name: 'JSON-RPC: notifications only, 204 without a body',
    request: askRpc('rpc-notify', '[{"jsonrpc":"2.0","method":"getSample"},{"jsonrpc":"2.0","method":"nothing"}]'),
    expect: { status: 204, headers: { vary: 'Accept', 'x-request-id': 'rpc-notify' }, body: { empty: true } },
  },
];

/** A listed sample's JSON text, its u64 exact. */
const listedJson = (i: number) =>
  JSON.stringify({ ...listedSample(i), id: 0 }).replace('"id":0', `"id":${listedSample(i).id}`);

const STREAMS: Vector[] = [
  {
    name: 'stream: JSON Lines, one item per line, then the clean end',
    request: ask('stream-jsonl', 'GET', '/streamSamples', { accept: 'application/jsonl' }),
    expect: {
      status: 200,
      headers: {
        'content-type': 'application/jsonl',
        'cache-control': 'no-store',
        vary: 'Accept',
        'x-request-id': 'stream-jsonl',
      },
      body: { text: `${listedJson(0)}\n${listedJson(1)}\n${listedJson(2)}\n\n\n` },
    },
  },
  {
    name: 'stream: Server-Sent Events, message events, then the end event',
    request: ask('stream-sse', 'GET', '/streamSamples', { accept: 'text/event-stream' }),
    expect: {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        vary: 'Accept',
        'x-request-id': 'stream-sse',
      },
      body: {
        text: `data: ${listedJson(0)}\n\ndata: ${listedJson(1)}\n\ndata: ${listedJson(2)}\n\nevent: end\ndata:\n\n`,
      },
    },
  },
  {
    name: 'stream: a problem after an item ends it, told apart from the end',
    request: ask('stream-fail', 'GET', '/streamThenFail', { accept: 'application/jsonl' }),
    expect: {
      status: 200,
      headers: {
        'content-type': 'application/jsonl',
        'cache-control': 'no-store',
        vary: 'Accept',
        'x-request-id': 'stream-fail',
      },
      body: {
        text: `${listedJson(0)}\n\n{"type":"about:blank","title":"Conflict","status":409,"detail":"the feed moved on"}\n`,
      },
    },
  },
  {
    name: 'request stream: JSON Lines read item by item',
    request: ask(
      'stream-in',
      'POST',
      '/countSamples',
      { 'content-type': 'application/jsonl' },
      `${listedJson(0)}\n${listedJson(1)}\n${listedJson(2)}\n`,
    ),
    expect: jsonAnswer('stream-in', '"3 sss"'),
  },
  {
    name: 'request stream: a bad second item is a 400 at its index',
    request: ask(
      'stream-in-400',
      'POST',
      '/countSamples',
      { 'content-type': 'application/jsonl' },
      `${listedJson(0)}\n{"id":-1}\n`,
    ),
    expect: problemJson('stream-in-400', 400, {
      detail: '-1 is outside u64 (0..18446744073709551615) at /1/id',
      code: 'out_of_range',
      path: '/1/id',
      errors: [
        { code: 'out_of_range', path: '/1/id', message: '-1 is outside u64 (0..18446744073709551615) at /1/id' },
      ],
    }),
  },
  {
    name: 'stream: no acceptable framing is a 406 before anything runs',
    request: ask('stream-406', 'GET', '/streamSamples', { accept: 'text/html' }),
    // A stream method lists the stream types it writes.
    expect: problemJson('stream-406', 406, {
      detail:
        'none of the accepted types can be written; available: application/jsonl, application/msgpack-seq, application/cbor-seq, text/event-stream',
    }),
  },
];

/** An entity tag of lacquer's, strong; weak once the answer was compressed. */
const STRONG_TAG = /^"[0-9a-f]{16}"$/;
const WEAK_TAG = /^W\/"[0-9a-f]{16}"$/;

/**
 * `vector` expecting the `ETag` every 200 answer of an endpoint's GET or HEAD carries (a stream's
 * excepted): added here to each such vector rather than written into each.
 */
function withEntityTag(vector: Vector): Vector {
  const { method } = vector.request;
  if (method !== 'GET' && method !== 'HEAD') return vector;
  const tagged = (answer: Expected): Expected => {
    if (answer.status !== 200 || STREAM_TYPES.has(String(answer.headers['content-type']))) return answer;
    const coded = answer.headers['content-encoding'];
    return {
      ...answer,
      headers: { ...answer.headers, etag: coded === undefined || coded === 'identity' ? STRONG_TAG : WEAK_TAG },
    };
  };
  const { expect } = vector;
  return { ...vector, expect: typeof expect === 'function' ? (runtime) => tagged(expect(runtime)) : tagged(expect) };
}

/** The media types of streams, which carry no entity tag. */
const STREAM_TYPES = new Set([
  'application/jsonl',
  'text/event-stream',
  'application/cbor-seq',
  'application/msgpack-seq',
]);

/** Every vector, in the order they run. */
export const VECTORS: readonly Vector[] = [
  ...CODECS,
  ...NEGOTIATION,
  ...PROBLEMS,
  ...METHODS,
  ...CORS,
  ...SECURITY,
  ...REQUEST_IDS,
  ...INTERCEPTORS,
  ...PLATFORM_VECTORS,
  ...CODEGEN,
  ...COMPRESSION,
  ...ROUTES,
  ...STREAMS,
  ...JSON_RPC,
].map(withEntityTag);

/** The answer `vector` must get in `runtime`. */
export function expectedIn(vector: Vector, runtime: RuntimeKind): Expected {
  return typeof vector.expect === 'function' ? vector.expect(runtime) : vector.expect;
}

/** Kept out of every answer: the message of the error `crash` throws. */
export { SECRET };
