import { withStorageErrors } from "./connection-failure.js";
import { runMigrations, type MigrationReport } from "./migrate.js";
import type { SqlDatabase, SqlTransaction } from "./sql-database.js";
import { sqlStore, type SqlStore } from "./sql-store.js";

// The parts of `pg` the adapter uses, described structurally: a `pg.Pool` fits, and the package
// needs no runtime import of `pg` (nor its types) for it.
interface PgResult {
  readonly rows: readonly unknown[];
}

export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  /** `pg` destroys the connection instead of reusing it when given an error. */
  release(destroy?: boolean | Error): void;
  on?(event: "error", listener: (error: Error) => void): unknown;
  removeListener?(event: "error", listener: (error: Error) => void): unknown;
}

export interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<PgResult>;
  connect(): Promise<PgClientLike>;
}

export interface PostgresStoreOptions {
  /** A `pg.Pool` (or anything with its `query` and `connect`). The host owns it and ends it. */
  readonly pool: PgPoolLike;
}

function ignoreClientError(): void {
  // The failure reaches the pending query as well; this only keeps `pg` from raising it as an uncaught 'error' event.
}

/** One transaction on one pooled connection; a connection that failed is destroyed, not returned to the pool. */
async function inTransaction<T>(pool: PgPoolLike, body: (tx: SqlTransaction) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  client.on?.("error", ignoreClientError);
  let ended = false;
  let failure: Error | undefined;
  const tx: SqlTransaction = {
    query: (text, params = []) => client.query(text, [...params]),
    exec: async (script) => {
      await client.query(script);
    },
    rollback: async () => {
      ended = true;
      await client.query("ROLLBACK");
    },
  };
  try {
    await client.query("BEGIN");
    const value = await body(tx);
    if (!ended) await client.query("COMMIT");
    return value;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    // If the connection is gone this fails too, and the server has already dropped the transaction.
    const rolledBack = ended || (await client.query("ROLLBACK").then(() => true, () => false));
    if (rolledBack) failure = undefined;
    throw error;
  } finally {
    client.removeListener?.("error", ignoreClientError);
    client.release(failure ?? false);
  }
}

/** The pool as the shared SQL store sees it; every connection failure becomes a `StorageUnavailableError`. */
function poolDatabase(pool: PgPoolLike): SqlDatabase {
  return {
    query: (text, params = []) => withStorageErrors(() => pool.query(text, [...params])),
    exec: async (script) => {
      await withStorageErrors(() => pool.query(script));
    },
    transaction: (body) => withStorageErrors(() => inTransaction(pool, body)),
  };
}

/**
 * A `Storage` on PostgreSQL through a `pg` pool: one transaction per user write, uniqueness held by
 * the database's own unique index, the outbox handed out with `FOR UPDATE SKIP LOCKED`. Run
 * `migrate(pool)` once before use. Connection failures reject with `StorageUnavailableError`.
 */
export function postgresStore(options: PostgresStoreOptions): SqlStore {
  return sqlStore(poolDatabase(options.pool));
}

/** Creates or updates the tables in the pool's database (its `search_path` schema); safe to run again. */
export function migrate(pool: PgPoolLike): Promise<MigrationReport> {
  return runMigrations(poolDatabase(pool));
}
