// OpenTelemetry's own SDK, as a user wires it: spans kept in memory, metrics read on demand.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
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
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
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
      const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name) as HistogramMetricData | undefined;
      if (metric === undefined) return [];
      if (metric.dataPointType !== DataPointType.HISTOGRAM) throw new Error(`${name} is not a histogram`);
      return metric.dataPoints;
    },
  };
}

/** Waits for answers written after the client read them (spans end when the answer is written). */
export const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
