import { StorageUnavailableError } from "../../ports/storage.js";
import { DatabaseTimeoutError } from "./time-limit.js";
import { errorCode } from "../../shared/error-code.js";

// Socket errors: the server is not there, went away, or did not answer in time.
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** The server cancelled the statement: the server's own statement_timeout, or a cancel request. */
const QUERY_CANCELED = "57014";

// SQLSTATEs meaning "no usable server": class 08 (connection exception), 57P01..57P03 (the backend
// was terminated, the server crashed or is starting), 53300 (too many connections); and 57014, a
// statement the server cancelled (out of time, as the store's own limit is: try again later).
function isUnavailableSqlState(code: string): boolean {
  // 08P01 (protocol violation) is the server refusing a message it read: it is there.
  return (code.startsWith("08") && code !== "08P01") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300" || code === QUERY_CANCELED;
}

/** The database confirmed it cancelled the statement, so it wrote nothing. */
function cancelledOnServer(error: unknown): boolean {
  if (error instanceof DatabaseTimeoutError) return error.cancelled;
  return error instanceof Error && errorCode(error) === QUERY_CANCELED;
}

// What `pg` says when a connection ends or a pool cannot hand one out; these errors carry no code.
const driverMessages = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /client has encountered a connection error/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
  /pglite is closed/i,
];

export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof StorageUnavailableError || error instanceof DatabaseTimeoutError) return true;
  const code = errorCode(error);
  if (code !== undefined && (socketCodes.has(code) || isUnavailableSqlState(code))) return true;
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  return driverMessages.some((pattern) => pattern.test(error.message));
}

/**
 * What a host most often has to do about an error that is no fault of the library: the tables are
 * missing (no `migrate()` yet), or the search path names no schema that exists. The error keeps
 * its SQLSTATE and cause; only its message says what to do.
 */
function withAdvice(error: Error): Error {
  const code = errorCode(error);
  const advice =
    code === "42P01" && /human_users_/.test(error.message)
      ? "the human-users tables are not in this database's schema (its search_path): run migrate(pool) (migratePglite(db) for PGlite) before using the store"
      : code === "3F000"
        ? "the connection's search_path names no schema that exists: create it first (CREATE SCHEMA name), or connect with another search_path"
        : undefined;
  return advice === undefined ? error : Object.assign(new Error(`${advice} (${error.message})`, { cause: error }), { code });
}

/** The error to reject with: a `StorageUnavailableError` (cause kept) for connection failures, else `error` itself (with advice, see `withAdvice`). */
export function storageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  if (!isConnectionFailure(error)) return error instanceof Error ? withAdvice(error) : error;
  const message = error instanceof DatabaseTimeoutError || cancelledOnServer(error) ? "the database did not answer in time" : "the database cannot be reached";
  return new StorageUnavailableError(message, { cause: error, nothingWritten: cancelledOnServer(error) });
}

/** Runs `work`, rejecting with `storageError` of whatever it rejects with. */
export async function withStorageErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw storageError(error);
  }
}
