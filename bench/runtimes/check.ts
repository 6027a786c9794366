// What a bench server answers, as bytes: for checking that lacquer and its peer on Bun answer each
// endpoint alike, byte for byte (the bench before loading them, and spec/bench/http-servers.spec.ts).
import type { BenchEndpoint } from '../http/data.ts';
import { requestFor } from '../http/requests.ts';

export interface RawAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Sends `endpoint`'s JSON request (or `body` instead of its own) once; the answer's status, type and body. */
export async function rawAnswer(baseUrl: string, endpoint: BenchEndpoint, body?: string): Promise<RawAnswer> {
  const req = requestFor(endpoint, 'json');
  const sent = body ?? (req.body === undefined ? null : new Uint8Array(req.body));
  const res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: sent });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** Throws unless both servers answer `endpoint` with the same status, media type and bytes. */
export async function checkSameAnswer(
  ours: string,
  theirs: string,
  endpoint: BenchEndpoint,
  peer: string,
): Promise<void> {
  const [a, b] = await Promise.all([rawAnswer(ours, endpoint), rawAnswer(theirs, endpoint)]);
  const media = (type: string) => type.split(';')[0]!.trim().toLowerCase();
  if (a.status !== b.status || media(a.contentType) !== media(b.contentType) || a.body !== b.body) {
    throw new Error(
      `${endpoint.name}: lacquer answered ${a.status} ${a.contentType} ${a.body}, ${peer} ${b.status} ${b.contentType} ${b.body}`,
    );
  }
}
