import { isConnectionFailure, withStorageErrors } from "./connection-failure.js";
import { hostTransactionStore, type HostTransactionStore } from "./held-transaction.js";
import { runMigrations, type MigrationReport } from "./migrate.js";
import type { PgPoolLike, PgQuery, PgQueryable } from "./pg-like.js";
import { checkOut, hearConnectionErrors, type PooledConnection } from "./pooled-connection.js";
import type { SqlDatabase, SqlSession, SqlTransaction } from "./sql-database.js";
import { sqlStore, type SqlStore, type SqlStoreOptions } from "./sql-store.js";
import { statementName } from "./statement-name.js";
import { withinLimit } from "./time-limit.js";
import { migrationTimeouts, resolveTimeouts, storeTimeouts, type PostgresTimeouts, type ResolvedTimeouts } from "./timeout-options.js";

export type { PgClientLike, PgPoolLike, PgQuery, PgQueryable } from "./pg-like.js";
export type { PostgresTimeouts } from "./timeout-options.js";
export type { HostTransactionStore } from "./held-transaction.js";

export interface PostgresStoreOptions extends PostgresTimeouts, SqlStoreOptions {
  /** A `pg.Pool` (or anything with its `connect`). The host owns it and ends it. */
  readonly pool: PgPoolLike;
  /**
   * Default true: the store's statements are prepared once per connection (markedly faster).
   * Set false behind a pooler that cannot keep prepared statements (PgBouncer in transaction mode
   * before 1.21, or without `max_prepared_statements`).
   */
  readonly preparedStatements?: boolean;
}

/** Turns the store's SQL into `pg` queries; scripts (several statements) are never prepared. */
type QueryMaker = (text: string, params?: readonly unknown[]) => PgQuery;

