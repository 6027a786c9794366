import type { IncomingMessage } from 'node:http';
import type { Load } from '../rest/load.ts';
import { answeredEarly } from './connection.ts';

/** The outcome of reading a request body under a cap; `busy` when the server's body budget ran out. */
export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Uint8Array }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'busy' }
  | { readonly kind: 'aborted' };

const EMPTY = new Uint8Array(0);

/** The `Content-Length` the client declared, if any (Node has already checked its syntax). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  return value === undefined ? undefined : Number(value);
}

const NO_BODY: BodyResult = Object.freeze({ kind: 'ok', body: EMPTY });
const TOO_LARGE: BodyResult = Object.freeze({ kind: 'too-large' });
const ABORTED: BodyResult = Object.freeze({ kind: 'aborted' });
const BUSY: BodyResult = Object.freeze({ kind: 'busy' });

function ignore(): void {}

/**
 * The body when it is known to be empty without reading: neither Content-Length nor
 * Transfer-Encoding (RFC 9112 §6.3), `Content-Length: 0`, or a stream already complete. Node dumps
 * the empty stream after the answer. Spares a promise and four listeners per GET.
 */
export function emptyBody(req: IncomingMessage): BodyResult | undefined {
  const length = req.headers['content-length'];
  if (req.complete || length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined)) return NO_BODY;
  return undefined;
}

/**
 * Reads the body, never holding more than `limit` bytes, and calls `done` once with the outcome: a
 * chunked body fails as soon as it crosses the cap; the chunks read so far are dropped then, and
 * the stream is left for the caller to discard. Each chunk is counted in `load` as it arrives: a
 * chunk that does not fit fails the read (`busy`). The bytes of a body read whole stay counted
 * (the caller counts them out when its call settles); those of a failed read are counted out here.
 * The caller has already answered a declared length over the cap (`declaredLength`) and taken a
 * body known to be empty (`emptyBody`), before sending 100 Continue. A callback rather than a
 * promise: the caller makes the one promise it needs.
 */
export function readBody(req: IncomingMessage, limit: number, load: Load, done: (result: BodyResult) => void): void {
  let chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  // The listeners stay on the request, which lives as long as its call: taking four off cost more
  // than the flag that makes them do nothing once the outcome is known ('close' follows 'end'). So
  // they must hold nothing then: the chunks go, and so does `done`, whose promise holds the body
  // (a call abandoned with its handler still running would keep the raw body besides its arguments).
  const finish = (result: BodyResult) => {
    if (finished) return;
    finished = true;
    chunks = [];
    if (result.kind !== 'ok') load.give(size);
    const tell = done;
    done = ignore;
    tell(result);
  };
  const onData = (chunk: Buffer) => {
    if (finished) return;
    if (size + chunk.length > limit) return finish(TOO_LARGE);
    if (!load.take(chunk.length)) return finish(BUSY);
    size += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (finished) return;
    const body = size === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    finish({ kind: 'ok', body });
  };
  const onAbort = () => finish(ABORTED);
  req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
}

/**
 * Bytes of an unread body still read, and dropped, after an early answer (413, 404, ...): closing
 * a socket with unread input sends a reset, and a client still uploading would lose the answer.
 */
export const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Drops what is left of a body without keeping it. A client that stops sending keeps its
 * connection until the request timeout closes it (without a second answer); one that sends more
 * than {@link LINGER_BYTES} is disconnected, by which time it has received the answer.
 */
export function discardRest(req: IncomingMessage): void {
  answeredEarly(req);
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) req.socket.destroy();
  });
  req.resume();
}
