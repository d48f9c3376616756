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
import type { SqlDatabase, SqlTransaction } from "./sql-database.js";
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

export function sqlStore(db: SqlDatabase): SqlStore {
  /** Writes one user inside `tx`; on a conflict nothing of it remains, the claims it had won included. */
  async function appendInside(tx: SqlTransaction, write: UserWrite, undo: (won: readonly UniqueClaim[]) => Promise<void>): Promise<AppendOutcome> {
    const won = await tx.query(sql.appendUserSql, [
      toJsonClaims(write.claims),
      JSON.stringify(write.events),
      JSON.stringify(write.notifications),
      write.userId,
    ]);
    const wonClaims = won.rows.map(toClaim);
    const conflict = firstMissing(write.claims, wonClaims);
    if (conflict === undefined) return { ok: true };
    await undo(wonClaims);
    return { ok: false, conflict: { kind: conflict.kind, scope: conflict.scope, key: conflict.key } };
  }

  function appendUser(write: UserWrite): Promise<AppendOutcome> {
    return retryingConflicts(() => db.transaction((tx) => appendInside(tx, write, () => tx.rollback())));
  }

  /** One transaction for the batch; a refused write gives its won claims back to the writes after it. */
  function appendUsers(writes: readonly UserWrite[]): Promise<readonly AppendOutcome[]> {
    if (writes.length === 0) return Promise.resolve([]);
    return retryingConflicts(() =>
      db.transaction(async (tx) => {
        await tx.query(sql.lockClaimsSql, [toJsonClaims(writes.flatMap((write) => write.claims))]);
        const outcomes: AppendOutcome[] = [];
        for (const write of writes) {
          const release = async (won: readonly UniqueClaim[]) => {
            if (won.length > 0) await tx.query(sql.releaseClaimsSql, [toJsonClaims(won), write.userId]);
          };
          outcomes.push(await appendInside(tx, write, release));
        }
        return outcomes;
      }),
    );
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
