import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isFrames, stopFrames } from '../protocol/answer-body.ts';
import { flatText } from '../protocol/flat-text.ts';
import type { EndpointResponse, Frames, HeaderValues } from '../protocol/types.ts';
import { problem, problemResponse, reasonPhrase, statusText } from '../protocol/problem.ts';
import { ensureRequestId } from '../protocol/pipeline/request-id.ts';
import { utf8Length } from '../protocol/utf8-length.ts';
import { isAnswered, written } from './connection.ts';

/**
 * Writes an answer through Node: `Content-Length` always (but for frames, written as they come),
 * `x-request-id` always, no body for HEAD, 204 and 304. Returns the bytes of body written (0 when
 * nothing was, or frames).
 */
export function writeResponse(res: ServerResponse, answer: EndpointResponse, head: boolean, close: boolean): number {
  // The connection is gone (closed for too many answers waiting, say): nothing to queue for it.
  if (res.headersSent || res.destroyed || res.req.socket?.destroyed === true) {
    if (isFrames(answer.body)) stopFrames(answer.body);
    return 0;
  }
  // Completed in place, not copied: an answer is made for the one request it answers.
  const headers = answer.headers;
  const bodyless = answer.status === 204 || answer.status === 304;
  const body = bodyless ? undefined : answer.body;
  if (bodyless && isFrames(answer.body)) stopFrames(answer.body);
  if (close) headers.connection = 'close';
  // Every answer carries one; those made outside a request's handling (417, an internal error) get a new one.
  ensureRequestId(headers);
  if (isFrames(body)) {
    writeHead(res, answer.status, headers);
    if (head) {
      stopFrames(body);
      res.end();
    } else void writeFrames(res, body);
    return 0;
  }
  const length = body === undefined ? 0 : typeof body === 'string' ? byteLength(body) : body.byteLength;
  if (!bodyless) headers['content-length'] = String(length);
  writeHead(res, answer.status, headers);
  if (head || body === undefined) {
    res.end();
    return 0;
  }
  res.end(typeof body === 'string' ? flatText(body) : body);
  return length;
}

function writeHead(res: ServerResponse, status: number, headers: HeaderValues): void {
  // Node's own phrase, unless lacquer's differs (413 Content Too Large): Node then checks no text.
  const reason = reasonPhrase(status);
  if (reason === undefined || reason === STATUS_CODES[status]) res.writeHead(status, headers);
  else res.writeHead(status, reason, headers);
}

/**
 * Writes each frame as it comes, asking for the next only once Node can take more (`drain`). The
 * headers go at once, before the first frame. When the client goes away the source is told at
 * once (`return()`), even while it is waiting for a frame, which then reads as the end: nothing
 * here waits on it any longer. A source that fails mid-answer cuts the connection: the chunked
 * framing is left unterminated, so that the client reads an error, never a clean end. (How a
 * failure is told in-band, before the cut, is the framing's: stream formats write their own.)
 */
async function writeFrames(res: ServerResponse, frames: Frames): Promise<void> {
  const iterator = frames[Symbol.asyncIterator]();
  const gone = () => void iterator.return?.()?.catch(() => {});
  res.once('close', gone);
  res.flushHeaders();
  try {
    for (;;) {
      const next = await iterator.next();
      if (res.destroyed) return;
      if (next.done === true) {
        res.off('close', gone);
        res.end();
        return;
      }
      // A write to a response gone meanwhile would wait for a 'drain' that never comes.
      if (!res.write(next.value)) await drained(res);
    }
  } catch {
    res.off('close', gone);
    // Ended without the chunked framing's last chunk: what was written reaches the client, and
    // the connection's end before the last chunk reads as an error.
    const socket = res.socket;
    if (socket === null) res.destroy();
    else socket.end();
  }
}

/** Resolves once `res` can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** The UTF-8 length of `text`: counted here when it is short (a call into Buffer costs more). */
function byteLength(text: string): number {
  return text.length > SHORT_TEXT ? Buffer.byteLength(text) : utf8Length(text);
}

const SHORT_TEXT = 256;

/** A fault of the server itself: answered 500 if an answer can still be written, never a crash. */
export function answerInternalError(error: unknown, req: IncomingMessage, res: ServerResponse): void {
  console.error('lacquer/http: internal error', error);
  if (!res.headersSent) written(req.socket, res, writeResponse(res, problemResponse(problem(500), null), false, true));
  else res.destroy();
}

/**
 * Answers on a raw socket when Node's parser rejected the request (malformed line or headers, 431,
 * 408 on a timeout), so that even these answers are problem documents.
 */
export function writeRawProblem(socket: Socket, status: number, detail: string): void {
  const body = JSON.stringify(problem(status, detail));
  const headers: HeaderValues = { 'content-type': 'application/problem+json' };
  ensureRequestId(headers);
  headers['content-length'] = String(Buffer.byteLength(body));
  headers.connection = 'close';
  let head = `HTTP/1.1 ${status} ${statusText(status)}\r\n`;
  for (const name in headers) head += `${name}: ${String(headers[name])}\r\n`;
  socket.end(`${head}\r\n${body}`);
}

/** Answers `Expect` with anything but `100-continue` (Node's `checkExpectation`): 417, and close. */
export function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const expectation = req.headers.expect ?? '';
  const answer = problemResponse(
    problem(417, `the expectation '${expectation}' cannot be met; only 100-continue is supported`),
    null,
  );
  writeResponse(res, answer, req.method === 'HEAD', true);
  req.resume();
}

/** Answers CONNECT (Node hands over the raw socket): no tunnels here, 501, and close. */
export function answerConnect(_req: IncomingMessage, socket: Socket): void {
  // Node has taken its own listeners off this socket: without one, an error would be thrown.
  socket.on('error', () => socket.destroy());
  writeRawProblem(socket, 501, 'CONNECT is not supported: this server is not a proxy');
  socket.once('finish', () => socket.destroy());
}

/**
 * Answers a request Node's parser rejected (`clientError`), unless an answer is already under way
 * or was given: a request answered before its body arrived (404, 413, 503…) and then failing (the
 * request timeout passing, a malformed chunk) closes the connection without a second answer.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const pending = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent || isAnswered(socket)) {
    socket.destroy();
    return;
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') writeRawProblem(socket, 431, 'the request headers are too large');
  else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    writeRawProblem(socket, 408, 'the request was not received in time');
  else writeRawProblem(socket, 400, `malformed request: ${err.message}`);
}
