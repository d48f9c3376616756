/**
 * The PostgreSQL store (`postgresStore`) and its migrations (`migrate`), over the host's `pg` pool. See docs/storage.md.
 *
 * @module human-users/postgres
 */
export { postgresStore, migrate } from "./postgres-store.js";
export type { HostTransactionStore, PgPoolLike, PgQueryable, PostgresStore, PostgresStoreOptions, PostgresTimeouts } from "./postgres-store.js";
export type { SqlStore, SqlStoreOptions } from "./sql-store.js";
export type { MigrationReport } from "./migrate.js";
export { migrations } from "./migrations.js";
export type { Migration, MigrationFindings } from "./migrations.js";
export type { UsernamesFoldedTogether } from "./username-claim-keys.js";
