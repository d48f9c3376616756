import type { SqlStore } from "../adapters/postgres/sql-store.js";

export type StoreTarget = { readonly databaseUrl: string } | { readonly dataDir: string };

export interface OpenedStore {
  readonly store: SqlStore;
  /** Which database, for messages (never the password of a URL). */
  readonly description: string;
  close(): Promise<void>;
}

/** Thrown when the store cannot be opened; the message is for the person at the terminal. */
export class SetupError extends Error {
  override readonly name = "SetupError";
}

/** A driver the package declares as an optional peer: a clear message when it is not installed. */
async function loadDriver<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    throw new SetupError(`the ${name} package is needed for this (npm install ${name}): ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

function describeUrl(url: string): string {
  try {
    const where = new URL(url);
    return `PostgreSQL at ${where.host}${where.pathname}`;
  } catch {
    return "PostgreSQL";
  }
}

async function openPostgres(databaseUrl: string): Promise<OpenedStore> {
  const { default: pg } = await loadDriver("pg", () => import("pg"));
  const { migrate, postgresStore } = await import("../adapters/postgres/index.js");
  // Batches are written one after another; a few connections serve the lookups beside them.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on("error", () => undefined);
  try {
    await migrate(pool);
  } catch (cause) {
    await pool.end().catch(() => undefined);
    throw new SetupError(`cannot prepare the database (${describeUrl(databaseUrl)}): ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return { store: postgresStore({ pool }), description: describeUrl(databaseUrl), close: () => pool.end() };
}

async function openPglite(dataDir: string): Promise<OpenedStore> {
  const { PGlite } = await loadDriver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
  const { migratePglite, pgliteStore } = await import("../adapters/pglite/index.js");
  const db = new PGlite(dataDir);
  try {
    await migratePglite(db);
  } catch (cause) {
    await db.close().catch(() => undefined);
    throw new SetupError(`cannot prepare the PGlite database in ${dataDir}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  return { store: pgliteStore({ db }), description: `PGlite in ${dataDir}`, close: () => db.close() };
}

/** Opens the database and brings its schema up to date (migrations run first, every time). */
export function openStore(target: StoreTarget): Promise<OpenedStore> {
  return "databaseUrl" in target ? openPostgres(target.databaseUrl) : openPglite(target.dataDir);
}
