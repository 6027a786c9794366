import type { Telemetry } from '../protocol/call/telemetry.ts';

/**
 * One attempt of a call, sent inside its CLIENT span when the client has telemetry: the span's
 * trace context written into `headers` (`traceparent`), the span ended with the answer's status,
 * or with the failure when no answer came.
 */
export async function withClientSpan(
  telemetry: Telemetry | undefined,
  method: string,
  verb: string,
  url: string,
  headers: Headers,
  send: () => Promise<Response>,
): Promise<Response> {
  const span = telemetry?.clientSpan?.({ verb, url, method });
  if (span === undefined) return send();
  span.inject(headers);
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    span.end(0, error);
    throw error;
  }
  span.end(response.status, undefined);
  return response;
}
