import { LONGEST_TIMER_MS } from "../../shared/time-limit.js";

/** How long the PostgreSQL store waits on the database before it answers "unavailable". */
export interface PostgresTimeouts {
  /**
   * Milliseconds to wait for a connection from the pool (a free one, or a new one to finish its
   * handshake). 0 waits without limit. Default 5000 (`postgresStore` and `migrate`).
   */
  readonly connectTimeoutMs?: number;
  /**
   * Milliseconds to wait for the answer to each statement. 0 waits without limit. Default 10000
   * for `postgresStore`, 60000 for `migrate`.
   */
  readonly statementTimeoutMs?: number;
}

export type ResolvedTimeouts = Required<PostgresTimeouts>;

// A healthy pool hands out a connection in milliseconds, and opening one (TLS and SCRAM included)
// takes well under a second; 5 s leaves room for a busy pool's queue and a slow network.
// The store's statements touch a few rows by key; 10 s is far beyond a healthy answer, even for a
// bulk batch, and still short enough for a caller to retry within its own deadline.
export const storeTimeouts: ResolvedTimeouts = { connectTimeoutMs: 5_000, statementTimeoutMs: 10_000 };

// A migration may rewrite or index a table that is already big: its statements get longer.
export const migrationTimeouts: ResolvedTimeouts = { connectTimeoutMs: 5_000, statementTimeoutMs: 60_000 };


function checked(name: keyof PostgresTimeouts, value: number): number {
  if (typeof value !== "number" || !(value >= 0 && value <= LONGEST_TIMER_MS)) {
    throw new RangeError(`human-users: ${name} must be a number of milliseconds from 0 (no limit) to ${LONGEST_TIMER_MS}, got ${String(value)}`);
  }
  return value;
}

/** The timeouts to use: the given ones (checked, throwing RangeError when out of range) over `defaults`. */
export function resolveTimeouts(options: PostgresTimeouts, defaults: ResolvedTimeouts): ResolvedTimeouts {
  return {
    connectTimeoutMs: checked("connectTimeoutMs", options.connectTimeoutMs ?? defaults.connectTimeoutMs),
    statementTimeoutMs: checked("statementTimeoutMs", options.statementTimeoutMs ?? defaults.statementTimeoutMs),
  };
}
