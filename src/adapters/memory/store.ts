import { claimKey, firstRepeatedClaim } from "../../core/claims.js";
import { firstTakenNotificationId } from "../../core/notification-ids.js";
import type {
  ClaimHolder,
  AppendOutcome,
  DeliveryFailure,
  Directory,
  IdentityProvider,
  LeaseRequest,
  NotificationRecord,
  Organization,
  OutboxNotification,
  Outbox,
  PendingNotification,
  Storage,
  StorageSnapshot,
  StoredEvent,
  UniqueClaim,
  UserAppend,
  UserListing,
  UserLog,
} from "../../ports/storage.js";
import { WITHDRAWN_NOTIFICATION_ERROR } from "../../ports/outbox.js";
import { deepFreeze, isDeeplyFrozen } from "../../shared/deep-freeze.js";
import { queryListings } from "./user-query.js";

/** The organizations and identity providers a `memoryStore` starts with. */
export interface MemoryStoreSeed {
  readonly organizations?: readonly Organization[];
  readonly identityProviders?: readonly IdentityProvider[];
}

/** The memory user log always has the batch write and the batch lookup of claim holders. */
export interface MemoryUserLog extends UserLog {
  appendNewUsers(appends: readonly UserAppend[]): Promise<readonly AppendOutcome[]>;
  findClaimHolders(claims: readonly UniqueClaim[]): Promise<readonly ClaimHolder[]>;
}

/**
 * The in-memory store: a `Storage` plus read-only views of everything written, for tests.
 * Each view returns copies in writing order; changing them changes nothing in the store.
 */
export interface MemoryStore extends Storage {
  readonly userLog: MemoryUserLog;
  /** Every event of every user, in writing order. */
  events(): readonly StoredEvent[];
  /** Every claim held. */
  claims(): readonly UniqueClaim[];
  /** Every notification with its delivery state (delivered and dead ones keep no code or link). */
  notifications(): readonly NotificationRecord[];
  /** The three views at once, the same shape the SQL adapters' `snapshot()` returns. */
  snapshot(): StorageSnapshot;
}

/** Mutable bookkeeping behind one `NotificationRecord`. */
interface OutboxEntry {
  record: NotificationRecord;
  /** Writing order: leases hand notifications out in it. */
  readonly order: number;
}

/** One user as the store keeps it: its events and its listing, found with one lookup. */
interface StoredUser {
  readonly events: StoredEvent[];
  listing: UserListing;
}

/** A claim and its holder, in one object: the store keeps one per claim of every user. */
interface HeldClaim extends UniqueClaim {
  readonly userId: string;
}

function copyClaim(claim: UniqueClaim): UniqueClaim {
  return { kind: claim.kind, scope: claim.scope, key: claim.key };
}

function* listingsOf(users: Iterable<StoredUser>): Iterable<UserListing> {
  for (const user of users) yield user.listing;
}

/** Changes to a record; an `undefined` member removes that member. */
type RecordPatch = { readonly [K in keyof NotificationRecord]?: NotificationRecord[K] | undefined };

/**
 * `{ ...record, ...patch }` without its `undefined` members, in the same member order. Built member
 * by member: a spread followed by `delete` leaves a slow dictionary object and cost microseconds on
 * every delivery.
 */
function patched(record: NotificationRecord, patch: RecordPatch): NotificationRecord {
  const merged: Record<string, unknown> = {};
  let name: keyof NotificationRecord;
  for (name in record) {
    if (!Object.hasOwn(record, name)) continue;
    const member = Object.hasOwn(patch, name) ? patch[name] : record[name];
    if (member !== undefined) merged[name] = member;
  }
  for (name in patch) if (Object.hasOwn(patch, name) && !Object.hasOwn(record, name) && patch[name] !== undefined) merged[name] = patch[name];
  // Only optional members can be removed, and every required one comes from `record`.
  return merged as unknown as NotificationRecord;
}

function pendingOf(record: NotificationRecord): PendingNotification {
  return {
    id: record.id,
    kind: record.kind,
    userId: record.userId,
    orgId: record.orgId,
    recipient: record.recipient,
    code: record.code,
    link: record.link,
    locale: record.locale,
    displayName: record.displayName,
    username: record.username,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    attempts: record.attempts,
  };
}

/** A fresh notification's record: nothing tried yet; leased to the writer until `leasedUntil` when it asked. */
function pendingRecord(notification: OutboxNotification, leasedUntil: string | undefined): NotificationRecord {
  // Not a spread followed by new members: that costs microseconds on Node 20's V8.
  const fresh = leasedUntil === undefined ? { attempts: 0, state: "pending" as const } : { attempts: 0, state: "pending" as const, leasedUntil };
  return Object.assign({}, notification, fresh);
}

