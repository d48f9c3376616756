import type { PgClientLike, PgPoolLike, PgQuery, PgResult } from "./pg-like.js";
import { DatabaseTimeoutError, withinLimit } from "./time-limit.js";
import type { ResolvedTimeouts } from "./timeout-options.js";
import { errorCode } from "../../shared/error-code.js";

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

const heardPools = new WeakSet<PgPoolLike>();

/**
 * Gives every new client of `pool` an 'error' listener from the moment the pool announces it. A
 * server that ends a connection in the same network read that completes it (pg_terminate_backend,
 * a restart) makes `pg` emit 'error' after the pool took its own listener off and before the
 * store's `await pool.connect()` resumes to add one: unheard, the event would end the process.
 * Once per pool, however many stores share it.
 */
export function hearConnectionErrors(pool: PgPoolLike): void {
  if (pool.on === undefined || heardPools.has(pool)) return;
  heardPools.add(pool);
  pool.on("connect", (client) => client.on?.("error", ignoreClientError));
}

/**
 * A connection from `pool` within the connect timeout. The pool cannot be told to stop looking, so
 * a connection that arrives after the timeout goes straight back to it.
 */
function connectWithin(pool: PgPoolLike, timeouts: ResolvedTimeouts): Promise<PgClientLike> {
  return withinLimit(pool.connect(), timeouts.connectTimeoutMs, "connection", (late) => late.release());
}

/** The server's answer to a statement cancelled while it ran. */
const QUERY_CANCELED = "57014";

/**
 * Asks the server, over another connection of the pool, to cancel backend `pid`, but only while it
 * runs `text` (a pooler such as PgBouncer hands out process ids of its own, which may name another
 * backend). Best effort: a server that cannot be reached, or a pool with no connection to spare
 * within the connect timeout, cannot be asked. Settles once the request is answered or given up.
 */
async function cancelOnServer(pool: PgPoolLike, timeouts: ResolvedTimeouts, pid: number, text: string): Promise<void> {
  let canceller: PgClientLike | undefined;
  try {
    canceller = await connectWithin(pool, timeouts);
    const cancel = {
      // pg_stat_activity keeps the first 1024 bytes of a statement by default: compared on its start.
      text: "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND left(query, 200) = left($2, 200)",
      values: [pid, text],
    };
    await withinLimit(canceller.query(cancel), timeouts.statementTimeoutMs, "answer");
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
 * Finished first: its own result or error. No word at all (a server that does not answer, or no
 * connection to ask over): the timeout, the outcome unknown. The cancel request is waited for on
 * every path, and the connection is destroyed afterwards (see `checkOut`), so that a cancel can
 * never reach a statement of the next caller.
 */
async function outcomeAfterTimeout(pool: PgPoolLike, timeouts: ResolvedTimeouts, client: PgClientLike, query: PgQuery, work: Promise<PgResult>, timeout: DatabaseTimeoutError): Promise<PgResult> {
  const pid = client.processID;
  if (typeof pid !== "number") throw timeout;
  const cancelled = cancelOnServer(pool, timeouts, pid, query.text);
  try {
    return await withinLimit(work, timeouts.statementTimeoutMs, "answer");
  } catch (error) {
    if (errorCode(error) === QUERY_CANCELED) throw new DatabaseTimeoutError(timeout.awaited, timeout.limitMs, true);
    throw error instanceof DatabaseTimeoutError ? timeout : error;
  } finally {
    await cancelled;
  }
}

/** A connection from `pool` within the connect timeout (see `connectWithin`), each statement bounded. */
export async function checkOut(pool: PgPoolLike, timeouts: ResolvedTimeouts): Promise<PooledConnection> {
  const client = await connectWithin(pool, timeouts);
  client.on?.("error", ignoreClientError);
  let stuck: DatabaseTimeoutError | undefined;
  // Set once a statement outlived its timeout and a cancel was asked for: the connection is not reused.
  let cancelAsked: Error | undefined;
  return {
    async run(query) {
      if (stuck !== undefined) throw stuck;
      const work = client.query(query);
      try {
        return await withinLimit(work, timeouts.statementTimeoutMs, "answer");
      } catch (error) {
        if (!(error instanceof DatabaseTimeoutError)) throw error;
        cancelAsked = error;
        try {
          return await outcomeAfterTimeout(pool, timeouts, client, query, work, error);
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
      client.release(stuck ?? destroyBecause ?? cancelAsked ?? false);
    },
  };
}
