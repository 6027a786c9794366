// The part of autocannon's programmatic API the HTTP benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    pipelining?: number;
    /** Seconds; ignored when `amount` is set. */
    duration?: number;
    /** Stop after this many requests. */
    amount?: number;
    /** Milliseconds between samples; a run stops on a sample tick. */
    sampleInt?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
  }
  interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  interface Result {
    /** Seconds. */
    duration: number;
    /** When the run started and ended. */
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    /** Milliseconds. */
    latency: Histogram;
    requests: Histogram & { sent: number };
    /** Bytes read per second; `total`: every byte of the answers, headers included. */
    throughput: Histogram;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
