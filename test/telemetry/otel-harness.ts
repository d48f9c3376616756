// OpenTelemetry's SDK in memory for the telemetry tests: spans kept by an in-memory exporter,
// measurements read on demand, and a context manager on AsyncLocalStorage (what the Node SDK
// registers) so that spans started inside another become its children.
import { AsyncLocalStorage } from "node:async_hooks";
import { context, ROOT_CONTEXT, type Context, type ContextManager } from "@opentelemetry/api";
import { DataPointType, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { openTelemetry } from "../../src/adapters/otel/index.js";
import type { Telemetry } from "../../src/index.js";

class AsyncContexts implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(active: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(active, () => fn.apply(thisArg, args));
  }

  bind<T>(active: Context, target: T): T {
    if (typeof target !== "function") return target;
    const run = (...args: unknown[]): unknown => this.with(active, target as (...args: unknown[]) => unknown, undefined, ...args);
    return run as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** Registers the context manager for this test file; call the returned function to unregister it. */
export function useAsyncContexts(): () => void {
  context.setGlobalContextManager(new AsyncContexts());
  return () => context.disable();
}

class CollectingReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }

  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** One sum data point: the counter, its attributes, its value. */
export interface CounterValue {
  readonly counter: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly value: number;
}

/** A span as the tests compare it: its name, its parent's name, attributes and status. */
export interface SpanSummary {
  readonly name: string;
  readonly parent: string | undefined;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: { readonly code: number; readonly message?: string };
}

export interface RecordingTelemetry {
  readonly telemetry: Telemetry;
  /** Ended spans in the order they ended. */
  spans(): readonly ReadableSpan[];
  /** Ended spans summarized, in the order they started. */
  tree(): readonly SpanSummary[];
  /** Every counter's data points, sorted by counter and attributes. */
  counters(): Promise<readonly CounterValue[]>;
}

/** Notes the order spans start in: their start times can be equal to the clock's precision. */
class StartOrder implements SpanProcessor {
  readonly started: string[] = [];

  onStart(span: Span): void {
    this.started.push(span.spanContext().spanId);
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The SDK's providers, recording in memory. */
export interface RecordingProviders {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
}

/**
 * Telemetry recording in memory. `telemetryOf` makes the port from the providers: by default
 * `openTelemetry` given them directly; a test may register them globally and pass the API module.
 */
export function recordingTelemetry(telemetryOf: (providers: RecordingProviders) => Telemetry = ({ tracerProvider, meterProvider }) => openTelemetry({ trace: tracerProvider, metrics: meterProvider })): RecordingTelemetry {
  const exporter = new InMemorySpanExporter();
  const order = new StartOrder();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [order, new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = telemetryOf({ tracerProvider, meterProvider });
  const spans = () => exporter.getFinishedSpans();
  return {
    telemetry,
    spans,
    tree() {
      const all = spans();
      const nameOf = new Map(all.map((span) => [span.spanContext().spanId, span.name]));
      const position = (span: ReadableSpan) => order.started.indexOf(span.spanContext().spanId);
      return [...all].sort((a, b) => position(a) - position(b)).map((span) => {
        const parentId = span.parentSpanContext?.spanId;
        const status = span.status.message === undefined ? { code: span.status.code } : { code: span.status.code, message: span.status.message };
        return { name: span.name, parent: parentId === undefined ? undefined : nameOf.get(parentId), attributes: { ...span.attributes }, status };
      });
    },
    async counters() {
      const { resourceMetrics } = await reader.collect();
      const values: CounterValue[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.dataPointType !== DataPointType.SUM) continue;
          for (const point of metric.dataPoints) values.push({ counter: metric.descriptor.name, attributes: { ...point.attributes }, value: point.value });
        }
      }
      const key = (value: CounterValue) => `${value.counter} ${JSON.stringify(value.attributes)}`;
      return values.sort((a, b) => key(a).localeCompare(key(b)));
    },
  };
}
