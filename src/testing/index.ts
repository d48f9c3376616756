/**
 * The contract suite for store authors: `describeStorageContract` checks every rule of the storage ports with Vitest. ESM only; import it from test files.
 *
 * @module human-users/testing
 */
// Public surface of `human-users/testing`: checks for adapter authors. Needs vitest (an optional
// peer dependency): import it only from test files.
export { describeStorageContract } from "./storage-contract.js";
export type { StorageContractOptions, StorageFactory, StorageSeed, StorageUnderTest } from "./storage-contract.js";
export { contractIdentityProviders, contractOrganizations, listingOf, newUserAppend } from "./storage-fixtures.js";
export type { WriteOptions } from "./storage-fixtures.js";
