import type {
  AppendOutcome,
  IdentityProvider,
  Organization,
  Storage,
  StorageSnapshot,
  UniqueClaim,
  UserWrite,
} from "../../ports/storage.js";
import { toClaim, toEvent, toIdentityProvider, toOrganization, toPending, toRecord } from "./rows.js";
import { appendBatch } from "./batch-write.js";
import type { SqlDatabase } from "./sql-database.js";
import * as sql from "./statements.js";

/** A `Storage` on PostgreSQL's SQL, plus what a host needs to fill and inspect it. */
export interface SqlStore extends Storage {
  /** Creates or replaces an organization, its domains (in the order given) and its policy. */
  upsertOrganization(organization: Organization): Promise<void>;
  /** Creates or replaces an identity provider; its organization must exist. */
  upsertIdentityProvider(provider: IdentityProvider): Promise<void>;
  /** The batch write is always there on SQL stores: one transaction per batch. */
  appendUsers(writes: readonly UserWrite[]): Promise<readonly AppendOutcome[]>;
  /** Every event, claim and notification, each in writing order: for tests and inspection, not for big tables. */
  snapshot(): Promise<StorageSnapshot>;
}

function sameClaim(a: UniqueClaim, b: UniqueClaim): boolean {
  return a.kind === b.kind && a.scope === b.scope && a.key === b.key;
}

function toJsonClaims(claims: readonly UniqueClaim[]): string {
  return JSON.stringify(claims.map(({ kind, scope, key }) => ({ kind, scope, key })));
}

/**
 * Deadlock and serialization failures. Claims are locked in one global order, so none is expected;
 * should the database report one anyway, it has rolled the transaction back, and it can run again.
 */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

async function retryingConflicts<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
    }
  }
}

/** The SQLSTATE `human_users_claim_held()` raises. */
function isClaimHeld(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "HU409";
}

/** The first claim that `claims` repeats, if any: a write cannot hold one claim twice. */
function firstRepeated(claims: readonly UniqueClaim[]): UniqueClaim | undefined {
  return claims.find((claim, index) => claims.findIndex((other) => sameClaim(other, claim)) < index);
}

function writeParams(write: UserWrite): unknown[] {
  return [toJsonClaims(write.claims), JSON.stringify(write.events), JSON.stringify(write.notifications), write.userId];
}

function refused(conflict: UniqueClaim): AppendOutcome {
  return { ok: false, conflict: { kind: conflict.kind, scope: conflict.scope, key: conflict.key } };
}

export function sqlStore(db: SqlDatabase): SqlStore {
  async function findHeldClaims(claims: readonly UniqueClaim[]): Promise<readonly UniqueClaim[]> {
    if (claims.length === 0) return [];
    const held = (await db.query(sql.heldClaimsSql, [toJsonClaims(claims)])).rows.map(toClaim);
    // Answer in the order asked, whatever order the join produced.
    return claims.filter((claim) => held.some((candidate) => sameClaim(candidate, claim))).map(toClaim);
  }

  /** The claim to name after the write was refused: the first held one, in the write's order. */
  async function conflictOf(write: UserWrite): Promise<UniqueClaim | undefined> {
    return (await findHeldClaims(write.claims))[0] ?? firstRepeated(write.claims);
  }

  async function appendUser(write: UserWrite): Promise<AppendOutcome> {
    // Claims are never given up once committed, so a refused write finds its conflict held; the
    // loop only guards against a store that somehow answers otherwise.
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await retryingConflicts(() => db.query(sql.appendUserSql, writeParams(write)));
        return { ok: true };
      } catch (error) {
        if (!isClaimHeld(error)) throw error;
        const conflict = await conflictOf(write);
        if (conflict !== undefined) return refused(conflict);
      }
    }
    throw new Error("human-users: the write was refused for a held claim, but none of its claims is held");
  }

  /** One transaction for the batch, usually one statement (see batch-write.ts). */
  function appendUsers(writes: readonly UserWrite[]): Promise<readonly AppendOutcome[]> {
    if (writes.length === 0) return Promise.resolve([]);
    return retryingConflicts(() => db.transaction((tx) => appendBatch(tx, writes)));
  }

  async function findOne<T>(text: string, param: string, map: (row: unknown) => T): Promise<T | undefined> {
    const result = await db.query(text, [param]);
    const row = result.rows[0];
    return row === undefined ? undefined : map(row);
  }

  return {
    findOrganization: (id) => findOne(sql.organizationByIdSql, id, toOrganization),
    findOrganizationByDomain: (domain) => findOne(sql.organizationByDomainSql, domain, toOrganization),
    findIdentityProvider: (id) => findOne(sql.identityProviderSql, id, toIdentityProvider),
    findHeldClaims,
    appendUser,
    appendUsers,
    loadEvents: async (userId) => (await db.query(sql.loadEventsSql, [userId])).rows.map(toEvent),
    async leaseNotifications(request) {
      if (request.limit <= 0 || request.ids?.length === 0) return [];
      const window = [request.now.toISOString(), request.leaseUntil.toISOString(), request.limit];
      const leased =
        request.ids === undefined
          ? await db.query(sql.leaseDueSql, window)
          : await db.query(sql.leaseIdsSql, [...window, JSON.stringify(request.ids)]);
      return leased.rows.map(toPending);
    },
    async markNotificationDelivered(id, at) {
      await db.query(sql.deliveredSql, [id, at.toISOString()]);
    },
    async markNotificationFailed(id, failure) {
      await db.query(sql.failedSql, [id, failure.at.toISOString(), failure.error, failure.retryAt?.toISOString() ?? null]);
    },
    async upsertOrganization(organization) {
      await db.transaction(async (tx) => {
        const policy = organization.policy === undefined ? null : JSON.stringify(organization.policy);
        await tx.query(sql.upsertOrganizationSql, [organization.id, policy, JSON.stringify(organization.domains.map(({ domain, verified }) => ({ domain, verified })))]);
        await tx.query(sql.deleteDomainsSql, [organization.id]);
        await tx.query(sql.insertDomainsSql, [organization.id, JSON.stringify(organization.domains.map(({ domain, verified }) => ({ domain, verified })))]);
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
