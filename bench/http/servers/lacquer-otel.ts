// lacquer's benchmark server with OpenTelemetry on: the SDK's tracer provider batching every span
// to an exporter that drops them, and a meter provider recording the duration histogram.
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { openTelemetry } from '../../../transports/otel/index.ts';
import { startLacquer } from './lacquer.ts';
import type { RunningServer } from './types.ts';

/** Takes every batch and keeps nothing: what is measured is making the spans, not sending them. */
class DroppingExporter implements SpanExporter {
  exported = 0;
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.exported += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

export async function startLacquerOtel(port = 0): Promise<RunningServer> {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new DroppingExporter())] });
  return startLacquer(port, { telemetry: openTelemetry({ tracerProvider, meterProvider: new MeterProvider() }) });
}