/** True when a failure reported under `leasedUntil` may be recorded: unfenced, or that lease is still the record's. */
function holdsLease(record: NotificationRecord | undefined, leasedUntil: Date | undefined): boolean {
  if (leasedUntil === undefined) return true;
  return record?.leasedUntil !== undefined && Date.parse(record.leasedUntil) === leasedUntil.getTime();
}

function isDue(record: NotificationRecord, now: Date): boolean {
  if (record.state !== "pending") return false;
  const nowMs = now.getTime();
  const leaseOver = record.leasedUntil === undefined || Date.parse(record.leasedUntil) <= nowMs;
  const retryDue = record.retryAt === undefined || Date.parse(record.retryAt) <= nowMs;
  return leaseOver && retryDue;
}

/**
 * A deep, frozen copy of JSON data: what the store keeps. Reads hand the frozen values out as they
 * are, with no copy, and nobody can change what is stored through them. A value frozen all through
 * (the events and listings the core makes) cannot change either, and is kept as it is.
 */
function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== "object" || isDeeplyFrozen(value)) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  // Member by member onto an empty object: V8 reuses the shapes of such copies and of their frozen
  // form, where freezing a spread's copy makes a new shape every time (dearer than the copy).
  const copy: Record<string, unknown> = {};
  for (const key in value) if (Object.hasOwn(value, key)) copy[key] = frozenCopy(value[key]);
  return Object.freeze(copy) as T;
}

/** The events in sequence order: as given when they are (as every writer sends them), else sorted. */
function inSequenceOrder(events: readonly StoredEvent[]): readonly StoredEvent[] {
  for (let index = 1; index < events.length; index++) {
    if ((events[index - 1]?.sequence ?? 0) > (events[index]?.sequence ?? 0)) return [...events].sort((a, b) => a.sequence - b.sequence);
  }
  return events;
}

/** Each of the sequences after `expected` exactly once, in any order. */
function followsSequence(events: readonly StoredEvent[], expected: number): boolean {
  const ordered = inSequenceOrder(events);
  for (let index = 0; index < ordered.length; index++) if (ordered[index]?.sequence !== expected + index + 1) return false;
  return true;
}

function memoryDirectory(seed: MemoryStoreSeed): Directory {
  // Copied once and frozen all through: every lookup hands out the same value, which nobody can change.
  const organizations = new Map<string, Organization>((seed.organizations ?? []).map((org) => [org.id, deepFreeze(structuredClone(org))]));
  const providers = new Map<string, IdentityProvider>((seed.identityProviders ?? []).map((idp) => [idp.id, deepFreeze(structuredClone(idp))]));
  return {
    findOrganization: (id) => Promise.resolve(organizations.get(id)),
    findOrganizationByDomain: (domain) => {
      const wanted = domain.toLowerCase();
      const found = [...organizations.values()].find((org) =>
        org.domains.some((entry) => entry.verified && entry.domain.toLowerCase() === wanted),
      );
      return Promise.resolve(found);
    },
    findIdentityProvider: (id) => Promise.resolve(providers.get(id)),
  };
}

/**
 * A `Storage` held in process memory: for tests and for embedding where durability is not needed.
 * Seeded once with organizations and identity providers (copied and frozen: later changes to the
 * seed are not seen, and every lookup hands out the same value, which nobody can change).
 */
