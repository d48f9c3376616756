// A host application's database for the host-transaction tests: the real PostgreSQL server when one
// answers, else PGlite. Each subject has a fresh schema with the store's tables and one table of
// the host's own (`signups`), and runs a body in a transaction the host holds.
import type pg from "pg";
import type { HostTransactionStore } from "../../src/adapters/postgres/index.js";
import { postgresStore, type PostgresStore } from "../../src/adapters/postgres/index.js";
import { pgliteStore, type PgliteStore } from "../../src/adapters/pglite/index.js";
import type { StorageSeed } from "../../src/testing/index.js";
import { PgliteSchemas, findPostgres, postgresSubject } from "./databases.js";

/** What a body sees inside the host's transaction. */
export interface HostTransaction {
  /** The store bound to the host's transaction. */
  readonly storage: HostTransactionStore;
  /** Writes a row of the host's own in the same transaction. */
  addSignup(name: string): Promise<void>;
}

export type TransactionEnd = "commit" | "rollback";

export interface HostSubject {
  /** The store on the whole database (a pool, or the PGlite instance), outside any host transaction. */
  readonly store: PostgresStore | PgliteStore;
  /** Runs `body` in a transaction of the host, then commits or rolls back as `end` says. */
  transaction<T>(end: TransactionEnd, body: (tx: HostTransaction) => Promise<T>): Promise<T>;
  /** The host's rows, committed ones only. */
  signups(): Promise<readonly string[]>;
  /** The pool, on PostgreSQL (for tests that hold two transactions at once). */
  readonly pool?: pg.Pool;
  close(): Promise<void>;
}

const SIGNUPS = "CREATE TABLE signups (name text PRIMARY KEY)";

function signupNames(rows: readonly unknown[]): readonly string[] {
  return rows.map((row) => (row as { name: string }).name);
}

/** Host subjects on one database kind; `close` ends what `subject` opened. */
export interface HostDatabase {
  readonly label: string;
  /** True on a server: transactions can be held at the same time. */
  readonly concurrent: boolean;
  subject(seed: StorageSeed): Promise<HostSubject>;
  close(): Promise<void>;
}

async function postgresHost(url: string): Promise<HostDatabase> {
  return {
    label: "PostgreSQL",
    concurrent: true,
    async subject(seed) {
      const base = await postgresSubject(url, "host", seed);
      const pool = base.schema.pool;
      await pool.query(SIGNUPS);
      const store = postgresStore({ pool });
      return {
        store,
        pool,
        async transaction(end, body) {
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            const value = await body({
              storage: store.inTransaction(client),
              addSignup: async (name) => {
                await client.query("INSERT INTO signups (name) VALUES ($1)", [name]);
              },
            });
            await client.query(end === "commit" ? "COMMIT" : "ROLLBACK");
            return value;
          } catch (error) {
            await client.query("ROLLBACK");
            throw error;
          } finally {
            client.release();
          }
        },
        signups: async () => signupNames((await pool.query("SELECT name FROM signups ORDER BY name")).rows),
        close: async () => {
          await base.close?.();
        },
      };
    },
    close: async () => undefined,
  };
}

async function pgliteHost(): Promise<HostDatabase> {
  const schemas = new PgliteSchemas();
  await schemas.instance.waitReady;
  return {
    label: "PGlite",
    concurrent: false,
    async subject(seed) {
      const base = await schemas.subject("host", seed);
      const db = schemas.instance;
      await db.exec(SIGNUPS);
      const store = pgliteStore({ db });
      return {
        store,
        transaction: (end, body) =>
          db.transaction(async (tx) => {
            const value = await body({
              storage: store.inTransaction(tx),
              addSignup: async (name) => {
                await tx.query("INSERT INTO signups (name) VALUES ($1)", [name]);
              },
            });
            if (end === "rollback") await tx.rollback();
            return value;
          }),
        signups: async () => signupNames((await db.query("SELECT name FROM signups ORDER BY name")).rows),
        close: async () => {
          await base.close?.();
        },
      };
    },
    close: () => schemas.close(),
  };
}

/** PostgreSQL when a server answers, else PGlite. */
export async function hostDatabase(): Promise<HostDatabase> {
  const url = await findPostgres();
  return url === undefined ? pgliteHost() : postgresHost(url);
}
