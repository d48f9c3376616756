// Where the command-line tests import into: the PostgreSQL server when one answers (a fresh schema
// per database), PGlite in a fresh folder otherwise.
import { PGlite } from "@electric-sql/pglite";
import { mkdtempSync, rmSync } from "node:fs";
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
      drop: () => schema.drop(),
    };
  }
  const folder = mkdtempSync(join(tmpdir(), `human-users-${label}-`));
  return {
    kind: "PGlite",
    target: { dataDir: folder },
    contents: () => withPglite(folder, contentsOf),
    rowCounts: () => withPglite(folder, rowCountsOf),
    drop: () => Promise.resolve(rmSync(folder, { recursive: true, force: true })),
  };
}
