/** Receives what the library must not put in error bodies: internal causes and delivery failures. */
export interface Logger {
  /** Something the host should look at: a failed delivery that will be retried, a refused configuration. */
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** Something went wrong: an internal cause behind a 13, a notification gone dead. */
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}