function queryMaker(prepared: boolean): QueryMaker {
  return (text, params) => {
    if (params === undefined) return { text };
    return prepared ? { name: statementName(text), text, values: [...params] } : { text, values: [...params] };
  };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** One statement (or script) on a connection of its own; the connection is destroyed if it broke. */
async function onOneConnection(pool: PgPoolLike, timeouts: ResolvedTimeouts, query: PgQuery): Promise<{ readonly rows: readonly unknown[] }> {
  const connection = await checkOut(pool, timeouts);
  try {
    const result = await connection.run(query);
    connection.release();
    return result;
  } catch (error) {
    // A statement the database refused leaves a sound connection; a broken one must not be handed out again.
    connection.release(isConnectionFailure(error) ? asError(error) : undefined);
    throw error;
  }
}

/** Rolls back unless the transaction is already over; false when that failed and the connection is suspect. */
async function rolledBack(connection: PooledConnection, ended: boolean): Promise<boolean> {
  if (ended) return true;
  // Fails at once after a timeout, and when the connection is gone; either way the connection is
  // destroyed, and the server drops the transaction with it.
  return connection.run({ text: "ROLLBACK" }).then(
    () => true,
    () => false,
  );
}

/** One transaction on one pooled connection; a connection that failed is destroyed, not returned to the pool. */
async function inTransaction<T>(pool: PgPoolLike, timeouts: ResolvedTimeouts, makeQuery: QueryMaker, body: (tx: SqlTransaction) => Promise<T>): Promise<T> {
  const connection = await checkOut(pool, timeouts);
  let ended = false;
  const tx: SqlTransaction = {
    query: (text, params) => connection.run(makeQuery(text, params)),
    exec: async (script) => {
      await connection.run({ text: script });
    },
    rollback: async () => {
      ended = true;
      await connection.run({ text: "ROLLBACK" });
    },
  };
  try {
    await connection.run({ text: "BEGIN" });
    const value = await body(tx);
    // After a timeout `run` sends nothing more: a transaction that ran out of time never commits.
    if (!ended) await connection.run({ text: "COMMIT" });
    connection.release();
    return value;
  } catch (error) {
    connection.release((await rolledBack(connection, ended)) ? undefined : asError(error));
    throw error;
  }
}

/** The pool as the shared SQL store sees it; every connection failure or timeout becomes a `StorageUnavailableError`. */
function poolDatabase(pool: PgPoolLike, prepared: boolean, timeouts: ResolvedTimeouts): SqlDatabase {
  const makeQuery = queryMaker(prepared);
  return {
    query: (text, params) => withStorageErrors(() => onOneConnection(pool, timeouts, makeQuery(text, params))),
    exec: async (script) => {
      await withStorageErrors(() => onOneConnection(pool, timeouts, { text: script }));
    },
    transaction: (body) => withStorageErrors(() => inTransaction(pool, timeouts, makeQuery, body)),
  };
}

/**
 * A client of the host's, inside the transaction it began, as a session of the store. Each
 * statement is bounded by the statement timeout; the host owns the client, so after a timeout it
 * is the host that rolls back and destroys the connection (`client.release(error)`).
 */
function clientSession(client: PgQueryable, makeQuery: QueryMaker, timeouts: ResolvedTimeouts): SqlSession {
  const run = (query: PgQuery) => withStorageErrors(() => withinLimit(client.query(query), timeouts.statementTimeoutMs, "answer"));
  return {
    query: (text, params) => run(makeQuery(text, params)),
    exec: async (script) => {
      await run({ text: script });
    },
  };
}

/** A PostgreSQL store, which can also write inside a transaction the host holds. */
export interface PostgresStore extends SqlStore {
  /**
   * The store on `client`, a connection on which the host has begun a transaction (`BEGIN`): its
   * writes commit or roll back with the host's own. Each write runs under a savepoint, so a refused
   * one leaves the host's transaction usable. Nothing is delivered before the host commits: then
   * deliver `writtenNotificationIds()` with `deliverPendingNotifications`, or let the worker do it.
   * The host keeps the client, ends the transaction and releases it.
   */
  inTransaction(client: PgQueryable): HostTransactionStore;
}

/**
 * A `Storage` on PostgreSQL through a `pg` pool: one transaction per user write, uniqueness held by
 * the database's own unique index, the outbox handed out with `FOR UPDATE SKIP LOCKED`. Run
 * `migrate(pool)` once before use. Connection failures, and waits beyond `connectTimeoutMs` (default
 * 5 s) or `statementTimeoutMs` (default 10 s), reject with `StorageUnavailableError`; a statement
 * past its timeout is first cancelled on the server, and waited for one more timeout, so that a
 * write the caller is told failed does not commit later. Throws a `RangeError` for a timeout out of range.
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  // A pool passed as the options (or nothing) would fail deep inside with "reading 'on'".
  const pool = (options as Partial<PostgresStoreOptions> | undefined)?.pool;
  if (pool === null || typeof pool !== "object" || typeof pool.connect !== "function") {
    throw new TypeError("postgresStore takes { pool }: a pg Pool (new pg.Pool({ connectionString })) as the pool member of its options");
  }
  hearConnectionErrors(options.pool);
  const prepared = options.preparedStatements ?? true;
  const timeouts = resolveTimeouts(options, storeTimeouts);
  return {
    ...sqlStore(poolDatabase(options.pool, prepared, timeouts), options),
    inTransaction: (client) => hostTransactionStore(clientSession(client, queryMaker(prepared), timeouts)),
  };
}

/**
 * Creates or updates the tables in the pool's database (its `search_path` schema); safe to run again.
 * Waits at most `connectTimeoutMs` (default 5 s) for a connection and `statementTimeoutMs` (default
 * 60 s: a migration may rewrite a big table) for each statement.
 */
export async function migrate(pool: PgPoolLike, options: PostgresTimeouts = {}): Promise<MigrationReport> {
  hearConnectionErrors(pool);
  return runMigrations(poolDatabase(pool, false, resolveTimeouts(options, migrationTimeouts)));
}
