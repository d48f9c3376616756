import { failureName, type Telemetry, type TelemetryCounter, type TelemetrySpan } from "../../ports/telemetry.js";
import type { OpenTelemetryApi, OtelCounter, OtelSpan } from "./api-like.js";

/** The instrumentation scope the spans and measurements are reported under. */
export const instrumentationName = "human-users";

/** `SpanStatusCode.ERROR` of the OpenTelemetry API (a fixed value of its specification). */
const STATUS_ERROR = 2;

const counterDescriptions: Readonly<Record<TelemetryCounter, string>> = {
  "human_users.operations": "Operations answered, by operation and answer code (0 = ok)",
  "human_users.deliveries": "Notification delivery attempts, by kind and outcome",
  "human_users.outbox.backlog": "Notifications written to the outbox minus those delivered or dead",
};

function spanHandle(span: OtelSpan): TelemetrySpan {
  return {
    setAttributes: (attributes) => {
      span.setAttributes({ ...attributes });
    },
    fail: (reason) => {
      span.setAttributes({ "error.type": reason });
      span.setStatus({ code: STATUS_ERROR, message: reason });
    },
  };
}

/**
 * Telemetry through the host's OpenTelemetry: `ports.telemetry = openTelemetry(api)` with
 * `import * as api from "@opentelemetry/api"`. Spans go to the tracer provider the host set up,
 * counters to its meter provider; spans nest through the host's context manager. The package never
 * imports `@opentelemetry/api` itself: it is an optional peer dependency.
 */
export function openTelemetry(api: OpenTelemetryApi): Telemetry {
  const tracer = api.trace.getTracer(instrumentationName);
  const meter = api.metrics.getMeter(instrumentationName);
  const counters: Readonly<Record<TelemetryCounter, OtelCounter>> = {
    "human_users.operations": meter.createCounter("human_users.operations", { description: counterDescriptions["human_users.operations"] }),
    "human_users.deliveries": meter.createCounter("human_users.deliveries", { description: counterDescriptions["human_users.deliveries"] }),
    "human_users.outbox.backlog": meter.createUpDownCounter("human_users.outbox.backlog", {
      description: counterDescriptions["human_users.outbox.backlog"],
    }),
  };
  return {
    span(name, attributes, work) {
      return tracer.startActiveSpan(name, { attributes: { ...attributes } }, async (span) => {
        const handle = spanHandle(span);
        try {
          return await work(handle);
        } catch (error) {
          handle.fail(failureName(error));
          throw error;
        } finally {
          span.end();
        }
      });
    },
    count(counter, value, attributes) {
      counters[counter].add(value, { ...attributes });
    },
  };
}
