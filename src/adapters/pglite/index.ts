export { pgliteStore, migratePglite } from "./pglite-store.js";
export type { PgliteLike, PgliteStoreOptions, PgliteTransactionLike } from "./pglite-store.js";
