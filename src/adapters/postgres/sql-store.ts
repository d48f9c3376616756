import {
  StorageUnavailableError,
  type AppendOutcome,
  type Directory,
  type IdentityProvider,
  type Organization,
  type Outbox,
  type Storage,
  type StorageSnapshot,
  type UserAppend,
  type UserLog,
} from "../../ports/storage.js";
import { coalesced } from "../../shared/coalesced.js";
import { claimOrStreamRefusal, findHeldClaims, lastSequence, notificationRefusal, toJsonClaims } from "./append-refusal.js";
import { appendBatch, ownWrites } from "./batch-write.js";
import { findClaimHolders } from "./claim-holders.js";
import { groupedNewUserWrites } from "./grouped-writes.js";
import { queryUsersStatement } from "./listing-query.js";
import { listingParams } from "./listing-sql.js";
import { newUserParams } from "./new-user-rows.js";
import { toClaim, toEvent, toIdentityProvider, toListing, toOrganization, toPending, toRecord } from "./rows.js";
import { undoableQuery, type SqlDatabase } from "./sql-database.js";
import * as sql from "./statements.js";
import { errorCode } from "../../shared/error-code.js";

/** The SQL user log always has the batch write: one transaction per batch. */
export interface SqlUserLog extends UserLog {
  appendNewUsers(appends: readonly UserAppend[]): Promise<readonly AppendOutcome[]>;
}

/** A `Storage` on PostgreSQL's SQL, plus what a host needs to fill and inspect it. */
export interface SqlStore extends Storage {
  readonly userLog: SqlUserLog;
  /** Creates or replaces an organization, its domains (in the order given) and its policy. */
  upsertOrganization(organization: Organization): Promise<void>;
  /** Creates or replaces an identity provider; its organization must exist. */
  upsertIdentityProvider(provider: IdentityProvider): Promise<void>;
  /** Every event, claim and notification, each in writing order: for tests and inspection, not for big tables. */
  snapshot(): Promise<StorageSnapshot>;
}

/**
 * Deadlock and serialization failures. Claims are taken in one global order, so none is expected;
 * should the database report one anyway, it has rolled the transaction back, and it can run again.
 */
function isRetryable(error: unknown): boolean {
  const code = errorCode(error);
  return code === "40P01" || code === "40001";
}

async function retryingConflicts<T>(work: () => Promise<T>, alsoRetry: (error: unknown) => boolean = () => false, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !(isRetryable(error) || alsoRetry(error))) throw error;
    }
  }
}

/** The SQLSTATE `human_users_claim_held()` raises: the append was refused, the store reads why. */
function isRefused(error: unknown): boolean {
  return errorCode(error) === "HU409";
}

/** Whether `error` is a unique violation (23505) of one of `constraints`. */
function violatesOneOf(error: unknown, constraints: ReadonlySet<unknown>): boolean {
  return errorCode(error) === "23505" && constraints.has((error as { constraint?: unknown }).constraint);
}

/** The unique indexes a new user's append meets when it cannot be written as it is (see statements.ts): a claim is held, or the stream exists. */
const newUserRefusals: ReadonlySet<unknown> = new Set(["human_users_claims_unique", "human_users_events_user_sequence", "human_users_listings_pkey"]);

/** The indexes a new user's write meets when its stream was created meanwhile. */
const streamTaken: ReadonlySet<unknown> = new Set(["human_users_events_user_sequence", "human_users_listings_pkey"]);

/** The index a notification meets whose id a stored one (or another of the same statement) has. */
const notificationIdTaken: ReadonlySet<unknown> = new Set(["human_users_outbox_id_key"]);

/** The index another append meets when it took the same place in the stream first. */
const sequenceTaken: ReadonlySet<unknown> = new Set(["human_users_events_user_sequence"]);

function appendParams(append: UserAppend): unknown[] {
  return [
    toJsonClaims(append.claims),
    JSON.stringify(append.events),
    JSON.stringify(append.notifications),
    append.userId,
    append.expectedSequence,
    toJsonClaims(append.releasedClaims ?? []),
    JSON.stringify(append.listing),
    append.leaseNotificationsUntil?.toISOString() ?? null,
    JSON.stringify(append.withdrawnNotificationKinds ?? []),
  ];
}

