import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const PENDING = Symbol('lacquer.pending');

/** A connection as Node's HTTP server keeps it, with the fields read here, and the server's count. */
interface Connection extends Socket {
  /** Requests read from the connection whose handling has not finished. */
  [PENDING]: number;
  /** Node's: the answer being written, if any. */
  _httpMessage?: ServerResponse | null;
  /** Node's: the request being read, if any. */
  parser?: { incoming?: IncomingMessage | null; onIncoming?: unknown } | null;
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
 * Counts a request read from `socket` in. A client that pipelines more than `max` requests
 * without the earlier ones being answered (one that never reads them) is disconnected: `false`.
 */
export function admit(socket: Socket, max: number): boolean {
  const connection = socket as Connection;
  if (++connection[PENDING] <= max) return true;
  // Node goes on parsing the chunk it has read, up to 64 KiB of requests: stop it at the next one.
  stopReading(connection);
  connection.destroy();
  return false;
}

/** Counts a request out once its handling is over. */
export function release(socket: Socket): void {
  (socket as Connection)[PENDING]--;
}

/**
 * Node's idle timeout on a connection fired (`server.timeout`: no byte read or written for
 * `writeTimeoutMs`, or the keep-alive timeout). An answer still waiting to be written means the
 * client stopped reading: close. A request still arriving or being handled is left to the request
 * and handler timeouts. An idle keep-alive connection is closed, as Node does by default.
 */
export function onIdle(socket: Socket): void {
  const connection = socket as Connection;
  if (connection.writableLength === 0) {
    const incoming = connection.parser?.incoming;
    if ((incoming != null && !incoming.complete) || connection._httpMessage != null) return;
  }
  connection.destroy();
}
