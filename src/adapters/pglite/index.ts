/**
 * The PGlite store (`pgliteStore`, `migratePglite`): the PostgreSQL store's SQL on embedded PostgreSQL, durable in a folder. See docs/storage.md.
 *
 * @module human-users/pglite
 */
export { pgliteStore, migratePglite } from "./pglite-store.js";
export { lockPgliteFolder, PgliteFolderInUseError, PGLITE_LOCK_FILE } from "./folder-lock.js";
export type { PgliteFolderLock } from "./folder-lock.js";
export type { PgliteLike, PgliteStore, PgliteStoreOptions, PgliteTransactionLike } from "./pglite-store.js";
export type { HostTransactionStore } from "../postgres/held-transaction.js";
export type { SqlStoreOptions } from "../postgres/sql-store.js";
