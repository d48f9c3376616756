// The parts of `@opentelemetry/api` the adapter uses, described structurally: the host passes its
// own copy of the module, so the package never loads it (nor needs its types) itself.

/** Span and counter attributes: flat keys with plain values. */
export type OtelAttributes = Record<string, string | number | boolean>;

/** The span methods the adapter calls. */
export interface OtelSpan {
  /** Adds attributes to the span. */
  setAttributes(attributes: OtelAttributes): unknown;
  /** Marks the span's outcome (OpenTelemetry's `SpanStatusCode`: 2 is an error). */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span. */
  end(): void;
}

/** Options for a new span. */
export interface OtelSpanOptions {
  attributes?: OtelAttributes;
}

/** The tracer `trace.getTracer` hands out. */
export interface OtelTracer {
  /**
   * Runs `fn` with the new span active, so spans started inside it become its children.
   * @typeParam F - the function run inside the span; its result is returned as it is.
   */
  startActiveSpan<F extends (span: OtelSpan) => unknown>(name: string, options: OtelSpanOptions, fn: F): ReturnType<F>;
}

/** A counter (or up-down counter) of the meter. */
export interface OtelCounter {
  /** Adds `value` (negative on an up-down counter) under `attributes`. */
  add(value: number, attributes?: OtelAttributes): void;
}

/** What a new instrument is described with. */
export interface OtelInstrumentOptions {
  description?: string;
  unit?: string;
}

/** The meter `metrics.getMeter` hands out. */
export interface OtelMeter {
  /** A counter that only goes up. */
  createCounter(name: string, options?: OtelInstrumentOptions): OtelCounter;
  /** A counter that goes up and down (the outbox backlog). */
  createUpDownCounter(name: string, options?: OtelInstrumentOptions): OtelCounter;
}

/**
 * What `openTelemetry` needs: the `@opentelemetry/api` module itself (`import * as api from
 * "@opentelemetry/api"`, whose `trace` and `metrics` hand out the global providers), or any object
 * with a tracer provider as `trace` and a meter provider as `metrics`.
 */
export interface OpenTelemetryApi {
  readonly trace: {
    /** The tracer of the registered tracer provider. */
    getTracer(name: string, version?: string): OtelTracer;
  };
  readonly metrics: {
    /** The meter of the registered meter provider. */
    getMeter(name: string, version?: string): OtelMeter;
  };
}
