import type { AppendOutcome, UserAppend } from "../../ports/user-log.js";
import { limiter } from "../../shared/limiter.js";
import type { SqlDatabase, SqlSession, SqlTransaction } from "./sql-database.js";
import { sqlStore, type SqlStore } from "./sql-store.js";

/**
 * A store whose writes go into a transaction its host holds (see `inTransaction`). Nothing it
 * writes is committed when an operation answers: the host commits or rolls back its own rows and
 * the users together. So the operations send nothing themselves (`deliverAfterCommit`); after its
 * commit the host delivers `writtenNotificationIds()` with `deliverPendingNotifications`, or leaves
 * them to the notification worker.
 */
export interface HostTransactionStore extends SqlStore {
  readonly deliverAfterCommit: true;
  /** The notifications written through this store so far, in writing order; none of a refused write. */
  writtenNotificationIds(): readonly string[];
}

/** Statements of the store that may fail by design run under this savepoint, one at a time. */
const SAVEPOINT = "human_users_write";

/**
 * The host's transaction as the shared SQL store sees it. A failing statement would abort the
 * host's whole transaction, so whatever may fail by design (an append the database refuses, a
 * batch) runs under a savepoint, and its failure undoes only itself. Statements are sent one at a
 * time: two operations sharing the transaction must not interleave inside each other's savepoint.
 */
export function heldTransactionDatabase(session: SqlSession): SqlDatabase {
  const turns = limiter(1);

  async function underSavepoint<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    let undone = false;
    const tx: SqlTransaction = {
      query: (text, params) => session.query(text, params),
      exec: (script) => session.exec(script),
      rollback: async () => {
        undone = true;
        await session.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
      },
    };
    await session.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const value = await work(tx);
      await session.query(`RELEASE SAVEPOINT ${SAVEPOINT}`);
      return value;
    } catch (error) {
      // When even this fails the connection is gone, and the host's transaction with it.
      if (!undone) await session.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`).catch(() => undefined);
      await session.query(`RELEASE SAVEPOINT ${SAVEPOINT}`).catch(() => undefined);
      throw error;
    }
  }

  return {
    query: (text, params) => turns.run(() => session.query(text, params)),
    exec: (script) => turns.run(() => session.exec(script)),
    transaction: (body) => turns.run(() => underSavepoint(body)),
    savepoint: (work) => turns.run(() => underSavepoint(work)),
  };
}

/** The shared SQL store on the host's transaction, keeping the ids of the notifications it wrote. */
export function hostTransactionStore(session: SqlSession): HostTransactionStore {
  const store = sqlStore(heldTransactionDatabase(session));
  const written: string[] = [];
  const keep = (append: UserAppend, outcome: AppendOutcome): void => {
    if (outcome.ok) written.push(...append.notifications.map((notification) => notification.id));
  };
  return {
    ...store,
    deliverAfterCommit: true,
    writtenNotificationIds: () => [...written],
    userLog: {
      ...store.userLog,
      async append(append) {
        const outcome = await store.userLog.append(append);
        keep(append, outcome);
        return outcome;
      },
      async appendNewUsers(appends) {
        const outcomes = await store.userLog.appendNewUsers(appends);
        outcomes.forEach((outcome, index) => {
          const append = appends[index];
          if (append !== undefined) keep(append, outcome);
        });
        return outcomes;
      },
    },
  };
}
