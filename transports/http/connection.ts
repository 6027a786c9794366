import type { Socket } from 'node:net';

const PENDING = Symbol('lacquer.pending');

/** A connection as Node's HTTP server keeps it, with the field set here, and the server's count. */
interface Connection extends Socket {
  /** Requests read from the connection whose answer has not been handed to Node yet. */
  [PENDING]: number;
  /** Node's: the request parser, whose callback `stopReading` replaces (absent: nothing is done). */
  parser?: { onIncoming?: unknown } | null;
}

/** Starts counting a new connection's requests (the server's `connection` event). */
export function track(socket: Socket): void {
  (socket as Connection)[PENDING] = 0;
}

/**
 * Node's parser takes 2 from the request callback as "stop parsing here" (what it does for an
 * upgrade): the rest of the data already read is dropped instead of becoming thousands of requests.
 */
function stopParsing(): number {
  return 2;
}

/**
 * Makes Node stop parsing requests from `socket`: what it has read and not parsed yet is dropped,
 * and so is anything read later. For a connection about to close whose framing cannot be trusted.
 */
export function stopReading(socket: Socket): void {
  const connection = socket as Connection;
  if (connection.parser != null) connection.parser.onIncoming = stopParsing;
}

/**
 * Counts a request read from `socket` in; `release` counts it out when its answer is handed to
 * Node (not when the client reads it). More than `max` counted at once happens when one read
 * brings more than `max` pipelined requests before their answers are ready: the connection is
 * destroyed, those requests unanswered, and `false` returned. A client that does not read is
 * stopped by Node's output back-pressure and the write timeout (`onIdle`), not here.
 */
export function admit(socket: Socket, max: number): boolean {
  const connection = socket as Connection;
  if (++connection[PENDING] <= max) return true;
  // Node goes on parsing the chunk it has read, up to 64 KiB of requests: stop it at the next one.
  stopReading(connection);
  connection.destroy();
  return false;
}

/** Counts a request out once its answer is handed to Node (or it needs none). */
export function release(socket: Socket): void {
  (socket as Connection)[PENDING]--;
}

/**
 * Node's idle timeout on a connection fired (`server.timeout`: no byte read or written for
 * `writeTimeoutMs`, or the keep-alive timeout). An answer still waiting to be written means the
 * client stopped reading: close. With nothing to write, a request whose headers were read and
 * which is not answered yet (its body arriving, its handler running) is left to the request and
 * handler timeouts. Anything else (an idle keep-alive connection, headers still arriving) is
 * closed, as Node does by default. Only the server's own count is read, no Node internals.
 */
export function onIdle(socket: Socket): void {
  const connection = socket as Connection;
  if (connection.writableLength === 0 && connection[PENDING] > 0) return;
  connection.destroy();
}
