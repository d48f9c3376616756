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

/** What a store says with a `StorageUnavailableError`. */
export interface StorageUnavailableOptions extends ErrorOptions {
  /**
   * The call is known to have written nothing: the database confirmed that it cancelled the
   * statement (out of time, or waiting on another transaction's lock). A batch so refused may be
   * written again one append at a time, so that only the append that waits fails.
   */
  readonly nothingWritten?: boolean;
}

/**
 * Thrown (rejected) by a store that cannot reach its database, or whose database did not answer in
 * time: the operation answers code 14. Unless `nothingWritten`, what the call wrote is unknown (a
 * connection lost while a commit's answer was on its way).
 */
export class StorageUnavailableError extends Error {
  override readonly name = "StorageUnavailableError";
  readonly nothingWritten: boolean;

  constructor(message?: string, options?: StorageUnavailableOptions) {
    super(message, options);
    this.nothingWritten = options?.nothingWritten === true;
  }
}
