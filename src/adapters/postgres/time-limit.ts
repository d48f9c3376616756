import { settleWithin } from "../../shared/time-limit.js";

/** What the store was waiting for when it gave up. */
export type AwaitedFromDatabase = "connection" | "answer";

/** The store stopped waiting on the database: no connection from the pool, or no answer, in time. */
export class DatabaseTimeoutError extends Error {
  override readonly name = "DatabaseTimeoutError";

  /**
   * @param cancelled The server confirmed that it cancelled the statement (SQLSTATE 57014): its
   * transaction rolled back, so it wrote nothing. Otherwise what it did is unknown.
   */
  constructor(
    readonly awaited: AwaitedFromDatabase,
    readonly limitMs: number,
    readonly cancelled = false,
  ) {
    super(awaited === "connection" ? `no connection from the pool within ${limitMs} ms` : `no answer from the database within ${limitMs} ms`);
  }
}

/**
 * Settles as `work` does, unless `limitMs` passes first: then rejects with a `DatabaseTimeoutError`,
 * and a value `work` delivers later goes to `onLate` (a late failure is dropped). 0 means no limit.
 */
export function withinLimit<T>(work: Promise<T>, limitMs: number, awaited: AwaitedFromDatabase, onLate?: (value: T) => void): Promise<T> {
  return limitMs === 0 ? work : settleWithin(work, limitMs, () => new DatabaseTimeoutError(awaited, limitMs), onLate);
}
