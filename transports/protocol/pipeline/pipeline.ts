import { problem } from '../problem.ts';
import { CompressionPolicy } from './content-coding.ts';
import type { Codings } from './codings.ts';
import { Deadlines, type Abandonable } from './deadlines.ts';
import { Load } from './load.ts';
import { RouteTable } from './route-table.ts';
import type { ResolvedTransportOptions } from './transport-options.ts';

/**
 * What the exchanges of one server (an `HttpServer`, one fetch handler) share: its options and
 * routes, the platform's codings, the calls in flight with their deadlines and the body bytes they
 * hold, and whether it is shutting down.
 */
export class Pipeline<R = never> {
  readonly routes = new RouteTable<R>();
  readonly load: Load;
  /** The calls whose handler is running: answered 503 for them at their deadline, or on shutdown. */
  readonly deadlines: Deadlines<Abandonable>;
  /** The lists of endpoints with their own time limit, by limit. */
  #ownDeadlines: Map<number, Deadlines<Abandonable>> | undefined;
  /** Set on shutdown: answers from then on close their connection. */
  draining = false;
  #compression: CompressionPolicy | null | undefined;
  /** Aborted on shutdown; made on first use (workerd refuses I/O objects at module scope). */
  #shutdown: AbortController | undefined;

  constructor(
    readonly options: ResolvedTransportOptions,
    readonly codings: Codings,
  ) {
    this.load = new Load(options.maxCallsInFlight, options.maxBufferedBodyBytes);
    this.deadlines = timedOutAfter(options.handlerTimeoutMs);
  }

  /**
   * The deadline list of calls whose handler has `timeoutMs` (an endpoint's own time limit,
   * `Handler.timeoutMs`), or the transport's: one list per time limit, made on first use, so that
   * each stays in deadline order.
   */
  deadlinesFor(timeoutMs: number | undefined): Deadlines<Abandonable> {
    if (timeoutMs === undefined || timeoutMs === this.deadlines.timeoutMs) return this.deadlines;
    const lists = (this.#ownDeadlines ??= new Map());
    let list = lists.get(timeoutMs);
    if (list === undefined) lists.set(timeoutMs, (list = timedOutAfter(timeoutMs)));
    return list;
  }

  /** Gives up on every call whose handler is running (a shutdown), whatever its time limit. */
  giveUpAll(giveUp: (call: Abandonable) => void): void {
    this.deadlines.giveUpUntil(Infinity, giveUp);
    for (const list of this.#ownDeadlines?.values() ?? []) list.giveUpUntil(Infinity, giveUp);
  }

  /** Aborted when the server shuts down: stream answers under way end with a 503 problem frame. */
  get shutdown(): AbortSignal {
    return (this.#shutdown ??= new AbortController()).signal;
  }

  /** Ends the stream answers under way, each with its 503 problem frame (see `StreamFrames`). */
  endStreams(): void {
    this.#shutdown?.abort(new DOMException('the server is shutting down', 'AbortError'));
  }

  /**
   * How answers are compressed, `null` when they are not. Worked out on the first request that
   * accepts a coding, not before: a Worker may build its handler at module scope, where workerd
   * forbids probing its streams.
   */
  compression(): CompressionPolicy | null {
    if (this.#compression === undefined) {
      const settings = this.options.compression;
      this.#compression =
        settings === undefined
          ? null
          : new CompressionPolicy(settings.threshold, this.codings.responseCodings(settings.encodings));
    }
    return this.#compression;
  }
}

/** A deadline list whose calls are answered 503 after `ms`, their signal aborted with a `TimeoutError`. */
function timedOutAfter(ms: number): Deadlines<Abandonable> {
  return new Deadlines(ms, (exchange) =>
    exchange.abandon(
      problem(503, `the handler did not answer within ${ms} ms`),
      new DOMException(`handler timed out after ${ms} ms`, 'TimeoutError'),
    ),
  );
}