/** A new user's append (nothing given up): the lean statement, without the notifications' part when there are none. */
function isNewUser(append: UserAppend): boolean {
  return append.expectedSequence === 0 && (append.releasedClaims === undefined || append.releasedClaims.length === 0);
}

function newUserStatement(append: UserAppend): { readonly text: string; readonly params: unknown[] } {
  const params: unknown[] = [toJsonClaims(append.claims), JSON.stringify(append.events), append.userId, ...listingParams(append.listing)];
  if (append.notifications.length === 0) return { text: sql.newUserAppendSql, params };
  params.push(JSON.stringify(append.notifications), append.leaseNotificationsUntil?.toISOString() ?? null);
  return { text: sql.newUserAppendWithNotificationsSql, params };
}

/** New users' appends as one statement (see newUsersAppendSql), notifications leased as each append asks. */
function newUsersStatement(appends: readonly UserAppend[]): { readonly text: string; readonly params: unknown[] } {
  const rows = newUserParams(appends);
  const params: unknown[] = [...rows.claims, ...rows.events, ...rows.listings];
  if (rows.notificationCount === 0) return { text: sql.newUsersAppendSql, params };
  params.push(...rows.notifications, rows.leases);
  return { text: sql.newUsersAppendWithNotificationsSql, params };
}

/**
 * A group of new users' appends the database refused as a whole: each one, alone, reads why (or is
 * written). Not only a claim held or a stream taken: whatever one user's write did wrong must not
 * fail the others. A group cancelled past the statement timeout, confirmed by the server, wrote
 * nothing either: one of its users may be waiting on another transaction's lock, and alone the
 * others are written. Only the database's own failure (unreachable, or out of time with the
 * outcome unknown) fails them all.
 */
function isGroupRefusal(error: unknown): boolean {
  return !(error instanceof StorageUnavailableError) || error.nothingWritten;
}

/** Waits before each new try of a delivery report whose connection failed: within any lease. */
const REPORT_RETRY_MS = [50, 250, 1_000] as const;

/**
 * Records deliveries, trying again when the connection fails (terminated, reset, out of time): the
 * mails went out, and a report given up would leave them to be sent again once their lease ends.
 * Marking is idempotent, so a report that did land before its connection failed marks nothing more.
 */
