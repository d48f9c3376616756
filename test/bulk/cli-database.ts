// Where the command-line tests import into: the PostgreSQL server when one answers (a fresh schema
// per database), PGlite in a fresh folder otherwise.
import { PGlite } from "@electric-sql/pglite";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoreTarget } from "../../src/cli/open-storage.js";
import { findPostgres, schemaPool } from "../storage/databases.js";

export interface Contents {
  /** Username claim keys, sorted. */
  readonly usernames: readonly string[];
  readonly events: number;
  readonly claims: number;
}

/** Rows in each table an import writes. */
export interface RowCounts {
  readonly events: number;
  readonly claims: number;
  readonly outbox: number;
  readonly listings: number;
}

export interface CliDatabase {
  readonly kind: "PostgreSQL" | "PGlite";
  readonly target: StoreTarget;
  contents(): Promise<Contents>;
  rowCounts(): Promise<RowCounts>;
  /** The human_users tables, sorted: none on a fresh database (a PGlite folder holding no database is not opened). */
  tables(): Promise<readonly string[]>;
  /** The organizations' ids, sorted (none without the tables). */
  organizations(): Promise<readonly string[]>;
  /** Runs a script of statements, to set a database up by hand. */
  exec(script: string): Promise<void>;
  drop(): Promise<void>;
}

interface Queryable {
  query<T>(text: string): Promise<{ rows: T[] }>;
}

async function contentsOf(db: Queryable): Promise<Contents> {
  const usernames = await db.query<{ key: string }>("SELECT key FROM human_users_claims WHERE kind = 'username' ORDER BY key COLLATE \"C\"");
  const counts = await db.query<{ events: string; claims: string }>(
    "SELECT (SELECT count(*) FROM human_users_events) AS events, (SELECT count(*) FROM human_users_claims) AS claims",
  );
  return { usernames: usernames.rows.map((row) => row.key), events: Number(counts.rows[0]?.events), claims: Number(counts.rows[0]?.claims) };
}

async function rowCountsOf(db: Queryable): Promise<RowCounts> {
  const tables = ["events", "claims", "outbox", "listings"] as const;
  const { rows } = await db.query<Record<string, string>>(`SELECT ${tables.map((table) => `(SELECT count(*) FROM human_users_${table}) AS ${table}`).join(", ")}`);
  const [counts] = rows;
  return { events: Number(counts?.["events"]), claims: Number(counts?.["claims"]), outbox: Number(counts?.["outbox"]), listings: Number(counts?.["listings"]) };
}

async function tablesOf(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'human\\_users\\_%' ORDER BY 1",
  );
  return rows.map((row) => row.name);
}

async function organizationsOf(db: Queryable): Promise<string[]> {
  if (!(await tablesOf(db)).includes("human_users_organizations")) return [];
  const { rows } = await db.query<{ id: string }>('SELECT id FROM human_users_organizations ORDER BY id COLLATE "C"');
  return rows.map((row) => row.id);
}

async function withPglite<T>(folder: string, read: (db: Queryable) => Promise<T>): Promise<T> {
  const db = new PGlite(folder);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

export const postgresUrl = await findPostgres();

export async function cliDatabase(label: string): Promise<CliDatabase> {
  if (postgresUrl !== undefined) {
    const schema = await schemaPool(postgresUrl, label, 2);
    const url = new URL(postgresUrl);
    url.searchParams.set("options", `-c search_path=${schema.schema}`);
    return {
      kind: "PostgreSQL",
      target: { databaseUrl: url.toString() },
      contents: () => contentsOf(schema.pool),
      rowCounts: () => rowCountsOf(schema.pool),
      tables: () => tablesOf(schema.pool),
      organizations: () => organizationsOf(schema.pool),
      exec: async (script) => {
        await schema.pool.query(script);
      },
      drop: () => schema.drop(),
    };
  }
  const folder = mkdtempSync(join(tmpdir(), `human-users-${label}-`));
  return {
    kind: "PGlite",
    target: { dataDir: folder },
    contents: () => withPglite(folder, contentsOf),
    rowCounts: () => withPglite(folder, rowCountsOf),
    // Opening PGlite on a folder without a database would make one there.
    tables: () => (existsSync(join(folder, "PG_VERSION")) ? withPglite(folder, tablesOf) : Promise.resolve([])),
    organizations: () => (existsSync(join(folder, "PG_VERSION")) ? withPglite(folder, organizationsOf) : Promise.resolve([])),
    exec: async (script) => {
      const db = new PGlite(folder);
      try {
        await db.exec(script);
      } finally {
        await db.close();
      }
    },
    drop: () => Promise.resolve(rmSync(folder, { recursive: true, force: true })),
  };
}
