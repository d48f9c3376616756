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
import type { SqlDatabase } from "./sql-database.js";
import * as sql from "./statements.js";

/** A `Storage` on PostgreSQL's SQL, plus what a host needs to fill and inspect it. */
export interface SqlStore extends Storage {
  /** Creates or replaces an organization, its domains (in the order given) and its policy. */
  upsertOrganization(organization: Organization): Promise<void>;
  /** Creates or replaces an identity provider; its organization must exist. */
  upsertIdentityProvider(provider: IdentityProvider): Promise<void>;
  /** Every event, claim and notification, each in writing order: for tests and inspection, not for big tables. */
  snapshot(): Promise<StorageSnapshot>;
}

function sameClaim(a: UniqueClaim, b: UniqueClaim): boolean {
  return a.kind === b.kind && a.scope === b.scope && a.key === b.key;
}

/** The first of `wanted` (in order) that `won` does not account for, each won claim counting once. */
function firstMissing(wanted: readonly UniqueClaim[], won: readonly UniqueClaim[]): UniqueClaim | undefined {
  const left = [...won];
  for (const claim of wanted) {
    const index = left.findIndex((candidate) => sameClaim(candidate, claim));
    if (index < 0) return claim;
    left.splice(index, 1);
  }
  return undefined;
}

/**
 * A fixed order for claim inserts, so two writers wanting overlapping claims lock them in the same
 * order and wait for each other instead of deadlocking.
 */
function lockOrder(claims: readonly UniqueClaim[]): UniqueClaim[] {
  const text = (claim: UniqueClaim): string => JSON.stringify([claim.kind, claim.scope, claim.key]);
  return [...claims].sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

function toJsonClaims(claims: readonly UniqueClaim[]): string {
  return JSON.stringify(claims.map(({ kind, scope, key }) => ({ kind, scope, key })));
}

export function sqlStore(db: SqlDatabase): SqlStore {
  async function appendUser(write: UserWrite): Promise<AppendOutcome> {
    const claims = lockOrder(write.claims);
    return db.transaction(async (tx): Promise<AppendOutcome> => {
      const won = await tx.query(sql.appendUserSql, [
        toJsonClaims(claims),
        JSON.stringify(write.events),
        JSON.stringify(write.notifications),
        write.userId,
      ]);
      const conflict = firstMissing(write.claims, won.rows.map(toClaim));
      if (conflict === undefined) return { ok: true };
      await tx.rollback();
      return { ok: false, conflict: { kind: conflict.kind, scope: conflict.scope, key: conflict.key } };
    });
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
    async findHeldClaims(claims) {
      if (claims.length === 0) return [];
      const held = (await db.query(sql.heldClaimsSql, [toJsonClaims(claims)])).rows.map(toClaim);
      // Answer in the order asked, whatever order the join produced.
      return claims.filter((claim) => held.some((candidate) => sameClaim(candidate, claim))).map(toClaim);
    },
    appendUser,
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
        await tx.query(sql.upsertOrganizationSql, [organization.id, policy]);
        await tx.query(sql.deleteDomainsSql, [organization.id]);
        await tx.query(sql.insertDomainsSql, [organization.id, JSON.stringify(organization.domains)]);
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
