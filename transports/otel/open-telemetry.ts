import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  metrics,
  propagation,
  trace,
  type Attributes,
  type MeterProvider,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
  type TracerProvider,
} from '@opentelemetry/api';
import type { HeaderReader } from '../protocol/types.ts';
import { parentFromTraceparent, traceparentOf } from './trace-context.ts';
import type {
  ClientSpan,
  ClientSpanStart,
  ServerSpan,
  ServerSpanStart,
  Telemetry,
} from '../protocol/call/telemetry.ts';

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, an SDK's `register()`). */
  tracerProvider?: TracerProvider;
  /** Where the duration histograms go. Default: the global meter provider. */
  meterProvider?: MeterProvider;
}

/** The instrumentation scope spans and metrics are reported under. */
const SCOPE = 'lacquerjs';

/** The stable semantic conventions' buckets for `http.server.request.duration`, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

const HEADERS_GETTER: TextMapGetter<HeaderReader> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  // The W3C propagator asks for its own keys by name.
  keys: () => [],
};

const HEADERS_SETTER: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/**
 * Telemetry for `new Registry({ telemetry })` and `createClient(contract, { telemetry })`, after
 * OpenTelemetry's stable HTTP semantic conventions: a SERVER span per request that reaches an
 * endpoint, named `{verb} {route}` (`GET /api/books/:id`), its parent the caller's W3C trace context;
 * a SERVER span per call of a JSON-RPC or MCP message, named by its method; a CLIENT span per call
 * of the typed client, whose context the request carries in `traceparent`. Durations go to the
 * histograms `http.server.request.duration` and `rpc.server.call.duration` (seconds).
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
  const httpDuration = meter.createHistogram('http.server.request.duration', {
    unit: 's',
    description: 'Duration of HTTP server requests.',
    advice,
  });
  const rpcDuration = meter.createHistogram('rpc.server.call.duration', {
    unit: 's',
    description: 'Duration of RPC calls a server handled.',
    advice,
  });

  return {
    serverSpan(start: ServerSpanStart): ServerSpan {
      const extracted = propagation.extract(ROOT_CONTEXT, start.headers, HEADERS_GETTER);
      const parent =
        trace.getSpanContext(extracted) === undefined
          ? parentFromTraceparent(start.headers.get('traceparent'))
          : extracted;
      const rest = start.protocol === 'REST';
      const attributes: Attributes = {
        'http.request.method': start.verb,
        'http.route': start.route,
        'url.path': start.path,
      };
      if (start.clientAddress !== undefined) attributes['client.address'] = start.clientAddress;
      if (!rest) {
        attributes['rpc.system'] = start.protocol === 'JSONRPC' ? 'jsonrpc' : 'mcp';
        attributes['rpc.method'] = start.method;
        attributes['rpc.service'] = start.service;
      }
      const name = rest
        ? `${start.verb} ${start.route}`
        : start.protocol === 'MCP'
          ? `tools/call ${start.method}`
          : start.method;
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
      const began = performance.now();
      return {
        end(status: number, error: unknown): void {
          span.setAttribute('http.response.status_code', status);
          const metric: Attributes = {
            'http.request.method': start.verb,
            'http.route': start.route,
            'http.response.status_code': status,
          };
          // A server's span fails on 5xx only: a 4xx is the client's doing (the conventions' rule).
          if (status >= 500) {
            const type = errorType(error, status);
            span.setAttribute('error.type', type);
            metric['error.type'] = type;
            span.setStatus({ code: SpanStatusCode.ERROR });
            if (error instanceof Error) span.recordException(error);
          }
          span.end();
          const seconds = (performance.now() - began) / 1000;
          if (rest) httpDuration.record(seconds, metric);
          else
            rpcDuration.record(seconds, {
              ...metric,
              'rpc.system': attributes['rpc.system']!,
              'rpc.method': start.method,
            });
        },
      };
    },

    clientSpan(start: ClientSpanStart): ClientSpan {
      const url = new URL(start.url);
      const span = tracer.startSpan(
        start.verb,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': start.verb,
            'url.full': start.url,
            'server.address': url.hostname,
            'server.port': url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
            'rpc.method': start.method,
          },
        },
        context.active(),
      );
      return {
        inject(headers: Headers): void {
          // An attempt after another carries its own context, not the one before's.
          headers.delete('traceparent');
          propagation.inject(trace.setSpan(context.active(), span), headers, HEADERS_SETTER);
          // Without a global propagator (the API's default), the context still travels.
          if (!headers.has('traceparent')) headers.set('traceparent', traceparentOf(span.spanContext()));
        },
        end(status: number, error: unknown): void {
          ended(span, status, error);
        },
      };
    },
  };
}

/** A client span's end: 4xx and 5xx both fail it (the conventions' rule for clients). */
function ended(span: Span, status: number, error: unknown): void {
  if (status > 0) span.setAttribute('http.response.status_code', status);
  if (status >= 400 || status === 0) {
    span.setAttribute('error.type', errorType(error, status));
    span.setStatus({ code: SpanStatusCode.ERROR });
    if (status === 0 && error instanceof Error) span.recordException(error);
  }
  span.end();
}

/** `error.type`: the status as text for an answer, else the error's name. */
function errorType(error: unknown, status: number): string {
  if (status > 0) return String(status);
  return error instanceof Error ? error.name : '_OTHER';
}
