import { withStorageErrors } from "../postgres/connection-failure.js";
import { hostTransactionStore, type HostTransactionStore } from "../postgres/held-transaction.js";
import { runMigrations, type MigrationReport } from "../postgres/migrate.js";
import type { SqlDatabase, SqlSession, SqlTransaction } from "../postgres/sql-database.js";
import { sqlStore, type SqlStore, type SqlStoreOptions } from "../postgres/sql-store.js";

// The parts of a PGlite instance the adapter uses, described structurally so that the package
// needs no runtime import of `@electric-sql/pglite`.
interface PgliteResult {
  readonly rows: readonly unknown[];
}

/** The transaction `db.transaction(async (tx) => ...)` hands out: the parts of it the store uses. */
export interface PgliteTransactionLike {
  /** One statement with `$1`-style parameters. */
  query(text: string, params?: unknown[]): Promise<PgliteResult>;
  /** A script of several statements, without parameters. */
  exec(script: string): Promise<unknown>;
  /** Rolls the transaction back. */
  rollback(): Promise<void>;
}

/** A `PGlite` instance, as far as the store uses it (the package never imports `@electric-sql/pglite`). */
export interface PgliteLike {
  /** One statement with `$1`-style parameters. */
  query(text: string, params?: unknown[]): Promise<PgliteResult>;
  /** A script of several statements, without parameters. */
  exec(script: string): Promise<unknown>;
  /** Runs `body` in a transaction: committed when it resolves, rolled back when it rejects. */
  transaction<T>(body: (tx: PgliteTransactionLike) => Promise<T>): Promise<T>;
}

/** What `pgliteStore` is built from. */
export interface PgliteStoreOptions extends SqlStoreOptions {
  /** A `PGlite` instance, e.g. `new PGlite("./data/users")` for a durable folder. The host owns it and closes it. */
  readonly db: PgliteLike;
}

/** PGlite as the SQL store's database (exported for the migration tests, not from the package). */
export function pgliteDatabase(db: PgliteLike): SqlDatabase {
  return {
    query: (text, params = []) => withStorageErrors(() => db.query(text, [...params])),
    exec: async (script) => {
      await withStorageErrors(() => db.exec(script));
    },
    transaction: (body) =>
      withStorageErrors(() =>
        db.transaction((tx) => {
          const session: SqlTransaction = {
            query: (text, params = []) => tx.query(text, [...params]),
            exec: async (script) => {
              await tx.exec(script);
            },
            rollback: () => tx.rollback(),
          };
          return body(session);
        }),
      ),
  };
}

/** The host's PGlite transaction as a session of the store. */
function transactionSession(tx: PgliteTransactionLike): SqlSession {
  return {
    query: (text, params = []) => withStorageErrors(() => tx.query(text, [...params])),
    exec: async (script) => {
      await withStorageErrors(() => tx.exec(script));
    },
  };
}

/** A PGlite store, which can also write inside a transaction the host holds. */
export interface PgliteStore extends SqlStore {
  /**
   * The store on `tx`, the transaction `db.transaction(async (tx) => ...)` hands the host: its
   * writes commit or roll back with the host's own. Each write runs under a savepoint, so a refused
   * one leaves the transaction usable. Nothing is delivered before the commit: then deliver
   * `writtenNotificationIds()` with `deliverPendingNotifications`, or let the worker do it.
   */
  inTransaction(tx: PgliteTransactionLike): HostTransactionStore;
}

/**
 * A `Storage` on PGlite (PostgreSQL compiled to WebAssembly, in process), with the same SQL as
 * `postgresStore`: durable in a folder without a database server. Run `migratePglite(db)` once before use.
 */
export function pgliteStore(options: PgliteStoreOptions): PgliteStore {
  return { ...sqlStore(pgliteDatabase(options.db), options), inTransaction: (tx) => hostTransactionStore(transactionSession(tx)) };
}

/** Creates or updates the tables in the PGlite database; safe to run again. */
export function migratePglite(db: PgliteLike): Promise<MigrationReport> {
  return runMigrations(pgliteDatabase(db));
}
