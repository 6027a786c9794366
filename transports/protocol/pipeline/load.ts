// What the calls of one server (HttpServer, or one fetch handler) may hold at once, shared by both
// adapters: the calls whose handler has not settled, and the request bodies they hold or are
// receiving. Beyond either cap a request is answered 503 with Retry-After, its body not read. The
// caps' defaults and checks are in transport-options.ts.
import { problem, type ProblemDocument } from '../problem.ts';
import type { HeaderValues } from '../types.ts';

/** Seconds a client is told to wait before it tries again (`Retry-After`): a busy server frees calls quickly. */
const RETRY_AFTER_SECONDS = '1';

/** The calls of one server and the body bytes they hold; plain counters, one add and one subtract per call. */
export class Load {
  /** Calls whose handler has not settled. */
  calls = 0;
  /** Body bytes held by those calls or being received. */
  bytes = 0;

  constructor(
    readonly maxCalls: number,
    readonly maxBytes: number,
  ) {}

  /** Counts a call in; `false` (nothing counted) when `maxCalls` are in flight already. */
  enter(): boolean {
    if (this.calls >= this.maxCalls) return false;
    this.calls++;
    return true;
  }

  /** Counts a call out once its handler has settled, with the body bytes it held. */
  leave(bytes: number): void {
    this.calls--;
    this.bytes -= bytes;
  }

  /** Whether `n` more body bytes fit. */
  fits(n: number): boolean {
    return this.bytes + n <= this.maxBytes;
  }

  /** Counts `n` more body bytes in; `false` (nothing counted) when they do not fit. */
  take(n: number): boolean {
    if (this.bytes + n > this.maxBytes) return false;
    this.bytes += n;
    return true;
  }

  /** Counts `n` body bytes out (a body dropped before its call settled). */
  give(n: number): void {
    this.bytes -= n;
  }
}

/** The 503 of a request refused because the server holds too much: `detail` says what. */
export function busy(what: 'calls' | 'bytes', load: Load): ProblemDocument {
  return problem(
    503,
    what === 'calls'
      ? `the server is busy: ${load.maxCalls} calls in flight (maxCallsInFlight); try again later`
      : `the server is busy: the request bodies it holds would pass ${load.maxBytes} bytes (maxBufferedBodyBytes); try again later`,
  );
}

/** The headers of a busy answer (a new object each time: transports complete answers in place). */
export function busyHeaders(): HeaderValues {
  return { 'retry-after': RETRY_AFTER_SECONDS };
}
