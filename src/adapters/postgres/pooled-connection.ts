import type { PgClientLike, PgPoolLike, PgQuery, PgResult } from "./pg-like.js";
import { DatabaseTimeoutError, withinLimit } from "./time-limit.js";
import type { ResolvedTimeouts } from "./timeout-options.js";

/**
 * A connection checked out of the host's pool, each statement bounded by the statement timeout.
 * The store never uses `pool.query`: only a connection it holds can be destroyed when an answer
 * does not come.
 */
export interface PooledConnection {
  /**
   * Sends one statement. Once one has timed out, the connection's state is unknown (the statement
   * may still run, the protocol is mid-exchange): every later call rejects at once, sending nothing,
   * so that a transaction that ran out of time can never be committed.
   */
  run(query: PgQuery): Promise<PgResult>;
  /** Gives the connection back to the pool; destroys it instead after a timeout or when given a reason. */
  release(destroyBecause?: Error): void;
}

function ignoreClientError(): void {
  // The failure reaches the pending statement as well; this only keeps `pg` from raising it as an uncaught 'error' event.
}

/**
 * A connection from `pool` within the connect timeout. The pool cannot be told to stop looking, so
 * a connection that arrives after the timeout goes straight back to it.
 */
export async function checkOut(pool: PgPoolLike, timeouts: ResolvedTimeouts): Promise<PooledConnection> {
  const client: PgClientLike = await withinLimit(pool.connect(), timeouts.connectTimeoutMs, "connection", (late) => late.release());
  client.on?.("error", ignoreClientError);
  let stuck: DatabaseTimeoutError | undefined;
  return {
    async run(query) {
      if (stuck !== undefined) throw stuck;
      try {
        // A late answer is dropped: the caller has been told, and `release` destroys the connection.
        return await withinLimit(client.query(query), timeouts.statementTimeoutMs, "answer");
      } catch (error) {
        if (error instanceof DatabaseTimeoutError) stuck = error;
        throw error;
      }
    },
    release(destroyBecause) {
      client.removeListener?.("error", ignoreClientError);
      // `pg` ends a connection released with an error; one with a statement still running it closes at once.
      client.release(stuck ?? destroyBecause ?? false);
    },
  };
}