async function sendReports(db: SqlDatabase, json: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.query(sql.deliveredSql, [json]);
      return;
    } catch (error) {
      const wait = REPORT_RETRY_MS[attempt];
      if (!(error instanceof StorageUnavailableError) || wait === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** How the SQL store writes. */
export interface SqlStoreOptions {
  /**
   * At most this many new users' writes on their way to the database at once (default 2); those
   * arriving meanwhile wait, and go together as one statement when a place is free. `Infinity`:
   * every write goes alone at once, as many at a time as the driver allows.
   */
  readonly maxWritesInFlight?: number;
}

/** The default of `maxWritesInFlight`. */
export const DEFAULT_MAX_WRITES_IN_FLIGHT = 2;

/** Users written together in one grouped statement, at most. */
const MAX_GROUP = 100;

/** A write on its way longer than this (waiting on a lock, say) stops holding back the writes behind it. */
const SLOW_WRITE_MS = 25;

/** A written append's answer: its notifications, when it leased them to the writer. */
function written(append: UserAppend): AppendOutcome {
  if (append.leaseNotificationsUntil === undefined) return { ok: true };
  return { ok: true, leased: append.notifications.map((notification) => ({ ...notification, attempts: 0 })) };
}

export function sqlStore(db: SqlDatabase, options: SqlStoreOptions = {}): SqlStore {
  const inFlight = options.maxWritesInFlight ?? DEFAULT_MAX_WRITES_IN_FLIGHT;
  if (!(inFlight === Infinity || (Number.isSafeInteger(inFlight) && inFlight >= 1))) {
    throw new RangeError(`maxWritesInFlight must be a whole number of at least 1, or Infinity; got ${String(inFlight)}`);
  }
  // Inside a host's transaction every statement shares one connection and one fate: nothing to group.
  const groups =
    db.savepoint === undefined && inFlight !== Infinity
      ? groupedNewUserWrites(
          {
            writeGroup: async (appends) => {
              const { text, params } = newUsersStatement(appends);
              await db.query(text, params);
            },
            isRefusal: isGroupRefusal,
          },
          { inFlight, maxGroup: MAX_GROUP, slowAfterMs: SLOW_WRITE_MS },
        )
      : undefined;
  // Delivery reports go in statements of their own, one on its way at a time, with every report
  // given meanwhile. Riding in the new users' write statements, as they once did, cost the
  // database more (see bench/README.md, fourteenth session).
  const reportDelivered = coalesced<{ readonly id: string; readonly at: string }>((reports) => sendReports(db, JSON.stringify(reports)));

  /** A lost race for the user's stream, with the sequence the stream has now. */
  async function lostRace(userId: string): Promise<AppendOutcome> {
    return { ok: false, reason: "sequence-conflict", actualSequence: await lastSequence(db, userId) };
  }

  async function append(request: UserAppend): Promise<AppendOutcome> {
    if (groups === undefined || !isNewUser(request)) return appendAlone(request);
    const entry = await groups.enter(request);
    if (entry.outcome === "written") return written(request);
    try {
      return await appendAlone(request);
    } finally {
      entry.done();
    }
  }

  async function appendAlone(request: UserAppend): Promise<AppendOutcome> {
    const newUser = isNewUser(request);
    // A refusal found to have gone away when its reason is read (a claim given up meanwhile) is
    // tried again; the loop only bounds a store that keeps answering so.
    // Inside a host's transaction a serialization failure recurs on the same snapshot: it is a lost
    // race for the runner, which decides again and at last answers 10 (the host retries its transaction).
    const held = db.savepoint !== undefined;
    const { text, params } = newUser ? newUserStatement(request) : { text: sql.appendSql, params: appendParams(request) };
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await retryingConflicts(() => undoableQuery(db, text, params), undefined, held ? 1 : 3);
        return written(request);
      } catch (error) {
        // A new user's append may meet the stream before its claims: why is read in the port's order.
        if ((!newUser && violatesOneOf(error, sequenceTaken)) || (held && isRetryable(error))) return lostRace(request.userId);
        const idTaken = violatesOneOf(error, notificationIdTaken);
        if (!idTaken && !isRefused(error) && !(newUser && violatesOneOf(error, newUserRefusals))) throw error;
        // The port's order: the claims and the stream first, the notifications' ids last.
        const refusal = (await claimOrStreamRefusal(db, request)) ?? (idTaken ? await notificationRefusal(db, request) : undefined);
        if (refusal !== undefined) return refusal;
        // A unique index sees rows a host's REPEATABLE READ snapshot does not: the winner of the
        // race is invisible, and trying again on the same snapshot meets it again. A lost race, as
        // a serialization failure is (`ON CONFLICT` raises one there).
        if (held) return lostRace(request.userId);
      }
    }
    throw new Error("human-users: the append was refused, but nothing that refuses it is there any more");
  }

  /**
   * A batch of new users. Usually nobody holds any of its claims (an import looks them up before
   * it writes), so it goes first as the plain all-or-nothing statement grouped writes use: one
   * statement and its own transaction, without the speculative insertion of `ON CONFLICT` (about a
   * third of what the claims cost the database). Refused (a claim taken meanwhile, two writes of
   * the batch wanting one), it goes the careful way: one transaction that answers each write as if
   * written one after another (see batch-write.ts).
   */
  async function appendNewUsersAtOnce(appends: readonly UserAppend[]): Promise<readonly AppendOutcome[]> {
    if (ownWrites(appends)) {
      try {
        const { text, params } = newUsersStatement(appends);
        // Under a savepoint in a host's transaction: refused, it must undo only itself.
        await undoableQuery(db, text, params);
        return appends.map(written);
      } catch (error) {
        if (!isGroupRefusal(error)) throw error;
      }
    }
    // A stream another writer created after the batch looked for it meets its unique index, as
    // does a notification id another writer stored meanwhile: the batch is tried again, and then
    // answers that write as a conflict.
    return retryingConflicts(
      () => db.transaction((tx) => appendBatch(tx, appends)),
      (error) => violatesOneOf(error, streamTaken) || violatesOneOf(error, notificationIdTaken),
    );
  }

  const userLog: SqlUserLog = {
    findHeldClaims: (claims) => findHeldClaims(db, claims),
    append,
    appendNewUsers(appends) {
      if (appends.length === 0) return Promise.resolve([]);
      if (appends.some((request) => request.expectedSequence !== 0)) return Promise.reject(new Error("appendNewUsers takes new users only"));
      return appendNewUsersAtOnce(appends);
    },
    loadEvents: async (userId) => (await db.query(sql.loadEventsSql, [userId])).rows.map(toEvent),
    async findClaimHolder(claim) {
      const row = (await db.query(sql.claimHolderSql, [claim.kind, claim.scope, claim.key])).rows[0] as { user_id: string } | undefined;
      return row?.user_id;
    },
    findClaimHolders: (claims) => findClaimHolders(db, claims),
    async queryUsers(query) {
      const statement = queryUsersStatement(query);
      const rows = (await db.query(statement.text, statement.params)).rows as readonly { total: unknown; user_id: string | null }[];
      const totalResult = Number(rows[0]?.total ?? 0);
      return { totalResult, users: rows.filter((row) => row.user_id !== null).map(toListing) };
    },
  };

  async function findOne<T>(text: string, param: string, map: (row: unknown) => T): Promise<T | undefined> {
    const result = await db.query(text, [param]);
    const row = result.rows[0];
    return row === undefined ? undefined : map(row);
  }

  const directory: Directory = {
    findOrganization: (id) => findOne(sql.organizationByIdSql, id, toOrganization),
    findOrganizationByDomain: (domain) => findOne(sql.organizationByDomainSql, domain, toOrganization),
    findIdentityProvider: (id) => findOne(sql.identityProviderSql, id, toIdentityProvider),
  };

  const outbox: Outbox = {
    async lease(request) {
      if (request.limit <= 0 || request.ids?.length === 0) return [];
      const window = [request.now.toISOString(), request.leaseUntil.toISOString(), request.limit];
      const leased =
        request.ids === undefined
          ? await db.query(sql.leaseDueSql, window)
          : await db.query(sql.leaseIdsSql, [...window, JSON.stringify(request.ids)]);
      return leased.rows.map(toPending);
    },
    // Unfenced: a mail that went out was delivered, whoever reports it (see `Outbox.markDelivered`).
    markDelivered: (id, at) => reportDelivered({ id, at: at.toISOString() }),
    async markFailed(id, failure) {
      const recorded = await db.query(sql.failedSql, [id, failure.at.toISOString(), failure.error, failure.retryAt?.toISOString() ?? null, failure.leasedUntil?.toISOString() ?? null]);
      return recorded.rows.length > 0;
    },
  };

  return {
    directory,
    userLog,
    outbox,
    durable: true,
    async upsertOrganization(organization) {
      await db.transaction(async (tx) => {
        const policy = organization.policy === undefined ? null : JSON.stringify(organization.policy);
        const domains = JSON.stringify(organization.domains.map(({ domain, verified, primary }) => ({ domain, verified, ...(primary === true ? { primary } : {}) })));
        await tx.query(sql.upsertOrganizationSql, [organization.id, policy, domains]);
        await tx.query(sql.deleteDomainsSql, [organization.id]);
        await tx.query(sql.insertDomainsSql, [organization.id, domains]);
      });
    },
    async upsertIdentityProvider(provider) {
      await db.query(sql.upsertIdentityProviderSql, [provider.id, provider.orgId ?? null]);
    },
    async snapshot() {
      return {
        events: (await db.query(sql.allEventsSql)).rows.map(toEvent),
        claims: (await db.query(sql.allClaimsSql)).rows.map(toClaim),
        notifications: (await db.query(sql.allNotificationsSql)).rows.map(toRecord),
      };
    },
  };
}
