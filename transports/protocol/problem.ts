import type { Codec } from '../../core/codec.ts';
import { json } from '../../codecs/json/index.ts';
import { HttpError } from '../../core/errors/http-error.ts';
import { ReadError, type ReadErrorEntry } from '../../core/errors/read-error.ts';
import { t } from '../../core/descriptors/index.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { chooseProblemCodec, problemMediaType } from './negotiate.ts';
import { appendHeader, headerMistake } from './call/call.ts';
import { remember } from '../../core/util/remember.ts';
import type { EndpointResponse, HeaderValues } from './types.ts';

/** An RFC 9457 problem document, as lacquer writes it. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail?: string;
  /** For read errors: the `ReadError` code (`missing_key`, ...). */
  code?: string;
  /** For read errors: a JSON Pointer into the request body. */
  path?: string;
  /**
   * For read errors: every problem found in the body, as `ReadError.errors` lists them (the first
   * is the one `code`, `path` and `detail` name; at most `MAX_READ_ERRORS`).
   */
  errors?: readonly ReadErrorEntry[];
  /** For 5xx answers: the request's id, as in its `x-request-id`, to find it in the server's logs. */
  requestId?: string;
  [extension: string]: string | number | readonly ReadErrorEntry[] | undefined;
}

const BASE_FIELDS = {
  type: t.string(),
  title: t.string(),
  status: t.u16(),
  detail: t.optional(t.string()),
};
/** The members of every problem document; any other is an extension member. */
export const PROBLEM_BASE_MEMBERS: ReadonlySet<string> = new Set(Object.keys(BASE_FIELDS));
/** The descriptor problem documents are written with, in every codec. */
export const Problem = t.object(
  {
    ...BASE_FIELDS,
    code: t.optional(t.string()),
    path: t.optional(t.string()),
    errors: t.optional(t.array(t.object({ code: t.string(), path: t.string(), message: t.string() }))),
    requestId: t.optional(t.string()),
  },
  { name: 'Problem' },
);

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of `status`, or a generic one. */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

/**
 * The reason phrase transports write for `status` when lacquer names it (RFC 9110's: `413 Content
 * Too Large`, where Node still says Payload), so that the status line and a problem's title agree.
 */
export function reasonPhrase(status: number): string | undefined {
  return STATUS_TEXT[status];
}

/**
 * A problem document of type `about:blank`: the title is the status text. `extensions` add
 * members; one named like a base member (`type`, `title`, `status`, `detail`) is ignored, so the
 * document always says what `status` and `detail` say.
 */
export function problem(
  status: number,
  detail?: string,
  extensions: Readonly<Record<string, string>> = {},
): ProblemDocument {
  const doc: ProblemDocument = { type: 'about:blank', title: statusText(status), status };
  if (detail !== undefined) doc.detail = writable(detail);
  for (const key in extensions) {
    if (PROBLEM_BASE_MEMBERS.has(key) || key === '__proto__' || !Object.hasOwn(extensions, key)) continue;
    // Extensions come from code (an HttpError's), typed as text but not checked by JavaScript: a
    // value no codec can write (a boolean, an object) is left out rather than failing the answer.
    const value: unknown = extensions[key];
    if (typeof value === 'string') doc[key] = writable(value);
    else if (typeof value === 'number' && Number.isFinite(value)) doc[key] = value;
  }
  return doc;
}

/** 500: the server's fault, its cause not shown; `requestId` finds it in the server's logs. */
export function serverFault(requestId?: string): ProblemDocument {
  return problem(500, 'The server failed to handle the request.', requestId === undefined ? {} : { requestId });
}

/** 406: no media type `Accept` allows can be written; `available` lists those that can. */
export function notAcceptable(available: string): ProblemDocument {
  return problem(406, `none of the accepted types can be written; available: ${available}`);
}

/** 415: a body in a media type no codec reads (answered with `Accept-Post`). */
export function unreadableBody(contentType: string): ProblemDocument {
  return problem(415, `a body of type '${contentType}' cannot be read`);
}

/**
 * `text` as every codec can write it: a lone surrogate (half of a UTF-16 pair, which is no Unicode
 * text, so no UTF-8) becomes U+FFFD, as `String.prototype.toWellFormed` does.
 */
function writable(text: string): string {
  return text.isWellFormed() ? text : text.toWellFormed();
}

