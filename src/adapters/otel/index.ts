/**
 * Tracing and metrics through the host's `@opentelemetry/api` (an optional peer dependency): `openTelemetry(api)`.
 *
 * @module human-users/otel
 */
// `human-users/otel`: tracing and metrics through the host's `@opentelemetry/api` (an optional peer dependency).
export { openTelemetry, instrumentationName } from "./open-telemetry.js";
export type { OpenTelemetryApi, OtelAttributes, OtelCounter, OtelInstrumentOptions, OtelMeter, OtelSpan, OtelSpanOptions, OtelTracer } from "./api-like.js";
export type { Telemetry, TelemetryAttributes, TelemetryCounter, TelemetrySpan } from "../../ports/telemetry.js";
