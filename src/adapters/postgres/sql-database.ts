/**
 * The little the SQL store needs from a PostgreSQL driver, so that `pg` and PGlite share one
 * implementation. Rows come back untyped: the store maps them (see rows.ts).
 */
export interface SqlSession {
  /** One statement with `$1`-style parameters. */
  query(text: string, params?: readonly unknown[]): Promise<{ readonly rows: readonly unknown[] }>;
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface SqlTransaction extends SqlSession {
  /** Ends the transaction without keeping anything; the body then returns normally. */
  rollback(): Promise<void>;
}

export interface SqlDatabase extends SqlSession {
  /** Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws. */
  transaction<T>(body: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  /**
   * Present when the store runs inside a transaction its host holds: runs `work` under a savepoint,
   * so that a statement failing in it (an append the database refuses) undoes only `work`, not the
   * host's transaction. Absent, each statement is a transaction of its own and needs nothing more.
   */
  readonly savepoint?: <T>(work: (tx: SqlTransaction) => Promise<T>) => Promise<T>;
}

/** One statement that may fail by design: alone, or under the host transaction's savepoint. */
export function undoableQuery(db: SqlDatabase, text: string, params: readonly unknown[]): Promise<{ readonly rows: readonly unknown[] }> {
  return db.savepoint === undefined ? db.query(text, params) : db.savepoint((tx) => tx.query(text, params));
}
