import type { NotificationKind } from "../ports/storage.js";

/** A notification whose delivery failed this round. `attempts` counts this one. */
export interface FailedDelivery {
  readonly id: string;
  readonly kind: NotificationKind;
  readonly userId: string;
  readonly orgId: string;
  readonly attempts: number;
  readonly error: string;
}

export interface RetryingDelivery extends FailedDelivery {
  /** RFC 3339 UTC: when the outbox hands it out again. */
  readonly retryAt: string;
}

/**
 * Where a delivery round failed outside a single message; `configuration`: the ports or the
 * configuration cannot be used (the error names each problem, as `checkConfiguration` does), and
 * nothing was sent.
 */
export type DeliveryErrorStage = "configuration" | "lease" | "markDelivered" | "markFailed" | "internal";

/**
 * Something other than a mailer went wrong: the store could not lease or record. A notification
 * whose outcome could not be recorded is handed out again when its lease ends (at-least-once).
 */
export interface DeliveryError {
  readonly stage: DeliveryErrorStage;
  /** The notification concerned; absent for a failed lease. */
  readonly id?: string;
  readonly error: string;
}

/** What one `deliverPendingNotifications` call did. */
export interface DeliveryReport {
  /** Ids of notifications the mailer or SMS sender accepted. */
  readonly delivered: string[];
  /** Failed and scheduled for another attempt. */
  readonly retrying: RetryingDelivery[];
  /** Failed for the last time (attempts used up, code expired, or the message cannot be made): no more attempts. */
  readonly dead: FailedDelivery[];
  readonly errors: DeliveryError[];
}

export function emptyReport(): DeliveryReport {
  return { delivered: [], retrying: [], dead: [], errors: [] };
}

/** How many notifications a round handed out, whatever became of them. */
export function leasedCount(report: DeliveryReport): number {
  return report.delivered.length + report.retrying.length + report.dead.length;
}

const maxErrorLength = 1000;

/** A failure as one bounded line of text, for the store and the logger. */
export function describeError(cause: unknown): string {
  return boundedError(errorText(cause));
}

/** A failure's whole text, unbounded: for a caller that takes secrets out before it is cut (see describeError). */
export function errorText(cause: unknown): string {
  let text: string;
  try {
    text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  } catch {
    // A rejection with an object that cannot be turned into text is still a failed attempt.
    text = `an error that cannot be shown as text (${cause === null ? "null" : typeof cause})`;
  }
  return text;
}

/** `text` cut to one bounded line's length. */
export function boundedError(text: string): string {
  return text.length > maxErrorLength ? `${text.slice(0, maxErrorLength)}...` : text;
}

/** One report for several rounds, in the order they ran. */
export function mergeReports(reports: readonly DeliveryReport[]): DeliveryReport {
  return {
    delivered: reports.flatMap((report) => report.delivered),
    retrying: reports.flatMap((report) => report.retrying),
    dead: reports.flatMap((report) => report.dead),
    errors: reports.flatMap((report) => report.errors),
  };
}
