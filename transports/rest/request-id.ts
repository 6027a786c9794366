/** 1-128 visible ASCII characters: an `x-request-id` kept as the client sent it. */
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

/** This process's prefix of generated ids: 12 random hex digits, made on first use. */
let prefix: string | undefined;
let counter = 0;

/**
 * The id of a request: its own `x-request-id` when that is 1-128 visible ASCII characters (no
 * spaces, no control characters, so it is safe in a header and a log line), else a new one:
 * `<12 random hex digits>-<counter in base 36>`, unique across processes and restarts by its random
 * prefix, and cheaper than a UUID per request (a measurable share of a small request's cost).
 */
export function requestIdFor(sent: string | null): string {
  if (sent !== null && ACCEPTABLE.test(sent)) return sent;
  // Made on first use, not at module scope: workerd refuses random values there.
  prefix ??= [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, '0')).join('');
  counter = counter === Number.MAX_SAFE_INTEGER ? 1 : counter + 1;
  return `${prefix}-${counter.toString(36)}`;
}
