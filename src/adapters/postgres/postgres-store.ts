import { withStorageErrors } from "./connection-failure.js";
import { runMigrations, type MigrationReport } from "./migrate.js";
import type { SqlDatabase, SqlTransaction } from "./sql-database.js";
import { sqlStore, type SqlStore } from "./sql-store.js";
import { statementName } from "./statement-name.js";

// The parts of `pg` the adapter uses, described structurally: a `pg.Pool` fits, and the package
// needs no runtime import of `pg` (nor its types) for it.
interface PgResult {
  readonly rows: readonly unknown[];
}

/** `pg`'s QueryConfig: a `name` makes it a prepared statement, parsed and planned once per connection. */
export interface PgQuery {
  readonly text: string;
  readonly values?: unknown[];
  readonly name?: string;
}

export interface PgClientLike {
  query(query: PgQuery): Promise<PgResult>;
  /** `pg` destroys the connection instead of reusing it when given an error. */
  release(destroy?: boolean | Error): void;
  on?(event: "error", listener: (error: Error) => void): unknown;
  removeListener?(event: "error", listener: (error: Error) => void): unknown;
}

export interface PgPoolLike {
  query(query: PgQuery): Promise<PgResult>;
  connect(): Promise<PgClientLike>;
}

export interface PostgresStoreOptions {
  /** A `pg.Pool` (or anything with its `query` and `connect`). The host owns it and ends it. */
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

function ignoreClientError(): void {
  // The failure reaches the pending query as well; this only keeps `pg` from raising it as an uncaught 'error' event.
}

/** One transaction on one pooled connection; a connection that failed is destroyed, not returned to the pool. */
async function inTransaction<T>(pool: PgPoolLike, makeQuery: QueryMaker, body: (tx: SqlTransaction) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  client.on?.("error", ignoreClientError);
  let ended = false;
  let failure: Error | undefined;
  const tx: SqlTransaction = {
    query: (text, params) => client.query(makeQuery(text, params)),
    exec: async (script) => {
      await client.query({ text: script });
    },
    rollback: async () => {
      ended = true;
      await client.query({ text: "ROLLBACK" });
    },
  };
  try {
    await client.query({ text: "BEGIN" });
    const value = await body(tx);
    if (!ended) await client.query({ text: "COMMIT" });
    return value;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    // If the connection is gone this fails too, and the server has already dropped the transaction.
    const rolledBack = ended || (await client.query({ text: "ROLLBACK" }).then(() => true, () => false));
    if (rolledBack) failure = undefined;
    throw error;
  } finally {
    client.removeListener?.("error", ignoreClientError);
    client.release(failure ?? false);
  }
}

/** The pool as the shared SQL store sees it; every connection failure becomes a `StorageUnavailableError`. */
function poolDatabase(pool: PgPoolLike, prepared: boolean): SqlDatabase {
  const makeQuery = queryMaker(prepared);
  return {
    query: (text, params) => withStorageErrors(() => pool.query(makeQuery(text, params))),
    exec: async (script) => {
      await withStorageErrors(() => pool.query({ text: script }));
    },
    transaction: (body) => withStorageErrors(() => inTransaction(pool, makeQuery, body)),
  };
}

/**
 * A `Storage` on PostgreSQL through a `pg` pool: one transaction per user write, uniqueness held by
 * the database's own unique index, the outbox handed out with `FOR UPDATE SKIP LOCKED`. Run
 * `migrate(pool)` once before use. Connection failures reject with `StorageUnavailableError`.
 */
export function postgresStore(options: PostgresStoreOptions): SqlStore {
  return sqlStore(poolDatabase(options.pool, options.preparedStatements ?? true));
}

/** Creates or updates the tables in the pool's database (its `search_path` schema); safe to run again. */
export function migrate(pool: PgPoolLike): Promise<MigrationReport> {
  return runMigrations(poolDatabase(pool, false));
}
