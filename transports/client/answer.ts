import { abortable, discard } from './abort.ts';
import type { Codec } from '../../core/codec.ts';
import { HttpError, type ProblemEntry } from '../../core/errors/http-error.ts';
import { MAX_READ_ERRORS, ReadError } from '../../core/errors/read-error.ts';
import { DEFAULT_MAX_BYTES, type ReadOptions } from '../../core/options.ts';
import { mediaTypeEssence } from '../protocol/media-type.ts';
import { codecForContentType, problemMediaType } from '../protocol/negotiate.ts';
import { PROBLEM_BASE_MEMBERS, Problem, statusText } from '../protocol/problem.ts';
import type { Type } from '../../core/descriptors/type.ts';
import { t } from '../../core/descriptors/index.ts';

const utf8 = new TextDecoder();

/**
 * 64 KiB: the most of an error answer's body the client reads for its problem document (and no
 * more than `maxBytes`); a longer one is not read, and the error carries the status alone.
 */
export const DEFAULT_MAX_ERROR_BYTES = 64 * 1024;

/**
 * The body of `response`, reading at most `limit` bytes: `undefined` when it is longer (a declared
 * `Content-Length` says so before anything is read), and the rest is cancelled, not downloaded.
 * Rejects with `signal`'s reason as soon as it aborts, the body cancelled, however the stream behaves.
 */
async function readCapped(response: Response, limit: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  const body = response.body;
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    discard(response);
    return undefined;
  }
  if (signal?.aborted === true) {
    discard(response);
    throw signal.reason;
  }
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  // Cancelling ends a pending read as if the body were complete: `abortable` rejects it first.
  const onAbort = () => reader.cancel(signal!.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  signal?.throwIfAborted();
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Reads a 2xx answer with `returns`, in the codec its `Content-Type` names (one of `codecs`);
 * `t.void()` reads nothing. Throws `ReadError` when the body does not fit the descriptor, and
 * `limit_exceeded` as soon as it is over `maxBytes` (the rest is not downloaded).
 */
export async function readResult(
  response: Response,
  returns: Type,
  codecs: readonly Codec[],
  opts: ReadOptions,
  signal?: AbortSignal,
): Promise<unknown> {
  if (returns.kind === 'void') {
    discard(response);
    return undefined;
  }
  const contentType = response.headers.get('content-type');
  const codec = contentType === null ? undefined : codecForContentType(codecs, contentType);
  if (codec === undefined) {
    discard(response);
    const known = codecs.map((c) => c.contentTypes[0]).join(', ');
    throw new TypeError(
      `lacquer/client: the answer is ${contentType ?? 'without a Content-Type'}; this client reads ${known}`,
    );
  }
  const limit = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const body = await readCapped(response, limit, signal);
  if (body === undefined) throw new ReadError('limit_exceeded', '', `the answer is over maxBytes (${limit})`);
  return codec.decode(returns, body, opts);
}

/** A problem document without `errors`: what is read of one whose `errors` is not a list of entries. */
const { errors: _errors, ...PROBLEM_WITHOUT_ERRORS } = Problem.fields;
const ProblemWithoutErrors = t.object(PROBLEM_WITHOUT_ERRORS);

/** The problem document of an error answer, as far as it can be read; `{}` when it cannot. */
function readProblem(contentType: string | null, body: Uint8Array, codecs: readonly Codec[]): Record<string, unknown> {
  const essence = contentType === null ? undefined : mediaTypeEssence(contentType);
  try {
    if (essence === 'application/problem+json' || essence === 'application/json') {
      const doc: unknown = JSON.parse(utf8.decode(body));
      return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
    }
    // `application/problem+cbor` and the like, from a server asked for them.
    const codec = codecs.find((c) => essence === problemMediaType(c));
    if (codec !== undefined) {
      try {
        return codec.decode(Problem, body, { errorOnUnknownKeys: false }) as Record<string, unknown>;
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        // `errors` in a shape of its own: the rest of the document still says what went wrong.
        return codec.decode(ProblemWithoutErrors, body, { errorOnUnknownKeys: false }) as Record<string, unknown>;
      }
    }
  } catch {
    // An unreadable problem document still leaves the status.
  }
  return {};
}

/** A problem document's `errors`: the entries with text `code`, `path` and `message`, at most `MAX_READ_ERRORS`. */
function problemEntries(errors: unknown): ProblemEntry[] {
  if (!Array.isArray(errors)) return [];
  const out: ProblemEntry[] = [];
  for (const e of errors) {
    if (out.length === MAX_READ_ERRORS) break;
    if (typeof e !== 'object' || e === null) continue;
    const { code, path, message } = e as Record<string, unknown>;
    if (typeof code === 'string' && typeof path === 'string' && typeof message === 'string')
      out.push({ code, path, message });
  }
  return out;
}

/**
 * The error for a non-2xx answer: an `HttpError` with the problem document's status, `detail`
 * (its message), `type`, `title`, `code`/`path` among its extensions, and its `errors` (every
 * problem a server found in the body; entries that are not `{ code, path, message }` texts are
 * left out). Statuses outside
 * 400 to 599 (an unfollowed redirect) give a plain `Error`. At most `limit` bytes of the body are
 * read: past that, the error carries the status alone. Rejects with `signal`'s reason if it
 * aborts while the body is read.
 */
export async function errorFor(
  response: Response,
  codecs: readonly Codec[],
  limit: number,
  signal?: AbortSignal,
): Promise<Error> {
  const { status } = response;
  if (status < 400 || status > 599) {
    discard(response);
    return new Error(`lacquer/client: unexpected status ${status}`);
  }
  let body: Uint8Array = new Uint8Array(0);
  try {
    body = (await readCapped(response, limit, signal)) ?? body;
  } catch {
    // The connection broke while the problem document arrived; the status says enough.
  }
  signal?.throwIfAborted();
  return problemError(status, readProblem(response.headers.get('content-type'), body, codecs));
}

/** The `HttpError` of a problem document answered with `status`. */
export function problemError(status: number, doc: Record<string, unknown>): HttpError {
  const extensions: Record<string, string> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (PROBLEM_BASE_MEMBERS.has(key) || key === '__proto__') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      extensions[key] = String(value);
  }
  const title = typeof doc.title === 'string' ? doc.title : undefined;
  const detail = typeof doc.detail === 'string' ? doc.detail : (title ?? `${status} ${statusText(status)}`);
  return new HttpError(status, detail, {
    type: typeof doc.type === 'string' ? doc.type : 'about:blank',
    ...(title === undefined ? {} : { title }),
    extensions,
    errors: problemEntries(doc.errors),
  });
}
