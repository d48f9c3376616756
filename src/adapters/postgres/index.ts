export { postgresStore, migrate } from "./postgres-store.js";
export type { PgClientLike, PgPoolLike, PgQuery, PostgresStoreOptions } from "./postgres-store.js";
export type { SqlStore } from "./sql-store.js";
export type { MigrationReport } from "./migrate.js";
export { migrations, migrationFileName } from "./migrations.js";
export type { Migration, MigrationFindings } from "./migrations.js";
export type { UsernamesFoldedTogether } from "./username-claim-keys.js";
