/** 1-128 visible ASCII characters: an `x-request-id` kept as the client sent it. */
const ACCEPTABLE = /^[\x21-\x7e]{1,128}$/;

/**
 * The id of a request: its own `x-request-id` when that is 1-128 visible ASCII characters (no
 * spaces, no control characters, so it is safe in a header and a log line), else a new UUID.
 */
export function requestIdFor(sent: string | null): string {
  return sent !== null && ACCEPTABLE.test(sent) ? sent : crypto.randomUUID();
}
