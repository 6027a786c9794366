import type { HeaderReader } from '../types.ts';

/** The protocols a registry speaks (see `REST`, `JSONRPC`, `MCP`). */
export type Protocol = 'REST' | 'JSONRPC' | 'MCP';

/**
 * What a registry and the typed client tell a tracing and metrics system of each request:
 * `openTelemetry()` from `lacquerjs/otel` is one. Without one (the default) nothing is measured and
 * nothing is paid for.
 */
export interface Telemetry {
  /**
   * A request reached an endpoint (REST), or a message's call its method (JSON-RPC, MCP): the span
   * begins now, and ends when its answer is written, failures before the method included.
   */
  serverSpan(start: ServerSpanStart): ServerSpan;
  /** A call of the typed client begins: its span, whose context the request carries (`traceparent`). */
  clientSpan?(start: ClientSpanStart): ClientSpan;
}

/** What a server span is made of. */
export interface ServerSpanStart {
  readonly protocol: Protocol;
  /** The request's HTTP method. */
  readonly verb: string;
  /** The route with its mount prefix (`/api/books/:id`); for JSON-RPC and MCP, the mount path. */
  readonly route: string;
  /** The request's path with the mount prefix (`/api/books/3`). */
  readonly path: string;
  readonly service: string;
  readonly method: string;
  /** The request's headers, where the caller's trace context is (`traceparent`, `tracestate`). */
  readonly headers: HeaderReader;
  /** The client's address, when the transport knows it. */
  readonly clientAddress: string | undefined;
}

/** A server span under way. */
export interface ServerSpan {
  /**
   * The answer was written with `status` (for a message's call: the status its answer stands for,
   * 200 or its problem's); `error` is what failed the call, if anything did.
   */
  end(status: number, error: unknown): void;
}

/** What a client span is made of. */
export interface ClientSpanStart {
  /** The HTTP method. */
  readonly verb: string;
  /** The URL the request goes to. */
  readonly url: string;
  /** The contract's method name. */
  readonly method: string;
}

/** A client span under way. */
export interface ClientSpan {
  /** Writes the span's trace context into the request's headers. */
  inject(headers: Headers): void;
  /** The answer came with `status`, or the call failed with `error` before one did (`status` 0). */
  end(status: number, error: unknown): void;
}
