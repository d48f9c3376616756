// The parts of `@opentelemetry/api` the adapter uses, described structurally: the host passes its
// own copy of the module, so the package never loads it (nor needs its types) itself.

export type OtelAttributes = Record<string, string | number | boolean>;

export interface OtelSpan {
  setAttributes(attributes: OtelAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

export interface OtelSpanOptions {
  attributes?: OtelAttributes;
}

export interface OtelTracer {
  /** Runs `fn` with the new span active, so spans started inside it become its children. */
  startActiveSpan<F extends (span: OtelSpan) => unknown>(name: string, options: OtelSpanOptions, fn: F): ReturnType<F>;
}

export interface OtelCounter {
  add(value: number, attributes?: OtelAttributes): void;
}

export interface OtelInstrumentOptions {
  description?: string;
  unit?: string;
}

export interface OtelMeter {
  createCounter(name: string, options?: OtelInstrumentOptions): OtelCounter;
  createUpDownCounter(name: string, options?: OtelInstrumentOptions): OtelCounter;
}

/**
 * What `openTelemetry` needs: the `@opentelemetry/api` module itself (`import * as api from
 * "@opentelemetry/api"`, whose `trace` and `metrics` hand out the global providers), or any object
 * with a tracer provider as `trace` and a meter provider as `metrics`.
 */
export interface OpenTelemetryApi {
  readonly trace: { getTracer(name: string, version?: string): OtelTracer };
  readonly metrics: { getMeter(name: string, version?: string): OtelMeter };
}
