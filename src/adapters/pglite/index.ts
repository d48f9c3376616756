export { pgliteStore, migratePglite } from "./pglite-store.js";
export type { PgliteLike, PgliteStore, PgliteStoreOptions, PgliteTransactionLike } from "./pglite-store.js";
export type { HostTransactionStore } from "../postgres/held-transaction.js";
