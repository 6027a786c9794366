// OpenTelemetry's own SDK, as a user wires it: spans kept in memory, metrics read on demand.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import { openTelemetry } from '../../../transports/otel/index.ts';

/** A metric reader the spec collects from when it wants. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/** A tracer provider and a meter provider of the SDK, and `openTelemetry()` reporting to them. */
export function otelSdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), counting] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    telemetry: openTelemetry({ tracerProvider, meterProvider }),
    /** The spans ended so far. */
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** The data points of the histogram `name`. */
    async histogram(name: string) {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name) as
        | HistogramMetricData
        | undefined;
      if (metric === undefined) return [];
      if (metric.dataPointType !== DataPointType.HISTOGRAM) throw new Error(`${name} is not a histogram`);
      return metric.dataPoints;
    },
  };
}

/** Spans started and not ended yet, in every SDK made here. */
let open = 0;
const wakeWhenIdle = new Set<() => void>();
const counting: SpanProcessor = {
  onStart: () => void open++,
  onEnd: () => {
    if (--open === 0) for (const wake of wakeWhenIdle) wake();
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};

/**
 * Resolves once every span started has ended: a server span ends when its answer is written, which
 * may be after the client read it. Waits for that event, however long it takes (no timer).
 */
export const settled = (): Promise<void> =>
  open === 0
    ? Promise.resolve()
    : new Promise((resolve) => {
        const wake = () => {
          wakeWhenIdle.delete(wake);
          resolve();
        };
        wakeWhenIdle.add(wake);
      });
