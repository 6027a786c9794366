// `x-request-id`: the id of a request, chosen once (the client's when acceptable, else a new one)
// and written on its answer. Every transport reads and writes it through here.
import type { HeaderReader, HeaderValues } from '../types.ts';

/** The header that carries a request's id, both ways. */
const HEADER = 'x-request-id';

/** 1-128 visible ASCII characters: an `x-request-id` kept as the client sent it. */
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

/** This process's prefix of generated ids: 12 random hex digits, made on first use. */
let prefix: string | undefined;
let counter = 0;

/**
 * Generated ids are made {@link BATCH} at a time, as one string they are then cut from. V8 builds a
 * string of 13 or more characters made by `+` as a rope, and Node's check of a header value
 * flattens a rope before it can test it: measured as 2-3% of a small call. A slice of a flat string
 * is no rope. A kept id keeps its batch (a few hundred bytes) alive with it.
 */
const BATCH = 16;
let batch = '';
/** Where each id of `batch` ends. */
const ends = new Array<number>(BATCH).fill(0);
let taken = BATCH;

/**
 * The id of a request: its own `x-request-id` when that is 1-128 visible ASCII characters (no
 * spaces, no control characters, so it is safe in a header and a log line), else a new one:
 * `<12 random hex digits>-<counter in base 36>`, unique across processes and restarts by its random
 * prefix, and cheaper than a UUID per request (a measurable share of a small request's cost).
 */
export function requestIdFor(sent: string | null): string {
  if (sent !== null && ACCEPTABLE.test(sent)) return sent;
  if (taken === BATCH) makeBatch();
  const start = taken === 0 ? 0 : ends[taken - 1]!;
  return batch.slice(start, ends[taken++]!);
}

function makeBatch(): void {
  // Made on first use, not at module scope: workerd refuses random values there.
  prefix ??= [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const ids: string[] = [];
  let end = 0;
  for (let i = 0; i < BATCH; i++) {
    counter = counter === Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
    const id = `${prefix}-${counter.toString(36)}`;
    ids.push(id);
    ends[i] = end += id.length;
  }
  batch = ids.join('');
  taken = 0;
}

/** The id of a request with these headers, as {@link requestIdFor} chooses it. */
export function requestIdOf(headers: HeaderReader): string {
  return requestIdFor(headers.get(HEADER));
}

/** Writes a request's id into its answer's headers. */
export function stampRequestId(headers: HeaderValues, requestId: string): void {
  headers[HEADER] = requestId;
}

/** Gives an answer made outside a request's handling (a 417, an internal error) an id of its own, unless it has one. */
export function ensureRequestId(headers: HeaderValues): void {
  headers[HEADER] ??= requestIdFor(null);
}
