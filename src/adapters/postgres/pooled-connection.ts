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

/** The server's answer to a statement cancelled while it ran. */
const QUERY_CANCELED = "57014";

/**
 * Asks the server, over another connection of the pool, to cancel what backend `pid` is running.
 * Best effort: a server that cannot be reached cannot be asked. Settles once the request is answered.
 */
async function cancelOnServer(pool: PgPoolLike, timeouts: ResolvedTimeouts, pid: number): Promise<void> {
  let canceller: PgClientLike | undefined;
  try {
    canceller = await withinLimit(pool.connect(), timeouts.connectTimeoutMs, "connection", (late) => late.release());
    await withinLimit(canceller.query({ text: "SELECT pg_cancel_backend($1)", values: [pid] }), timeouts.statementTimeoutMs, "answer");
    canceller.release();
  } catch (error) {
    canceller?.release(error instanceof Error ? error : true);
  }
}

/**
 * What became of a statement the store stopped waiting for. On a live server it may still run,
 * and a write that commits by itself would then be written after the caller was told "nothing
 * was written": so the server is asked to cancel it, and the store waits (one more statement
 * timeout) for how it ended. Cancelled: the timeout is the answer, and nothing was written.
 * Finished first: its own result or error. No word at all (a server that does not answer): the
 * timeout, the outcome unknown.
 */
async function outcomeAfterTimeout(pool: PgPoolLike, timeouts: ResolvedTimeouts, client: PgClientLike, work: Promise<PgResult>, timeout: DatabaseTimeoutError): Promise<PgResult> {
  const pid = client.processID;
  if (typeof pid !== "number") throw timeout;
  const cancelled = cancelOnServer(pool, timeouts, pid);
  let result: PgResult;
  try {
    result = await withinLimit(work, timeouts.statementTimeoutMs, "answer");
  } catch (error) {
    const code = typeof error === "object" && error !== null ? (error as { readonly code?: unknown }).code : undefined;
    throw error instanceof DatabaseTimeoutError || code === QUERY_CANCELED ? timeout : error;
  }
  // A cancel that reaches an idle backend is dropped; waiting for it keeps it off the next statement.
  await cancelled;
  return result;
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
      const work = client.query(query);
      try {
        return await withinLimit(work, timeouts.statementTimeoutMs, "answer");
      } catch (error) {
        if (!(error instanceof DatabaseTimeoutError)) throw error;
        try {
          return await outcomeAfterTimeout(pool, timeouts, client, work, error);
        } catch (final) {
          // Timed out for good: the connection's state is unknown, and `release` destroys it.
          if (final instanceof DatabaseTimeoutError) stuck = final;
          throw final;
        }
      }
    },
    release(destroyBecause) {
      client.removeListener?.("error", ignoreClientError);
      // `pg` ends a connection released with an error; one with a statement still running it closes at once.
      client.release(stuck ?? destroyBecause ?? false);
    },
  };
}
