// Callers create users and at once verify each address with the code just mailed. The record of a
// delivery can follow the user's next write (it is left to the last operation in flight), and that
// write makes the message dead, its code being used up. The mail went out: it must end delivered.
// Before, on PostgreSQL, about half of such mails ended dead. Needs concurrent connections, so it
// runs on the PostgreSQL server only (the contract suite checks the rule on every store).
import { describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { createHumanUser, systemClock, verifyEmail, type Mailer, type Ports } from "../../src/index.js";
import { ACME, member, testKeys } from "../operations/support/ports.js";
import { findPostgres, schemaPool } from "./databases.js";

const url = await findPostgres();

describe.skipIf(url === undefined)("a code redeemed before its mail's delivery is recorded", () => {
  it("leaves every mail that went out delivered, with ten callers creating and verifying at once", async () => {
    const schema = await schemaPool(url ?? "", "redeemed_first", 10);
    try {
      await migrate(schema.pool);
      const storage = postgresStore({ pool: schema.pool });
      await storage.upsertOrganization(ACME);
      const codes = new Map<string, string>();
      const mailer: Mailer = {
        send: (message) => {
          codes.set(message.to, message.code);
          return Promise.resolve();
        },
      };
      const ports: Ports = { storage, mailer, clock: systemClock, keys: testKeys };
      const verified = await Promise.all(
        Array.from({ length: 10 }, async (_, caller) => {
          let count = 0;
          for (let index = 0; index < 10; index++) {
            const email = `u${caller}x${index}@acme.test`;
            const created = await createHumanUser(ports, { username: `u${caller}x${index}`, profile: { givenName: "Ann", familyName: "Lee" }, email: { email } }, { requester: member });
            const verification = await verifyEmail(ports, { userId: created._unsafeUnwrap().userId, verificationCode: codes.get(email) ?? "" });
            if (verification.isOk()) count += 1;
          }
          return count;
        }),
      );
      expect(verified).toEqual(Array.from({ length: 10 }, () => 10));
      const { rows } = await schema.pool.query("SELECT state, count(*)::int AS count FROM human_users_outbox GROUP BY state");
      expect(rows).toEqual([{ state: "delivered", count: 100 }]);
    } finally {
      await schema.drop();
    }
  }, 30_000);
});
