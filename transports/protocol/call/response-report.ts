import { calls, type EndpointCall } from './call.ts';
import type { ResponseReport } from '../options.ts';

/** Tells `onResponse` that `call`'s answer was written with `status`, under the mount `prefix`. Never throws. */
export function reportResponse(
  onResponse: (report: ResponseReport) => void,
  call: EndpointCall,
  prefix: string,
  status: number,
): void {
  const report: { -readonly [K in keyof ResponseReport]: ResponseReport[K] } = {
    call,
    prefix,
    path: calls.requestPath(call),
    status,
    durationMs: performance.now() - calls.started(call),
  };
  const failure = calls.failure(call);
  if (failure !== undefined) report.error = failure;
  try {
    onResponse(report);
  } catch {
    // An observer must not break the answer it observes.
  }
}