/**
 * The problem document for an error: `ReadError` 400 with `code`, `path` and every problem as
 * `errors`, `HttpError` its status and message, anything else 500 whose message is sent only
 * when `expose` is true.
 */
export function problemForError(error: unknown, expose: boolean): ProblemDocument {
  try {
    return documentFor(error, expose);
  } catch {
    // What was thrown cannot even be looked at (a Proxy whose traps throw): a fault like any other.
    return serverFault();
  }
}

function documentFor(error: unknown, expose: boolean): ProblemDocument {
  if (error instanceof ReadError) {
    const doc = problem(400, error.message, { code: error.code, path: error.path });
    // A ReadError from another copy of the package, or made by hand, may lack the list.
    const errors = Array.isArray(error.errors)
      ? error.errors
      : [{ code: error.code, path: error.path, message: error.message }];
    doc.errors = errors.map(({ code, path, message }) => ({ code, path, message }));
    return doc;
  }
  if (error instanceof HttpError) {
    const doc = problem(error.status, error.message, error.extensions);
    if (typeof error.type === 'string') doc.type = writable(error.type);
    if (typeof error.title === 'string') doc.title = writable(error.title);
    return doc;
  }
  if (!expose) return serverFault();
  return problem(500, error instanceof Error ? error.message : String(error));
}

/**
 * Adds the headers an `HttpError` carries (`Retry-After` on a 429, `WWW-Authenticate` on a 401) to
 * `headers`, but none a call could not set itself (`content-type`, a value with CR or LF); `headers`
 * unchanged for any other error.
 */
export function errorHeaders(error: unknown, headers: HeaderValues = {}): HeaderValues {
  try {
    if (!(error instanceof HttpError)) return headers;
    const own = error.headers;
    for (const name in own) {
      const value = own[name];
      if (Object.hasOwn(own, name) && headerMistake(name, value) === undefined)
        appendHeader(headers, name.toLowerCase(), value!);
    }
  } catch {
    // What was thrown cannot be looked at (a Proxy whose traps throw): no headers from it.
  }
  return headers;
}

// Descriptors of documents with extension members, by their members and kinds: the codecs cache
// writers per descriptor, so a new descriptor per answer would compile a new writer per answer.
// The members are an `HttpError`'s, which a method may take from what a client sent: bounded by
// `remember` as every memo of such texts.
const withExtensions = new Map<string, Type>();

function descriptorFor(doc: ProblemDocument): Type {
  const extra = Object.keys(doc).filter((k) => !(k in Problem.fields));
  if (extra.length === 0) return Problem;
  const shape = JSON.stringify(extra.map((k) => [k, typeof doc[k] === 'number']));
  let type = withExtensions.get(shape);
  if (type === undefined) {
    const fields: Record<string, Type> = { ...Problem.fields };
    for (const k of extra) fields[k] = typeof doc[k] === 'number' ? t.f64() : t.string();
    type = remember(withExtensions, shape, t.object(fields));
  }
  return type;
}

/**
 * Writes `doc` as `application/problem+json`, or `+cbor`/`+msgpack` when `accept` names that type
 * and the codec is among `codecs`. `headers` are added to the answer; with several codecs to choose
 * from, the answer depends on `Accept` and says so (`Vary: Accept`) unless `headers` hold a `vary`.
 */
export function problemResponse(
  doc: ProblemDocument,
  accept: string | null,
  codecs: readonly Codec[] = [json],
  headers: HeaderValues = {},
): EndpointResponse {
  const fallback = codecs.find((c) => c.name === 'json') ?? json;
  const codec = chooseProblemCodec(codecs, accept, fallback);
  const out: HeaderValues =
    codecs.length > 1 && headers.vary === undefined ? { ...headers, vary: 'Accept' } : { ...headers };
  out['content-type'] = problemMediaType(codec);
  return { status: doc.status, headers: out, body: encodeProblem(codec, doc) };
}

/** `doc` as `codec` writes it, extension members included (in answers and in streams' error frames). */
export function encodeProblem(codec: Codec, doc: ProblemDocument): Uint8Array | string {
  try {
    return codec.encode(descriptorFor(doc), doc as never);
  } catch {
    // A document made by hand that its codec cannot write: its status and request id still go out.
    const plain = problem(doc.status);
    if (typeof doc.requestId === 'string') plain.requestId = writable(doc.requestId);
    return codec.encode(Problem, plain as never);
  }
}