export function memoryStore(seed: MemoryStoreSeed = {}): MemoryStore {
  const events: StoredEvent[] = [];
  const users = new Map<string, StoredUser>();
  const claims = new Map<string, HeldClaim>();
  const outbox = new Map<string, OutboxEntry>();
  // Each user's notifications, in the order written: a withdrawal looks at the user's own, not the whole outbox.
  const notificationsOfUser = new Map<string, string[]>();
  // The notifications still pending, in the order written: a worker's lease looks at these, not at every one delivered.
  const pendingIds = new Set<string>();

  const isStoredNotification = (id: string): boolean => outbox.has(id);

  /** Every change of a record goes through here, which keeps `pendingIds` to the pending ones. */
  function setRecord(entry: OutboxEntry, record: NotificationRecord): void {
    entry.record = record;
    if (record.state === "pending") pendingIds.add(record.id);
    else pendingIds.delete(record.id);
  }

  /** Applies `change` to a pending notification; delivered and dead ones never change again. */
  /** Changes a pending notification; false when there is none by that id. */
  function updatePending(id: string, change: (record: NotificationRecord) => RecordPatch): boolean {
    const entry = outbox.get(id);
    if (entry === undefined || entry.record.state !== "pending") return false;
    setRecord(entry, patched(entry.record, change(entry.record)));
    return true;
  }

  /**
   * The first claim of `write` that is held (by another user, or by this one: as the SQL stores, a
   * claim given up in the same append is not free to take in it), or that `write` takes twice;
   * `keys` are the claims' keys.
   */
  function claimConflict(write: UserAppend, keys: readonly string[]): UniqueClaim | undefined {
    for (const [index, claim] of write.claims.entries()) {
      if (claims.has(keys[index] ?? claimKey(claim))) return claim;
    }
    return firstRepeatedClaim(write.claims, keys);
  }

  /** Why `write` cannot be written now, checked in the port's order; undefined when it can. */
  function refusal(write: UserAppend, keys: readonly string[], user: StoredUser | undefined): AppendOutcome | undefined {
    const stream = user?.events;
    const last = stream?.[stream.length - 1]?.sequence ?? 0;
    if (write.expectedSequence > 0) {
      if (stream === undefined) return { ok: false, reason: "user-not-found" };
      if (last !== write.expectedSequence) return { ok: false, reason: "sequence-conflict", actualSequence: last };
    }
    const conflict = claimConflict(write, keys);
    if (conflict !== undefined) return { ok: false, reason: "claim-held", conflict: copyClaim(conflict) };
    if (write.expectedSequence === 0 && stream !== undefined) return { ok: false, reason: "sequence-conflict", actualSequence: last };
    const notificationId = firstTakenNotificationId(write.notifications, isStoredNotification);
    return notificationId === undefined ? undefined : { ok: false, reason: "notification-id-taken", notificationId };
  }

  function checkWellFormed(write: UserAppend): void {
    if (!followsSequence(write.events, write.expectedSequence) || write.events.some((event) => event.aggregateId !== write.userId)) {
      throw new Error("memoryStore: events must belong to the append's user and follow its expected sequence");
    }
    if (write.listing.userId !== write.userId) throw new Error("memoryStore: the listing must be the append's user's");
  }

  function write(append: UserAppend, keys: readonly string[], user: StoredUser | undefined): void {
    for (const claim of append.releasedClaims ?? []) {
      const key = claimKey(claim);
      if (claims.get(key)?.userId === append.userId) claims.delete(key);
    }
    for (const [index, claim] of append.claims.entries()) {
      claims.set(keys[index] ?? claimKey(claim), { kind: claim.kind, scope: claim.scope, key: claim.key, userId: append.userId });
    }
    const stored = inSequenceOrder(append.events).map(frozenCopy);
    for (const event of stored) events.push(event);
    const listing = frozenCopy(append.listing);
    // A new user's stream is the list just made, of its exact length.
    if (user === undefined) users.set(append.userId, { events: stored, listing });
    else {
      for (const event of stored) user.events.push(event);
      user.listing = listing;
    }
    const withdrawn = append.expectedSequence > 0 ? append.withdrawnNotificationKinds : undefined;
    if (withdrawn !== undefined && withdrawn.length > 0) {
      const failedAt = append.events[0]?.createdAt;
      for (const id of notificationsOfUser.get(append.userId) ?? []) {
        const entry = outbox.get(id);
        if (entry === undefined || !withdrawn.includes(entry.record.kind)) continue;
        updatePending(id, () => ({ state: "dead", code: "", link: "", failedAt, lastError: WITHDRAWN_NOTIFICATION_ERROR, leasedUntil: undefined, retryAt: undefined }));
      }
    }
    const leasedUntil = append.leaseNotificationsUntil?.toISOString();
    for (const notification of append.notifications) {
      const entry: OutboxEntry = { record: pendingRecord(notification, leasedUntil), order: outbox.size };
      outbox.set(notification.id, entry);
      setRecord(entry, entry.record);
      const ids = notificationsOfUser.get(notification.userId);
      if (ids === undefined) notificationsOfUser.set(notification.userId, [notification.id]);
      else ids.push(notification.id);
    }
  }

  /** Writes one checked append, or tells why not. Each claim's key is made once, for the check and the write. */
  function appendChecked(request: UserAppend): AppendOutcome {
    const keys = request.claims.map(claimKey);
    const user = users.get(request.userId);
    const refused = refusal(request, keys, user);
    if (refused !== undefined) return refused;
    write(request, keys, user);
    return { ok: true };
  }

  function append(request: UserAppend): Promise<AppendOutcome> {
    // Everything is checked before anything is written, so a refused append leaves no trace.
    try {
      checkWellFormed(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(withLeased(request, appendChecked(request)));
  }

  /** A written append's answer names the notifications it wrote leased to the writer, when it asked for that. */
  function withLeased(request: UserAppend, outcome: AppendOutcome): AppendOutcome {
    if (!outcome.ok || request.leaseNotificationsUntil === undefined) return outcome;
    return { ok: true, leased: request.notifications.map((notification) => Object.assign({}, notification, { attempts: 0 })) };
  }

  /** Checked for the whole batch first, so that a batch that rejects writes none of its appends. */
  function appendNewUsers(appends: readonly UserAppend[]): Promise<readonly AppendOutcome[]> {
    try {
      for (const request of appends) {
        if (request.expectedSequence !== 0) throw new Error("memoryStore: appendNewUsers takes new users only");
        checkWellFormed(request);
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(appends.map((request) => withLeased(request, appendChecked(request))));
  }

  const userLog: MemoryUserLog = {
    findHeldClaims: (wanted) => Promise.resolve(wanted.filter((claim) => claims.has(claimKey(claim))).map(copyClaim)),
    append,
    appendNewUsers,
    // The stored events are frozen: handed out as they are, in a list of the caller's own.
    loadEvents: (userId) => Promise.resolve(users.get(userId)?.events.slice() ?? []),
    findClaimHolder: (claim) => Promise.resolve(claims.get(claimKey(claim))?.userId),
    findClaimHolders: (wanted) =>
      Promise.resolve(
        wanted.flatMap((claim) => {
          const userId = claims.get(claimKey(claim))?.userId;
          return userId === undefined ? [] : [{ claim, userId, events: users.get(userId)?.events.slice() ?? [] }];
        }),
      ),
    // Listings are frozen too: a page is a list of the caller's own holding them.
    queryUsers: (query) => Promise.resolve(queryListings(listingsOf(users.values()), query)),
  };

  /** The pending notifications' entries, in writing order, read as the lease goes (it stops at its limit). */
  function* pendingEntries(): Generator<OutboxEntry> {
    for (const id of pendingIds) {
      const entry = outbox.get(id);
      if (entry !== undefined) yield entry;
    }
  }

  const notificationOutbox: Outbox = {
    lease(request: LeaseRequest) {
      // Named ids are looked up, not searched for: delivery right after a write stays O(1). A
      // worker's lease walks the pending ones only, in writing order.
      const candidates =
        request.ids === undefined
          ? pendingEntries()
          : request.ids
              .map((id) => outbox.get(id))
              .filter((entry) => entry !== undefined)
              .sort((a, b) => a.order - b.order);
      const leased: PendingNotification[] = [];
      for (const entry of candidates) {
        if (leased.length >= request.limit) break;
        if (!isDue(entry.record, request.now)) continue;
        setRecord(entry, { ...entry.record, leasedUntil: request.leaseUntil.toISOString() });
        leased.push(pendingOf(entry.record));
      }
      return Promise.resolve(leased);
    },
    // Unfenced: a mail that went out was delivered, whoever reports it (see `Outbox.markDelivered`).
    markDelivered(id, at) {
      const entry = outbox.get(id);
      // Withdrawn while it was being sent: the mail went out all the same (see `Outbox.markDelivered`).
      const withdrawn = entry?.record.state === "dead" && entry.record.lastError === WITHDRAWN_NOTIFICATION_ERROR;
      if (entry !== undefined && (entry.record.state === "pending" || withdrawn)) {
        setRecord(entry, patched(entry.record, { state: "delivered", code: "", link: "", deliveredAt: at.toISOString(), leasedUntil: undefined, retryAt: undefined }));
      }
      return Promise.resolve();
    },
    markFailed(id, failure: DeliveryFailure) {
      // A report from a lease that is no longer the notification's changes nothing (see `DeliveryFailure.leasedUntil`).
      if (!holdsLease(outbox.get(id)?.record, failure.leasedUntil)) return Promise.resolve(false);
      const recorded = updatePending(id, (record) => {
        const failed = { attempts: record.attempts + 1, failedAt: failure.at.toISOString(), lastError: failure.error, leasedUntil: undefined };
        // A dead notification will never be sent: its plain code and link go, as on delivery.
        return failure.retryAt === undefined
          ? { ...failed, state: "dead", code: "", link: "", retryAt: undefined }
          : { ...failed, retryAt: failure.retryAt.toISOString() };
      });
      return Promise.resolve(recorded);
    },
  };

  const view = {
    events: (): readonly StoredEvent[] => structuredClone(events),
    claims: (): readonly UniqueClaim[] => [...claims.values()].map(copyClaim),
    notifications: (): readonly NotificationRecord[] => [...outbox.values()].map((entry) => ({ ...entry.record })),
  };

  return {
    directory: memoryDirectory(seed),
    userLog,
    outbox: notificationOutbox,
    ...view,
    snapshot: () => ({ events: view.events(), claims: view.claims(), notifications: view.notifications() }),
  };
}
