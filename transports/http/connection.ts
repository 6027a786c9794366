import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const REQUESTS = Symbol('lacquer.requests');
const QUEUED = Symbol('lacquer.queued');
const QUEUED_BYTES = Symbol('lacquer.queuedBytes');
const OWNER = Symbol('lacquer.connections');
const SENT = Symbol('lacquer.sent');
const SINCE = Symbol('lacquer.since');
const ANSWERED_EARLY = Symbol('lacquer.answeredEarly');
const CONNECTION = Symbol('lacquer.connection');
const BYTES = Symbol('lacquer.bytes');
const HELD = Symbol('lacquer.held');

/** Runs a request the server read (its `request` or `checkContinue` event). */
export type RunRequest = (req: IncomingMessage, res: ServerResponse, expectContinue: boolean) => void;

/** A connection as Node's HTTP server keeps it, with the fields set here. */
interface Connection extends Socket {
  /** Requests read whose answer is not written yet (handed to the kernel): running, or waiting. */
  [REQUESTS]: number;
  /** Answers handed to Node and not written yet: behind an earlier answer, or for a client not reading. */
  [QUEUED]: number;
  /** The body bytes of those answers. */
  [QUEUED_BYTES]: number;
  [OWNER]: Connections;
  /** What `sent` said when the write timeout last saw progress, and when that was (`performance.now()`). */
  [SENT]: number;
  [SINCE]: number;
  /** A request answered before its body was received, whose body is still being discarded. */
  [ANSWERED_EARLY]: IncomingMessage | undefined;
  /** Requests read but not run yet, while too many answer bytes wait: request, response, expects 100-continue, in turn. */
  [HELD]: (IncomingMessage | ServerResponse | boolean)[] | undefined;
  /** Node's: the request parser, whose callback `stopReading` replaces (absent: nothing is done). */
  parser?: { onIncoming?: unknown } | null;
  /** Node's: the libuv handle; `writeQueueSize` is what it has not handed to the kernel yet. */
  _handle?: { writeQueueSize?: number } | null;
}

/** An answer waiting to be written, with what it counts for. */
interface QueuedAnswer extends ServerResponse {
  [CONNECTION]: Connection;
  [BYTES]: number;
}

/**
 * The connections of one server: how many requests and answer bytes each has waiting
 * (`maxPipelinedRequests`, `maxQueuedAnswerBytes`), and the write timeout of those whose answers
 * wait. An answer written at once (the common case) costs two counter updates; only an answer
 * that has to wait gets a listener, and its connection a place in the set the timer looks at.
 */
