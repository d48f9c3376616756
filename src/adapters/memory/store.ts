import type {
  AppendOutcome,
  DeliveryFailure,
  IdentityProvider,
  LeaseRequest,
  NotificationRecord,
  Organization,
  PendingNotification,
  Storage,
  StorageSnapshot,
  StoredEvent,
  UniqueClaim,
  UserWrite,
} from "../../ports/storage.js";

export interface MemoryStoreSeed {
  readonly organizations?: readonly Organization[];
  readonly identityProviders?: readonly IdentityProvider[];
}

/**
 * The in-memory store: a `Storage` plus read-only views of everything written, for tests.
 * Each view returns copies in writing order; changing them changes nothing in the store.
 */
export interface MemoryStore extends Storage {
  /** The batch write is always there on the memory store. */
  appendUsers(writes: readonly UserWrite[]): Promise<readonly AppendOutcome[]>;
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

function claimKey(claim: UniqueClaim): string {
  // The scope's length keeps the parts apart whatever characters they contain (kind has no "|").
  return `${claim.kind}|${claim.scope.length}|${claim.scope}|${claim.key}`;
}

function copyClaim(claim: UniqueClaim): UniqueClaim {
  return { kind: claim.kind, scope: claim.scope, key: claim.key };
}

/** Changes to a record; an `undefined` member removes that member. */
type RecordPatch = { readonly [K in keyof NotificationRecord]?: NotificationRecord[K] | undefined };

function patched(record: NotificationRecord, patch: RecordPatch): NotificationRecord {
  const merged: Record<string, unknown> = { ...record, ...patch };
  for (const [name, member] of Object.entries(merged)) if (member === undefined) delete merged[name];
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

function isDue(record: NotificationRecord, now: Date): boolean {
  if (record.state !== "pending") return false;
  const nowMs = now.getTime();
  const leaseOver = record.leasedUntil === undefined || Date.parse(record.leasedUntil) <= nowMs;
  const retryDue = record.retryAt === undefined || Date.parse(record.retryAt) <= nowMs;
  return leaseOver && retryDue;
}

/**
 * A deep copy of JSON data (what events, organizations and providers are): several times cheaper
 * than structuredClone for the small objects written on every request.
 */
function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) copy[key] = copyJson(member);
  return copy as T;
}

/** The first of `claims` already in `held` or repeated within `claims` itself. */
function firstConflict(claims: readonly UniqueClaim[], held: ReadonlyMap<string, unknown>): UniqueClaim | undefined {
  const seen = new Set<string>();
  for (const claim of claims) {
    const key = claimKey(claim);
    if (held.has(key) || seen.has(key)) return claim;
    seen.add(key);
  }
  return undefined;
}

/**
 * A `Storage` held in process memory: for tests and for embedding where durability is not needed.
 * Seeded once with organizations and identity providers (copied; later changes to the seed are not seen).
 */
