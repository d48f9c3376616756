// A failure the host must act on (a mailer that cannot send at all, a notification gone dead)
// is easy to miss among per-mail lines, and without a logger it would reach no one. Each such
// cause is a warning, once per logger: with the default logger, once per process.

import { callAndForget } from "./host-calls.js";

type Fields = Readonly<Record<string, unknown>>;

/** The part of a logger a warning needs, in pino's (fields, message) order. */
export interface WarningLogger {
  warn(fields: Fields, message: string): void;
}

/** What the host is warned about, once each. */
export type HostWarning = "mailer-setup" | "sms-sender-missing" | "notification-dead" | "telemetry-failed" | "port-failed" | "delivery-failing" | "sms-delivery-failing" | "default-origin";

/** Without a logger from the host, warnings go to the console, which every runtime has; nothing else does. */
export const consoleWarnings: WarningLogger = {
  warn: (fields, message) => console.warn(message, fields),
};

const warned = new WeakMap<WarningLogger, Set<HostWarning>>();

/** Warns `logger` (the console when there is none) about `cause`, unless it was warned about it before. */
export function warnHostOnce(logger: WarningLogger | undefined, cause: HostWarning, fields: Fields, message: string): void {
  const target = logger ?? consoleWarnings;
  const causes = warned.get(target) ?? new Set<HostWarning>();
  if (causes.has(cause)) return;
  causes.add(cause);
  warned.set(target, causes);
  // A broken logger must not stop delivery.
  callAndForget(() => target.warn(fields, message));
}
