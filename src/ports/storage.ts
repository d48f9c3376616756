import type { Directory } from "./directory.js";
import type { NotificationRecord, Outbox } from "./outbox.js";
import type { StoredEvent, UniqueClaim, UserLog } from "./user-log.js";

export type * from "./directory.js";
export type * from "./outbox.js";
export type * from "./user-log.js";
export type * from "./user-listing.js";

/**
 * What a store gives the library, one part per concern: the directory it reads organizations and
 * identity providers from, the user log of events and claims, and the outbox of notifications.
 * The user log and the outbox share one database: an append writes notifications with its events.
 */
export interface Storage {
  readonly directory: Directory;
  readonly userLog: UserLog;
  readonly outbox: Outbox;
  /**
   * True when what is written survives a restart (PostgreSQL, PGlite): codes written then must
   * still check after it, so the library refuses throwaway keys with such a store.
   */
  readonly durable?: boolean;
  /**
   * True for a store bound to a transaction its host holds (`inTransaction`): what an append writes
   * is not committed when it returns, so the operations deliver nothing themselves. The host
   * delivers after its commit (`deliverPendingNotifications(ports, { ids })`), or the worker does.
   */
  readonly deliverAfterCommit?: boolean;
}

/** Everything a store holds, for tests and inspection: events and notifications in writing order, claims in any order. */
export interface StorageSnapshot {
  readonly events: readonly StoredEvent[];
  readonly claims: readonly UniqueClaim[];
  readonly notifications: readonly NotificationRecord[];
}

/** Thrown (rejected) by a store that cannot reach its database: the operation answers code 14. */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
}