export function memoryStore(seed: MemoryStoreSeed = {}): MemoryStore {
  const organizations = new Map<string, Organization>((seed.organizations ?? []).map((org) => [org.id, structuredClone(org)]));
  const providers = new Map<string, IdentityProvider>((seed.identityProviders ?? []).map((idp) => [idp.id, structuredClone(idp)]));
  const events: StoredEvent[] = [];
  const eventsByUser = new Map<string, StoredEvent[]>();
  const eventKeys = new Set<string>();
  const claims = new Map<string, UniqueClaim>();
  const outbox = new Map<string, OutboxEntry>();

  /** Applies `change` to a pending notification; delivered and dead ones never change again. */
  function updatePending(id: string, change: (record: NotificationRecord) => RecordPatch): void {
    const entry = outbox.get(id);
    if (entry === undefined || entry.record.state !== "pending") return;
    entry.record = patched(entry.record, change(entry.record));
  }

  function appendUser(write: UserWrite): Promise<AppendOutcome> {
    // Everything is checked before anything is written, so a refused write leaves no trace.
    const conflict = firstConflict(write.claims, claims);
    if (conflict !== undefined) return Promise.resolve({ ok: false, conflict: copyClaim(conflict) });
    const newEventKeys = write.events.map((event) => `${event.sequence}:${event.aggregateId}`);
    if (newEventKeys.some((key) => eventKeys.has(key)) || new Set(newEventKeys).size !== newEventKeys.length) {
      return Promise.reject(new Error("memoryStore: an event with this user and sequence already exists"));
    }
    if (write.notifications.some((notification) => outbox.has(notification.id))) {
      return Promise.reject(new Error("memoryStore: a notification with this id already exists"));
    }
    for (const claim of write.claims) claims.set(claimKey(claim), copyClaim(claim));
    for (const key of newEventKeys) eventKeys.add(key);
    for (const event of write.events) {
      const stored = copyJson(event);
      events.push(stored);
      const stream = eventsByUser.get(stored.aggregateId);
      if (stream === undefined) eventsByUser.set(stored.aggregateId, [stored]);
      else stream.push(stored);
    }
    for (const notification of write.notifications) {
      outbox.set(notification.id, { record: { ...notification, attempts: 0, state: "pending" }, order: outbox.size });
    }
    return Promise.resolve({ ok: true });
  }

  /** Checked for the whole batch first, so that a batch that rejects writes none of its writes. */
  async function appendUsers(writes: readonly UserWrite[]): Promise<readonly AppendOutcome[]> {
    const newEventKeys = writes.flatMap((write) => write.events.map((event) => `${event.sequence}:${event.aggregateId}`));
    if (newEventKeys.some((key) => eventKeys.has(key)) || new Set(newEventKeys).size !== newEventKeys.length) {
      throw new Error("memoryStore: an event with this user and sequence already exists");
    }
    const newNotificationIds = writes.flatMap((write) => write.notifications.map((notification) => notification.id));
    if (newNotificationIds.some((id) => outbox.has(id)) || new Set(newNotificationIds).size !== newNotificationIds.length) {
      throw new Error("memoryStore: a notification with this id already exists");
    }
    const outcomes: AppendOutcome[] = [];
    for (const write of writes) outcomes.push(await appendUser(write));
    return outcomes;
  }

  function leaseNotifications(request: LeaseRequest): Promise<readonly PendingNotification[]> {
    // Named ids are looked up, not searched for: delivery right after a write stays O(1).
    const candidates =
      request.ids === undefined
        ? outbox.values()
        : request.ids
            .map((id) => outbox.get(id))
            .filter((entry) => entry !== undefined)
            .sort((a, b) => a.order - b.order);
    const leased: PendingNotification[] = [];
    for (const entry of candidates) {
      if (leased.length >= request.limit) break;
      if (!isDue(entry.record, request.now)) continue;
      entry.record = { ...entry.record, leasedUntil: request.leaseUntil.toISOString() };
      leased.push(pendingOf(entry.record));
    }
    return Promise.resolve(leased);
  }

  function markNotificationDelivered(id: string, at: Date): Promise<void> {
    updatePending(id, () => ({ state: "delivered", code: "", link: "", deliveredAt: at.toISOString(), leasedUntil: undefined, retryAt: undefined }));
    return Promise.resolve();
  }

  function markNotificationFailed(id: string, failure: DeliveryFailure): Promise<void> {
    updatePending(id, (record) => {
      const failed = { attempts: record.attempts + 1, failedAt: failure.at.toISOString(), lastError: failure.error, leasedUntil: undefined };
      // A dead notification will never be sent: its plain code and link go, as on delivery.
      return failure.retryAt === undefined
        ? { ...failed, state: "dead", code: "", link: "", retryAt: undefined }
        : { ...failed, retryAt: failure.retryAt.toISOString() };
    });
    return Promise.resolve();
  }

  const view = {
    events: (): readonly StoredEvent[] => structuredClone(events),
    claims: (): readonly UniqueClaim[] => [...claims.values()].map(copyClaim),
    notifications: (): readonly NotificationRecord[] => [...outbox.values()].map((entry) => ({ ...entry.record })),
  };

  return {
    findOrganization: (id) => Promise.resolve(copyJson(organizations.get(id))),
    findOrganizationByDomain: (domain) => {
      const wanted = domain.toLowerCase();
      const found = [...organizations.values()].find((org) =>
        org.domains.some((entry) => entry.verified && entry.domain.toLowerCase() === wanted),
      );
      return Promise.resolve(copyJson(found));
    },
    findIdentityProvider: (id) => Promise.resolve(copyJson(providers.get(id))),
    findHeldClaims: (wanted) => Promise.resolve(wanted.filter((claim) => claims.has(claimKey(claim))).map(copyClaim)),
    appendUser,
    appendUsers,
    loadEvents: (userId) =>
      Promise.resolve(structuredClone(eventsByUser.get(userId) ?? []).sort((a, b) => a.sequence - b.sequence)),
    leaseNotifications,
    markNotificationDelivered,
    markNotificationFailed,
    ...view,
    snapshot: () => ({ events: view.events(), claims: view.claims(), notifications: view.notifications() }),
  };
}
