/** What a log line carries besides its message. An Error is under `err`, the key pino serializes. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Receives what the library must not put in error bodies: internal causes and delivery failures.
 * It is called as `logger.warn(fields, message)`, pino's order, which console's `(...data)` takes
 * too: pass a pino logger, `console`, or any object with these two methods.
 */
export interface Logger {
  /** Something the host should look at: a failed delivery that will be retried, a missing mail transport. */
  warn(fields: LogFields, message: string): void;
  /** Something went wrong: an internal cause behind a 13, a notification gone dead. */
  error(fields: LogFields, message: string): void;
}
