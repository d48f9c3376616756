// A database set up from the shipped SQL files, with users written while the host's own tool ran
// them, then taken over by migratePglite: the steps in code the files could not run (the listing
// backfill, the name folds) run then, so no user stays out of listUsers.
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { migrations } from "../../src/adapters/postgres/index.js";
import { migrationFileText } from "../../src/adapters/postgres/migrations.js";
import { migratePglite, pgliteStore } from "../../src/adapters/pglite/index.js";
import { listUsers } from "../../src/index.js";
import { instanceAdmin, testPorts } from "../operations/support/ports.js";

describe("migratePglite over the shipped SQL files", () => {
  it("runs the code steps the files could not, for users written between the files", async () => {
    const db = new PGlite();
    try {
      const sorted = [...migrations].sort((a, b) => a.version - b.version);
      for (const migration of sorted.filter((candidate) => candidate.version <= 2)) await db.exec(`BEGIN; ${migrationFileText(migration)} COMMIT;`);
      // A user the host's application wrote at version 2 (no listings yet), with a name beyond ASCII.
      await db.query("INSERT INTO human_users_claims (kind, scope, key, user_id) VALUES ('user_id', '', 'u1', 'u1'), ('username', '', 'ann', 'u1')");
      await db.query("INSERT INTO human_users_events (aggregate_id, sequence, type, org_id, created_at, payload) VALUES ('u1', 1, 'user.human.added', 'acme', now(), $1)", [
        JSON.stringify({ userName: "ann", firstName: "Ann", lastName: "Straße", email: "ann@acme.test" }),
      ]);
      for (const migration of sorted.filter((candidate) => candidate.version > 2)) await db.exec(`BEGIN; ${migrationFileText(migration)} COMMIT;`);

      expect(await migratePglite(db)).toEqual({ applied: [2, 3, 7], foldedTogether: [] });
      expect((await db.query("SELECT user_id, given_name_folded, family_name_folded FROM human_users_listings")).rows).toEqual([
        { user_id: "u1", given_name_folded: "ann", family_name_folded: "strasse" },
      ]);
      const ports = testPorts({ storage: pgliteStore({ db }) });
      expect((await listUsers(ports, {}, { requester: instanceAdmin }))._unsafeUnwrap().result?.map((user) => user.userId)).toEqual(["u1"]);
      expect(await migratePglite(db)).toEqual({ applied: [], foldedTogether: [] });
    } finally {
      await db.close();
    }
  }, 60_000);
});
