export { postgresStore, migrate } from "./postgres-store.js";
export type { HostTransactionStore, PgPoolLike, PgQueryable, PostgresStore, PostgresStoreOptions, PostgresTimeouts } from "./postgres-store.js";
export type { SqlStore } from "./sql-store.js";
export type { MigrationReport } from "./migrate.js";
export { migrations } from "./migrations.js";
export type { Migration, MigrationFindings } from "./migrations.js";
export type { UsernamesFoldedTogether } from "./username-claim-keys.js";
