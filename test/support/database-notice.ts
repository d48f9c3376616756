// Vitest global set-up: one line saying which database the storage tests use, decided as they
// decide it (findPostgres), so a run on PGlite is never mistaken for a run on PostgreSQL.
import { findPostgres } from "../storage/databases.js";

/** The URL as it may be printed: without its password. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === "") return url;
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "(an address that is not a URL)";
  }
}

export async function databaseNotice(): Promise<string> {
  if (process.env.HUMAN_USERS_PG_URL === "off") return "Storage tests: PGlite (HUMAN_USERS_PG_URL=off)";
  try {
    const url = await findPostgres();
    return url === undefined
      ? "Storage tests: PGlite (no PostgreSQL answered at 127.0.0.1:5432; set HUMAN_USERS_PG_URL to use one)"
      : `Storage tests: PostgreSQL at ${withoutPassword(url)}`;
  } catch {
    return `Storage tests: PostgreSQL at ${withoutPassword(process.env.HUMAN_USERS_PG_URL ?? "")}, which does not answer: its tests will fail`;
  }
}

export default async function setup(): Promise<void> {
  console.log(await databaseNotice());
}
