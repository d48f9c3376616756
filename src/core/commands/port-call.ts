import { err, ok, type Result } from "neverthrow";
import type { Logger } from "../../ports/logger.js";
import { internal, unavailable } from "../errors/user-errors.js";
import type { ErrorBody } from "../../shared/error-body.js";

/** By name too: a second copy of the package (ESM beside CJS) has its own class. */
function isUnavailable(cause: unknown): boolean {
  return cause instanceof Error && cause.name === "StorageUnavailableError";
}

/** Logs a port's failure (the logger gets the cause, the body never does) and answers 14 or 13. */
export function portFailure(cause: unknown, what: string, logger: Logger | undefined): ErrorBody {
  try {
    logger?.error({ err: cause }, `human-users: ${what} failed`);
  } catch {
    // A broken logger must not turn a clean error body into a rejection.
  }
  return isUnavailable(cause) ? unavailable() : internal();
}

/** Runs a port call; a throw or rejection becomes code 13 or 14. */
export async function callPort<T>(what: string, logger: Logger | undefined, call: () => T | Promise<T>): Promise<Result<T, ErrorBody>> {
  try {
    return ok(await call());
  } catch (cause) {
    return err(portFailure(cause, what, logger));
  }
}
