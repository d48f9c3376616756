/** Receives what the library must not put in error bodies: internal causes and delivery failures. */
export interface Logger {
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}
