// `lacquerjs/otel`: OpenTelemetry for registries and the typed client, the only entry that imports
// `@opentelemetry/api` (an optional peer dependency: install it beside an SDK to use this entry).
export { openTelemetry } from './open-telemetry.ts';
export type { OpenTelemetryOptions } from './open-telemetry.ts';
