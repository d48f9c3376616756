import { callAndForget, isThenable } from "./host-calls.js";
import { warnHostOnce, type WarningLogger } from "./host-warnings.js";

// The shared leaf sees no ports: the telemetry port's shape, as `ports/telemetry.ts` gives it.
type Attributes = Readonly<Record<string, string | number | boolean>>;
interface TelemetrySpan {
  setAttributes(attributes: Attributes): void;
  fail(reason: string): void;
}
interface Telemetry<TCounter extends string> {
  span<T>(name: string, attributes: Attributes, work: (span: TelemetrySpan) => Promise<T>): Promise<T>;
  count(counter: TCounter, value: number, attributes: Attributes): void;
}

/** The work's promise; a work that throws at once is a rejected promise, as an async one's would be. */
function started<T>(work: (span: TelemetrySpan) => Promise<T>, span: TelemetrySpan): Promise<T> {
  try {
    return work(span);
  } catch (cause) {
    return Promise.reject(cause);
  }
}

/** Whether the host's answer is a thenable, read without letting a `then` getter that throws out. */
function isThenableSafely(value: unknown): value is PromiseLike<unknown> {
  try {
    return isThenable(value);
  } catch {
    return false;
  }
}

/** A span that records nothing: for work the host's span never ran. */
const NO_SPAN: TelemetrySpan = { setAttributes: () => undefined, fail: () => undefined };

/** The guarded wrappers this module made: never wrapped again. */
const guardedTelemetries = new WeakSet<object>();

/**
 * `telemetry` that can never change an answer. Tracing is the host's view of the work, not part
 * of it: a span or counter that throws, rejects, answers something other than the work's own
 * promise, or never runs the work at all, is warned about once and the work goes on (run
 * without a span when the host's did not run it). Without this, a counter that threw after a
 * user was written answered 13 for a user that exists.
 */
export function safeTelemetry<TCounter extends string>(telemetry: Telemetry<TCounter>, logger: WarningLogger | undefined): Telemetry<TCounter> {
  // Delivery after a write is handed the operation's ports, guarded already: not wrapped twice.
  if (guardedTelemetries.has(telemetry)) return telemetry;
  // Once per logger: a counter that always throws must not add a line to every call.
  const report = (cause: unknown): void => warnHostOnce(logger, "telemetry-failed", { err: cause }, "human-users: the telemetry port failed; the work went on without it (warned once)");
  const guarded = (span: TelemetrySpan): TelemetrySpan => ({
    setAttributes: (attributes) => callAndForget(() => span.setAttributes(attributes)),
    fail: (reason) => callAndForget(() => span.fail(reason)),
  });
  const safe: Telemetry<TCounter> = {
    span<T>(name: string, attributes: Attributes, work: (span: TelemetrySpan) => Promise<T>): Promise<T> {
      let workDone: Promise<T> | undefined;
      // The work runs once, however often the host calls it (and a throw of its own is its
      // rejection, never the host's failure); its own promise is the answer.
      const run = (span: TelemetrySpan): Promise<T> => (workDone ??= started(work, guarded(span)));
      let traced: unknown;
      try {
        traced = telemetry.span(name, attributes, run);
      } catch (cause) {
        report(cause);
      }
      if (workDone !== undefined) {
        // The host's promise passes the work's rejection on, already answered through the work's own.
        if (isThenableSafely(traced)) Promise.resolve(traced).then(undefined, () => undefined);
        return workDone;
      }
      if (!isThenableSafely(traced)) return run(NO_SPAN);
      // A span that runs the work later: its own promise settles after the work's. (A `then`
      // that throws rejects this promise; it never escapes.)
      return Promise.resolve(traced).then(
        () => workDone ?? run(NO_SPAN),
        (cause: unknown) => {
          if (workDone !== undefined) return workDone;
          report(cause);
          return run(NO_SPAN);
        },
      );
    },
    count(counter, value, attributes) {
      try {
        const answer: unknown = telemetry.count(counter, value, attributes);
        if (isThenable(answer)) answer.then(undefined, report);
      } catch (cause) {
        report(cause);
      }
    },
  };
  guardedTelemetries.add(safe);
  return safe;
}
