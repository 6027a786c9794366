// What the calls of one server (HttpServer, or one fetch handler) may hold at once, shared by both
// adapters: the calls whose handler has not settled, and the request bodies they hold or are
// receiving. Beyond either cap a request is answered 503 with Retry-After, its body not read.
import { problem, type ProblemDocument } from './problem.ts';
import type { HeaderValues } from './types.ts';

/**
 * 10,000 calls whose handler has not settled: as many as the default `maxConnections`, each with
 * one call. A call abandoned at the handler timeout counts until its handler settles.
 */
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 10_000;

/**
 * 128 MiB of request bodies held at once (being received, or received by a call whose handler has
 * not settled): 128 bodies at the default 1 MiB `maxBodyBytes`. The decoded arguments are often
 * several times their body's size; with this cap they stay well within a default Node heap.
 */
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 128 * 1024 * 1024;

/** Seconds a client is told to wait before it tries again (`Retry-After`): a busy server frees calls quickly. */
const RETRY_AFTER_SECONDS = '1';

/** The calls of one server and the body bytes they hold; plain counters, one add and one subtract per call. */
export class Load {
  /** Calls whose handler has not settled. */
  calls = 0;
  /** Body bytes held by those calls or being received. */
  bytes = 0;

  constructor(readonly maxCalls: number, readonly maxBytes: number) {}

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
  return problem(503, what === 'calls'
    ? `the server is busy: ${load.maxCalls} calls in flight (maxCallsInFlight); try again later`
    : `the server is busy: the request bodies it holds would pass ${load.maxBytes} bytes (maxBufferedBodyBytes); try again later`);
}

/** The headers of a busy answer (a new object each time: transports complete answers in place). */
export function busyHeaders(): HeaderValues {
  return { 'retry-after': RETRY_AFTER_SECONDS };
}

/** Checks a count option: an integer ≥ 1, or `Infinity`. */
export function checkCount(owner: string, name: string, value: number): number {
  if (!((Number.isInteger(value) && value >= 1) || value === Infinity)) {
    throw new RangeError(`${owner}: ${name} must be an integer ≥ 1 or Infinity, got ${value}`);
  }
  return value;
}

/** Checks a byte option: a number ≥ 0, or `Infinity`. */
export function checkBytes(owner: string, name: string, value: number): number {
  if (!(value >= 0)) throw new RangeError(`${owner}: ${name} must be a number ≥ 0 or Infinity, got ${value}`);
  return value;
}
