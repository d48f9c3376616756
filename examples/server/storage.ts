// Picks the example server's storage from the environment: DATABASE_URL → PostgreSQL through `pg`,
// PGLITE_DIR → PGlite durable in that folder, neither → in memory. Each starts with the demo
// organization. The database drivers are loaded only when asked for.
import { memoryStore, type Organization, type Storage } from "../../src/index.js";

export interface OpenedStorage {
  readonly storage: Storage;
  /** Says which storage, for the start-up line (never the password in a URL). */
  readonly description: string;
  close(): Promise<void>;
}

async function openPostgres(url: string, organization: Organization): Promise<OpenedStorage> {
  const { default: pg } = await import("pg");
  const { migrate, postgresStore } = await import("../../src/adapters/postgres/index.js");
  // A server that never answers must not hold start-up (or shutdown) without end.
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000 });
  const where = new URL(url);
  try {
    await migrate(pool);
  } catch (cause) {
    await pool.end();
    throw cause;
  }
  const storage = postgresStore({ pool });
  await storage.upsertOrganization(organization);
  return { storage, description: `PostgreSQL at ${where.host}${where.pathname}`, close: () => pool.end() };
}

async function openPglite(folder: string, organization: Organization): Promise<OpenedStorage> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { migratePglite, pgliteStore } = await import("../../src/adapters/pglite/index.js");
  const db = new PGlite(folder);
  await migratePglite(db);
  const storage = pgliteStore({ db });
  await storage.upsertOrganization(organization);
  return { storage, description: `PGlite in ${folder}`, close: () => db.close() };
}

export function openStorage(env: NodeJS.ProcessEnv, organization: Organization): Promise<OpenedStorage> {
  const databaseUrl = env["DATABASE_URL"];
  if (databaseUrl !== undefined && databaseUrl !== "") return openPostgres(databaseUrl, organization);
  const pgliteDir = env["PGLITE_DIR"];
  if (pgliteDir !== undefined && pgliteDir !== "") return openPglite(pgliteDir, organization);
  const storage = memoryStore({ organizations: [organization] });
  return Promise.resolve({ storage, description: "in memory", close: () => Promise.resolve() });
}
