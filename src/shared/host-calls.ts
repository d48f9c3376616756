// The shared leaf sees no ports: a logger here is any object with pino's two methods.
type LogFields = Readonly<Record<string, unknown>>;
interface Logger {
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}

/** Whether `value` is a promise or anything else with a `then` method, as `await` tells. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

const ignore = (): undefined => undefined;

/**
 * Throws when a host's port that must answer at once (`ids.next()`, `clock.now()`) answered with a
 * promise; one that rejects is handled first, so that its rejection cannot end the process as
 * unhandled. The throw is the port's failure: 13, with this cause logged.
 */
export function refuseThenable(answer: unknown, call: string): void {
  if (!isThenable(answer)) return;
  answer.then(undefined, ignore);
  throw new Error(`${call} answered with a promise; it must answer at once`);
}

/**
 * Calls a host's callback whose answer the library does not use (a logger, a counter, a report
 * hook): a throw is dropped, and so is a promise that rejects. TypeScript takes an async function
 * where `void` is typed, and its rejection, unheard, would end a Node process.
 */
export function callAndForget(call: () => unknown): void {
  try {
    const answer = call();
    if (isThenable(answer)) answer.then(undefined, ignore);
  } catch {
    // Nothing sensible is left to report to.
  }
}

/** `logger`'s line at `level`, if there is a logger: nothing it throws or rejects reaches the caller. */
export function logSafely(logger: Logger | undefined, level: keyof Logger, fields: LogFields, message: string): void {
  if (logger !== undefined) callAndForget(() => logger[level](fields, message));
}

/** The host's logger, read without a throw: undefined when there is none or reading it throws (a getter). */
export function loggerOf<L>(ports: { readonly logger?: L }): L | undefined {
  try {
    return ports.logger;
  } catch {
    return undefined;
  }
}

/** A logger that cannot throw or reject into its caller (see logSafely). */
export function safeLogger(logger: Logger | undefined): Logger {
  if (logger === undefined || (typeof logger !== "object" && typeof logger !== "function") || logger === null) return NO_LOGGER;
  // Made once per logger: delivery asks for one on every write.
  let safe = safeLoggers.get(logger);
  if (safe === undefined) {
    safe = {
      warn: (fields, message) => logSafely(logger, "warn", fields, message),
      error: (fields, message) => logSafely(logger, "error", fields, message),
    };
    safeLoggers.set(logger, safe);
  }
  return safe;
}

const safeLoggers = new WeakMap<object, Logger>();
const NO_LOGGER: Logger = { warn: ignore, error: ignore };
