import { existsSync } from "node:fs";
import { join } from "node:path";
import { lockPgliteFolder, PGLITE_LOCK_FILE, PgliteFolderInUseError, type PgliteFolderLock } from "../adapters/pglite/folder-lock.js";
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

export { PGLITE_LOCK_FILE };

/** The PGlite folder for this process (see lockPgliteFolder), or a SetupError saying why not. */
async function takePgliteFolder(dataDir: string): Promise<PgliteFolderLock> {
  try {
    return await lockPgliteFolder(dataDir);
  } catch (error) {
    if (error instanceof PgliteFolderInUseError) throw new SetupError(error.message);
    throw new SetupError(`cannot lock the PGlite folder ${dataDir}: ${describeCause(error)}`);
  }
}

/** A cause for a message: PGlite rejects with objects that are not Errors (they showed as "[object Object]"). */
function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === "object" && cause !== null) {
    const message: unknown = (cause as { message?: unknown }).message;
    if (typeof message === "string") return message;
    try {
      return JSON.stringify(cause);
    } catch {
      return String(cause);
    }
  }
  return String(cause);
}

/** Closes a PGlite database, then gives its folder up, even when the close fails. */
function closeThenUnlock(db: { close(): Promise<void> }, lock: PgliteFolderLock): () => Promise<void> {
  return async () => {
    try {
      await db.close();
    } finally {
      await lock.release();
    }
  };
}

async function openPglite(dataDir: string): Promise<OpenedStore> {
  const { PGlite } = await loadDriver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
  const { migratePglite, pgliteStore } = await import("../adapters/pglite/index.js");
  const lock = await takePgliteFolder(dataDir);
  let db: InstanceType<typeof PGlite> | undefined;
  try {
    db = new PGlite(dataDir);
    await migratePglite(db);
  } catch (cause) {
    await db?.close().catch(() => undefined);
    await lock.release();
    throw new SetupError(`cannot prepare the PGlite database in ${dataDir}: ${describeCause(cause)}`);
  }
  return { store: pgliteStore({ db }), description: `PGlite in ${dataDir}`, close: closeThenUnlock(db, lock) };
}

/** Opens the database and brings its schema up to date (migrations run first, every time). */
export function openStore(target: StoreTarget): Promise<OpenedStore> {
  return "databaseUrl" in target ? openPostgres(target.databaseUrl) : openPglite(target.dataDir);
}

/** What a look that writes nothing finds: the store, its tables current, or no tables yet. */
export type InspectedStore = { readonly opened: OpenedStore } | { readonly noTables: true; readonly description: string };

type Query = (text: string) => Promise<{ readonly rows: readonly unknown[] }>;

/** The migration versions the database has, or undefined when it has no human-users tables. */
async function appliedVersions(query: Query): Promise<ReadonlySet<number> | undefined> {
  const { rows } = await query("SELECT to_regclass('human_users_schema_migrations') IS NOT NULL AS present");
  if ((rows[0] as { present?: boolean } | undefined)?.present !== true) return undefined;
  const versions = await query("SELECT version FROM human_users_schema_migrations");
  return new Set(versions.rows.map((row) => (row as { version: number }).version));
}

/**
 * The store when its tables are current, or that it has none. Tables of an earlier version are
 * refused: only a migration could bring them up to date, and this look must not write.
 */
async function inspectTables(query: Query, description: string, opened: () => OpenedStore): Promise<InspectedStore> {
  const applied = await appliedVersions(query);
  if (applied === undefined) return { noTables: true, description };
  const { migrations } = await import("../adapters/postgres/index.js");
  const { newerSchemaProblem } = await import("../adapters/postgres/migrate.js");
  const newer = newerSchemaProblem(applied);
  if (newer !== undefined) throw new SetupError(`${description}: ${newer}`);
  const missing = migrations.map((migration) => migration.version).filter((version) => !applied.has(version));
  if (missing.length > 0) {
    throw new SetupError(
      `${description} has the human-users tables of an earlier version (migrations ${missing.join(", ")} not applied): a dry run changes nothing, so bring them up to date first (the import without --dry-run does, or migrate())`,
    );
  }
  return { opened: opened() };
}

/** `inspectTables` on a database opened for it, closed again unless its store is handed out; `cannotRead` begins the message of any other failure. */
async function inspectOpened(query: Query, description: string, opened: () => OpenedStore, close: () => Promise<void>, cannotRead: string): Promise<InspectedStore> {
  try {
    const found = await inspectTables(query, description, opened);
    if ("noTables" in found) await close();
    return found;
  } catch (cause) {
    await close().catch(() => undefined);
    if (cause instanceof SetupError) throw cause;
    throw new SetupError(`${cannotRead}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

async function inspectPostgres(databaseUrl: string): Promise<InspectedStore> {
  const { default: pg } = await loadDriver("pg", () => import("pg"));
  const { postgresStore } = await import("../adapters/postgres/index.js");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on("error", () => undefined);
  const description = describeUrl(databaseUrl);
  const close = () => pool.end();
  return inspectOpened((text) => pool.query(text), description, () => ({ store: postgresStore({ pool }), description, close }), close, `cannot read the database (${description})`);
}

async function inspectPglite(dataDir: string): Promise<InspectedStore> {
  const { PGlite } = await loadDriver("@electric-sql/pglite", () => import("@electric-sql/pglite"));
  const description = `PGlite in ${dataDir}`;
  // PGlite makes a database in a folder that holds none: such a folder is left as it is.
  if (!existsSync(join(dataDir, "PG_VERSION"))) return { noTables: true, description };
  const { pgliteStore } = await import("../adapters/pglite/index.js");
  // Held as an import holds it: a dry run reading a folder an import writes, or an import let in
  // while a dry run reads, left the database unopenable or without users the import reported.
  const lock = await takePgliteFolder(dataDir);
  let db: InstanceType<typeof PGlite>;
  try {
    db = new PGlite(dataDir);
  } catch (cause) {
    await lock.release();
    throw new SetupError(`cannot read the PGlite database in ${dataDir}: ${describeCause(cause)}`);
  }
  const close = closeThenUnlock(db, lock);
  return inspectOpened((text) => db.query(text), description, () => ({ store: pgliteStore({ db }), description, close }), close, `cannot read the PGlite database in ${dataDir}`);
}

/**
 * For a dry run: opens the database without writing anything (no migration, no folder made), or
 * finds that it has no human-users tables yet.
 */
export function inspectStore(target: StoreTarget): Promise<InspectedStore> {
  return "databaseUrl" in target ? inspectPostgres(target.databaseUrl) : inspectPglite(target.dataDir);
}
