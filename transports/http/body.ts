import type { IncomingMessage } from 'node:http';
import { BROKEN, type BodyCollector, type BodyResult } from '../protocol/pipeline/request-body.ts';
import { answeredEarly } from './connection.ts';

/**
 * The body when it is known to be empty without reading: neither Content-Length nor
 * Transfer-Encoding (RFC 9112 §6.3), `Content-Length: 0`, or a stream already complete. Node dumps
 * the empty stream after the answer. Spares a promise and four listeners per GET.
 */
export function bodyIsEmpty(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.complete || length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined);
}

/**
 * Reads the body into `collector` (which fails it as soon as it crosses the limit or the server's
 * load), and calls `done` once with the outcome; after a failure the stream is left for the caller
 * to discard. A callback rather than a promise: the caller makes the one promise it needs.
 */
export function readBody(req: IncomingMessage, collector: BodyCollector, done: (result: BodyResult) => void): void {
  let finished = false;
  // The listeners stay on the request, which lives as long as its call: taking four off cost more
  // than the flag that makes them do nothing once the outcome is known ('close' follows 'end'). So
  // they must hold nothing then: the collector lets go of the chunks, and `done` is dropped, whose
  // promise holds the body (a call abandoned with its handler still running would keep the raw
  // body besides its arguments).
  const finish = (result: BodyResult) => {
    if (finished) return;
    finished = true;
    const tell = done;
    done = ignore;
    tell(result);
  };
  const onData = (chunk: Buffer) => {
    if (finished) return;
    const failed = collector.add(chunk);
    if (failed !== undefined) finish(failed);
  };
  const onEnd = () => {
    if (!finished) finish(collector.finish());
  };
  const onAbort = () => {
    if (!finished) finish(collector.fail(BROKEN));
  };
  req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
}

function ignore(): void {}

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
