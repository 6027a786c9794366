// One load run from autocannon against 127.0.0.1: req/s and latency, failing loudly on any error answer.
import autocannon from 'autocannon';
import type { BenchRequest } from './requests.ts';

export interface LoadSettings {
  readonly connections: number;
  readonly pipelining: number;
}

export interface LoadResult {
  readonly requestsPerSec: number;
  /** Milliseconds (autocannon records whole milliseconds). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requests: number;
  /** Bytes of the answers read, headers included. */
  readonly bytes: number;
  /** When the run started and ended (milliseconds since the epoch). */
  readonly startMs: number;
  readonly finishMs: number;
}

/** Loads `baseUrl` with `request` for `seconds`, or for exactly `amount` requests. */
export async function load(
  baseUrl: string,
  request: BenchRequest,
  settings: LoadSettings,
  run: { seconds: number } | { amount: number },
): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl + request.path,
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    connections: settings.connections,
    pipelining: settings.pipelining,
    // autocannon stops only on a sample tick: a finer tick keeps short runs close to their duration.
    sampleInt: 250,
    ...('amount' in run ? { amount: run.amount } : { duration: run.seconds }),
  });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) {
    const statuses = Object.entries(result.statusCodeStats)
      .map(([s, { count }]) => `${s}×${count}`)
      .join(' ');
    throw new Error(
      `${request.method} ${baseUrl}${request.path}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx (${statuses})`,
    );
  }
  return {
    requestsPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    bytes: result.throughput.total,
    startMs: result.start.getTime(),
    finishMs: result.finish.getTime(),
  };
}
