// Migration 5 gives every passkey credential verified before it (release 0.2.0 took no claim for
// them) the claim a registration takes now, so that such a credential cannot be registered to
// another user afterwards. A credential 0.2.0 let two users register stays with the first.
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { runMigrations } from "../../src/adapters/postgres/migrate.js";
import { migrations } from "../../src/adapters/postgres/index.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import { pgliteDatabase } from "../../src/adapters/pglite/pglite-store.js";

describe("migration 5: claims for passkeys verified before it", () => {
  it("takes a claim for each verified credential, the first registration's when two users share one, and leaves pending ones alone", async () => {
    const db = new PGlite();
    try {
      await runMigrations(pgliteDatabase(db), migrations.filter((migration) => migration.version <= 4));
      const verified = (userId: string, sequence: number, keyId: string) =>
        db.query("INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ($1, $2, 'user.human.passwordless.token.verified', 'acme', now(), $3)", [
          userId,
          sequence,
          JSON.stringify({ webAuthNTokenId: `t-${userId}-${sequence}`, keyId }),
        ]);
      await verified("ann", 1, "key-a");
      await verified("bob", 1, "key-b");
      await verified("bob", 2, "key-a");
      await db.query("INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ('cy', 1, 'user.human.passwordless.token.added', 'acme', now(), '{\"webAuthNTokenId\":\"t-cy\"}')");

      expect(await migratePglite(db)).toEqual({ applied: migrations.filter((migration) => migration.version > 4).map((migration) => migration.version), foldedTogether: [] });
      const claims = await db.query("SELECT kind, scope, key, user_id FROM human_users_claims ORDER BY key");
      expect(claims.rows).toEqual([
        { kind: "passkey", scope: "", key: "key-a", user_id: "ann" },
        { kind: "passkey", scope: "", key: "key-b", user_id: "bob" },
      ]);
      expect(await pgliteStore({ db }).userLog.findClaimHolder({ kind: "passkey", scope: "", key: "key-a" })).toBe("ann");
    } finally {
      await db.close();
    }
  });
});
