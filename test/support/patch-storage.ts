import type { Directory, Outbox, Storage, UserLog } from "../../src/index.js";

/** Some methods of a store's parts replaced, for fault tests; the rest is the store itself. */
export interface StoragePatch {
  readonly directory?: Partial<Directory>;
  readonly userLog?: Partial<UserLog>;
  readonly outbox?: Partial<Outbox>;
}

export function patchStorage<T extends Storage>(storage: T, patch: StoragePatch): T {
  return {
    ...storage,
    directory: { ...storage.directory, ...patch.directory },
    userLog: { ...storage.userLog, ...patch.userLog },
    outbox: { ...storage.outbox, ...patch.outbox },
  };
}