export class Connections {
  /** Connections that had an answer waiting when last looked at. */
  readonly #waiting = new Set<Connection>();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly maxRequests: number,
    readonly maxBytes: number,
    readonly writeTimeoutMs: number,
    /** Runs a request now, or once its connection's answers have gone out (held by `admit`). */
    readonly run: RunRequest,
  ) {}

  /** Starts counting a new connection (the server's `connection` event). */
  readonly track = (socket: Socket): void => {
    const connection = socket as Connection;
    connection[REQUESTS] = 0;
    connection[QUEUED] = 0;
    connection[QUEUED_BYTES] = 0;
    connection[OWNER] = this;
    connection[SENT] = 0;
    connection[SINCE] = 0;
    connection[ANSWERED_EARLY] = undefined;
    connection[HELD] = undefined;
  };

  /**
   * Counts a request read in, and says whether to run it now; `written` counts it out once its
   * answer is handed to the kernel. A request read while more than `maxRequests` are counted
   * destroys the connection: those requests get no answer, and the rest of what Node has read (up
   * to 64 KiB of requests) is not parsed. A request read while more than `maxBytes` of answers
   * wait (or others are held) is held, and run (by `run`) in turn as the client reads the answers:
   * answers made at once for pipelined requests never pile up past the cap, and a client that
   * reads them gets them all. `false` when the request is not to be run now.
   */
  admit(req: IncomingMessage, res: ServerResponse, expectContinue: boolean): boolean {
    const connection = req.socket as Connection;
    if (++connection[REQUESTS] > this.maxRequests) {
      stopReading(connection);
      connection.destroy();
      return false;
    }
    if (connection[QUEUED_BYTES] <= this.maxBytes && connection[HELD] === undefined) return true;
    (connection[HELD] ??= []).push(req, res, expectContinue);
    return false;
  }

  /** Runs the requests held for `connection` while its answers waiting fit under the cap. */
  resume(connection: Connection): void {
    const held = connection[HELD];
    if (held === undefined) return;
    while (held.length > 0 && connection[QUEUED_BYTES] <= this.maxBytes && !connection.destroyed) {
      const req = held.shift() as IncomingMessage;
      const res = held.shift() as ServerResponse;
      this.run(req, res, held.shift() as boolean);
    }
    if (held.length === 0 && connection[HELD] === held) connection[HELD] = undefined;
  }

  /**
   * Checks the connections whose answers wait, every `writeTimeoutMs / 10` (10 ms to 1 s): one
   * whose client has taken no byte for `writeTimeoutMs` is destroyed, releasing its answers. Node's
   * own idle timer cannot say this: reads refresh it, and it lets a write in progress run a second
   * period.
   */
  watch(): void {
    if (this.writeTimeoutMs === 0 || this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.#sweep(), Math.min(1000, Math.max(10, this.writeTimeoutMs / 10))).unref();
  }

  unwatch(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** A connection with an answer waiting since now (its first). */
  wait(connection: Connection): void {
    if (this.#timer === undefined) return;
    connection[SENT] = sent(connection);
    connection[SINCE] = performance.now();
    this.#waiting.add(connection);
  }

  #sweep(): void {
    const now = performance.now();
    for (const connection of this.#waiting) {
      if (connection[QUEUED] === 0 || connection.destroyed) {
        this.#waiting.delete(connection);
        continue;
      }
      const progress = sent(connection);
      // A client that has taken every byte written so far is not holding anything up (an answer
      // whose frames come slowly): only bytes it leaves waiting count against the timeout.
      if (progress !== connection[SENT] || pending(connection) === 0) {
        connection[SENT] = progress;
        connection[SINCE] = now;
      } else if (now - connection[SINCE] >= this.writeTimeoutMs) {
        this.#waiting.delete(connection);
        connection.destroy();
      }
    }
  }
}

/** The bytes written to `connection` that the kernel has not taken yet. */
function pending(connection: Connection): number {
  return connection.writableLength + (connection._handle?.writeQueueSize ?? 0);
}

/** The bytes `connection` has handed to the kernel: grows whenever the client takes some. */
function sent(connection: Connection): number {
  return (connection.bytesWritten ?? 0) - (connection._handle?.writeQueueSize ?? 0);
}

/**
 * Counts out the request `res` answers, once Node has its answer (`bytes` of body): at once when
 * the kernel took it all, else when it has (`finish`), the answer counting meanwhile against the
 * connection's caps and its write timeout.
 */
export function written(socket: Socket, res: ServerResponse, bytes: number): void {
  const connection = socket as Connection;
  if (res.writableFinished || connection[OWNER] === undefined) {
    connection[REQUESTS]--;
    return;
  }
  const queued = res as QueuedAnswer;
  queued[CONNECTION] = connection;
  queued[BYTES] = bytes;
  res.on('finish', onWritten);
  if (connection[QUEUED]++ === 0) connection[OWNER].wait(connection);
  // An answer made while the answers waiting were past the cap already: a request run before
  // they were (pipelined requests all run at once, their answers made later). The connection goes,
  // and its answers with it. A request run while they fit is never refused, whatever its answer.
  const before = connection[QUEUED_BYTES];
  connection[QUEUED_BYTES] = before + bytes;
  if (before > connection[OWNER].maxBytes) {
    stopReading(connection);
    connection.destroy();
  }
}

function onWritten(this: QueuedAnswer): void {
  const connection = this[CONNECTION];
  connection[REQUESTS]--;
  connection[QUEUED]--;
  connection[QUEUED_BYTES] -= this[BYTES];
  if (connection[HELD] !== undefined) connection[OWNER].resume(connection);
}

/**
 * Notes that `req` was answered before its body was received: until the body is, a failure of the
 * connection (the request timeout, a malformed chunk) closes it instead of answering again.
 */
export function answeredEarly(req: IncomingMessage): void {
  (req.socket as Connection)[ANSWERED_EARLY] = req;
}

/** Whether the request being received on `socket` has had its answer already. */
export function isAnswered(socket: Socket): boolean {
  const early = (socket as Connection)[ANSWERED_EARLY];
  return early !== undefined && !early.complete;
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
 * Node's idle timeout on a connection fired (`server.timeout`: no byte read or written for
 * `writeTimeoutMs`, or the keep-alive timeout). Bytes of an answer still waiting to be written mean
 * the client stopped reading: close (the server's own write timeout usually has already). With
 * nothing waiting, a request whose headers were read and which is not answered yet (its body
 * arriving, its handler running, the frames of its answer coming slowly) is left to the request
 * and handler timeouts. Anything else (an idle keep-alive
 * connection, headers still arriving) is closed, as Node does by default.
 */
export function onIdle(socket: Socket): void {
  const connection = socket as Connection;
  if (pending(connection) === 0 && connection[REQUESTS] > 0) return;
  connection.destroy();
}
