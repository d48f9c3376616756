import { err, ok, type Result } from "neverthrow";
import type { Logger } from "../../ports/logger.js";
import { internal, unavailable } from "../errors/user-errors.js";
import type { ErrorBody } from "../../shared/error-body.js";
import { isThenable, logSafely } from "../../shared/host-calls.js";
import { warnHostOnce } from "../../shared/host-warnings.js";

/** By name too: a second copy of the package (ESM beside CJS) has its own class. */
function isUnavailable(cause: unknown): boolean {
  return cause instanceof Error && cause.name === "StorageUnavailableError";
}

/**
 * Logs a port's failure (the logger gets the cause, the body never does) and answers 14 or 13.
 * Without a logger the first such cause is still shown, once, on the console: a 13 whose cause
 * reaches no one (tables never migrated, say) leaves nothing to go by.
 */
export function portFailure(cause: unknown, what: string, logger: Logger | undefined): ErrorBody {
  // A broken logger must not turn a clean error body into a rejection.
  if (logger === undefined) warnHostOnce(undefined, "port-failed", { err: cause }, `human-users: ${what} failed, and the call answered 13 or 14; pass ports.logger to see every such cause (warned once)`);
  else logSafely(logger, "error", { err: cause }, `human-users: ${what} failed`);
  return isUnavailable(cause) ? unavailable() : internal();
}

/**
 * Runs a port call; a throw or rejection becomes code 13 or 14. Not an async function: a port
 * that answers at once (a clock, an id generator, an authorizer) is answered with one settled
 * promise, without an async frame and an await per call.
 */
export function callPort<T>(what: string, logger: Logger | undefined, call: () => T | Promise<T>): Promise<Result<T, ErrorBody>> {
  const answer = callPortNow(what, logger, call);
  return answer instanceof Promise ? answer : Promise.resolve(answer);
}

/**
 * `callPort` for a caller on the creation path that waits only when it must: the answer of a port
 * that answers at once (a clock, an id generator, an authorizer) as it is, else a promise of it.
 * Each promise and wait saved is an allocation and a turn of the microtask queue per call.
 */
export function callPortNow<T>(what: string, logger: Logger | undefined, call: () => T | Promise<T>): Result<T, ErrorBody> | Promise<Result<T, ErrorBody>> {
  let answer: T | Promise<T>;
  let pending: boolean;
  try {
    answer = call();
    pending = isThenable(answer);
  } catch (cause) {
    return err(portFailure(cause, what, logger));
  }
  if (!pending) return ok(answer as T);
  return Promise.resolve(answer).then(
    (value) => ok(value),
    (cause: unknown) => err(portFailure(cause, what, logger)),
  );
}
