import type { SqlDatabase, SqlTransaction } from "./sql-database.js";
import { SCHEMA_MIGRATIONS_TABLE_SQL, migrations as shippedMigrations, sqlOnlyName, type Migration } from "./migrations.js";
import type { UsernamesFoldedTogether } from "./username-claim-keys.js";

/** What `migrate` (or `migratePglite`) did. */
export interface MigrationReport {
  /** Versions applied by this call, in order; empty when the schema was already current. */
  readonly applied: readonly number[];
  /**
   * Existing users whose usernames became one username when claim keys began to fold case fully
   * (version 2), e.g. `STRASSE` and `straße`. All of them keep their usernames and can still sign
   * in; rename all but one of each group to make the usernames unique again.
   */
  readonly foldedTogether: readonly UsernamesFoldedTogether[];
}

/**
 * What is wrong with a schema at `applied` versions for this release, when a newer release
 * migrated it (a version this one does not know): it may have changed in ways this code does not
 * know. Undefined when this release knows every applied version.
 */
export function newerSchemaProblem(applied: Iterable<number>, migrations: readonly Migration[] = shippedMigrations): string | undefined {
  const known = Math.max(0, ...migrations.map((migration) => migration.version));
  const newest = Math.max(0, ...applied);
  if (newest <= known) return undefined;
  return `the database's human-users schema is at version ${newest}, newer than this version of human-users knows (${known}): upgrade human-users before using this database`;
}

/** Between two asks for the migration lock while another copy holds it. */
const LOCK_POLL_MS = 100;

/**
 * Takes the migration lock of this schema for the transaction, waiting as long as another copy
 * holds it. Asked again and again rather than waited for in one statement: a migration of a big
 * table may outlast the statement time limit, and the copies waiting for it must not fail then.
 */
async function waitForMigrationLock(tx: SqlTransaction): Promise<void> {
  for (;;) {
    // A row when the lock is taken: read by its count, whatever a host's type parsers make of booleans.
    const taken = await tx.query("SELECT 1 AS taken WHERE pg_try_advisory_xact_lock(hashtext('human_users.migrate:' || coalesce(current_schema(), '')))");
    if (taken.rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/**
 * Applies the migrations the database lacks, all in one transaction, recording each version in
 * `human_users_schema_migrations`. Safe to run twice and from several processes at once: an advisory
 * lock per schema makes concurrent callers wait, and the later ones find nothing left to do.
 * Rejects, changing nothing, for a schema a newer release migrated (a version it does not know).
 */
export async function runMigrations(db: SqlDatabase, migrations: readonly Migration[] = shippedMigrations): Promise<MigrationReport> {
  return db.transaction(async (tx) => {
    // Each statement sees what committed before it, whatever the database's default isolation: a
    // copy that waited for the lock must see the first copy's tables, not a snapshot from before.
    await tx.query("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
    await waitForMigrationLock(tx);
    await tx.exec(SCHEMA_MIGRATIONS_TABLE_SQL);
    const done = await tx.query("SELECT version, name FROM human_users_schema_migrations");
    const recordedNames = new Map(done.rows.map((row) => [(row as { version: number }).version, (row as { name: string }).name]));
    // Refused (the transaction rolls back), rather than written to as if it were this release's.
    const newer = newerSchemaProblem(recordedNames.keys(), migrations);
    if (newer !== undefined) throw new Error(newer);
    const applied: number[] = [];
    const foldedTogether: UsernamesFoldedTogether[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      const recorded = recordedNames.get(migration.version);
      // Applied from a shipped file, which could not run the step in code: only that step is left.
      if (recorded !== undefined && (migration.run === undefined || recorded !== sqlOnlyName(migration))) continue;
      if (recorded === undefined) await tx.exec(migration.sql);
      const findings = (await migration.run?.(tx)) ?? {};
      foldedTogether.push(...(findings.foldedTogether ?? []));
      const record = recorded === undefined ? "INSERT INTO human_users_schema_migrations (version, name) VALUES ($1, $2)" : "UPDATE human_users_schema_migrations SET name = $2 WHERE version = $1";
      await tx.query(record, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return { applied, foldedTogether };
  });
}
