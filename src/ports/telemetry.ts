/**
 * Attribute values the library puts on spans and measurements: fixed names, codes, counts and
 * organization ids. Never a username, email, phone number, code, password or hash.
 */
export type TelemetryAttributes = Readonly<Record<string, string | number | boolean>>;

/** The span of one piece of work, while it runs. */
export interface TelemetrySpan {
  /** Adds what the work learned (an answer's code, a count). */
  setAttributes(attributes: TelemetryAttributes): void;
  /** Marks the work failed; `reason` is a fixed text or an error's name, never a message that may carry data. */
  fail(reason: string): void;
}

/**
 * The library's measurements:
 * - `human_users.operations`: operations answered, by `human_users.operation` and `human_users.code` (0 = ok);
 *   `importHumanUsers` counts each row, with `human_users.outcome` too (`imported`, `already_there`,
 *   `would_import` or `failed`);
 * - `human_users.deliveries`: delivery attempts, by `human_users.notification.kind` and `human_users.outcome`
 *   (`delivered`, `retrying` or `dead`);
 * - `human_users.outbox.backlog`: goes up by the notifications each write puts in the outbox and down by each
 *   one delivered or dead; summed over every process sharing the outbox, it is how the backlog changed
 *   since they started (a host transaction that rolls back leaves its notifications counted).
 */
export type TelemetryCounter = "human_users.operations" | "human_users.deliveries" | "human_users.outbox.backlog";

/**
 * Tracing and metrics (`openTelemetry(api)` from `human-users/otel`). Without this port no
 * instrumentation runs at all. Spans nest as the host's context propagation says: a storage call's
 * span is a child of its operation's span when the host has a context manager (the Node SDK has one).
 */
export interface Telemetry {
  /**
   * Runs `work` in a span named `name`, ended when `work` settles; a rejection marks the span
   * failed (with the error's name only) and is passed on.
   */
  span<T>(name: string, attributes: TelemetryAttributes, work: (span: TelemetrySpan) => Promise<T>): Promise<T>;
  /** Adds `value` (negative only for the backlog) to `counter`. */
  count(counter: TelemetryCounter, value: number, attributes: TelemetryAttributes): void;
}

/** The name a failure is reported by: the error's class name, which says what failed without data. */
export function failureName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
