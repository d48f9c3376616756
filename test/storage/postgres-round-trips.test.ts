// The statements createHumanUser sends to PostgreSQL, counted through a watched pool: one for a
// user without mail (the new user's append writes events, claims and listing, the unique indexes
// checking the claims and the stream), two with the verification mail (the append, which also leases the mail to this
// process, and the delivery report). Deliveries reported together go as one statement.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import type { PgQuery } from "../../src/adapters/postgres/pg-like.js";
import * as sql from "../../src/adapters/postgres/statements.js";
import { createHumanUser, memoryMailer, systemClock, type Ports } from "../../src/index.js";
import { testKeys } from "../operations/support/ports.js";
import { findPostgres, schemaPool, type SchemaPool } from "./databases.js";
import { watchedPool } from "./support/watched-pool.js";

const url = await findPostgres();
const needsServer = url === undefined ? " (skipped: counting statements needs a PostgreSQL server; set HUMAN_USERS_PG_URL)" : "";

const acme = { id: "acme", domains: [{ domain: "acme.example", verified: true }] };
const context = { requester: { userId: "admin", orgId: "acme" } };
const named = new Map<string, string>([
  [sql.appendSql, "append"],
  [sql.newUserAppendSql, "append new user"],
  [sql.newUserAppendWithNotificationsSql, "append new user"],
  [sql.leaseIdsSql, "lease"],
  [sql.deliveredSql, "markDelivered"],
  [sql.organizationByIdSql, "findOrganization"],
]);

function userRequest(name: string, email: Record<string, unknown> = {}): Record<string, unknown> {
  return { username: name, profile: { givenName: "Ann", familyName: "Lee" }, email: { email: `${name}@example.com`, ...email } };
}

describe.skipIf(url === undefined)(`statements per createHumanUser on PostgreSQL${needsServer}`, () => {
  let schema: SchemaPool;
  let sent: string[];
  let ports: Ports;
  const mailer = memoryMailer();

  beforeEach(async () => {
    schema = await schemaPool(url ?? "", "trips");
    await migrate(schema.pool);
    await postgresStore({ pool: schema.pool }).upsertOrganization(acme);
    sent = [];
    const pool = watchedPool(schema.pool, { sent: (query: PgQuery) => sent.push(named.get(query.text) ?? query.text) });
    ports = { storage: postgresStore({ pool }), mailer, clock: systemClock, keys: testKeys };
    // The first call reads the organization; the directory cache answers the next ones.
    await createHumanUser(ports, userRequest("first", { returnCode: {} }), context);
    sent.length = 0;
    mailer.sent.length = 0;
  });

  afterEach(() => schema.drop());

  it("sends one statement for a user without mail", async () => {
    expect((await createHumanUser(ports, userRequest("ann", { returnCode: {} }), context)).isOk()).toBe(true);
    expect(sent).toEqual(["append new user"]);
  });

  it("sends two with the verification mail: the append leases it, and the delivery is reported; the mail goes once", async () => {
    expect((await createHumanUser(ports, userRequest("bea"), context)).isOk()).toBe(true);
    expect(sent).toEqual(["append new user", "markDelivered"]);
    expect(mailer.sent.map((mail) => mail.to)).toEqual(["bea@example.com"]);
    const records = (await postgresStore({ pool: schema.pool }).snapshot()).notifications.map((record) => [record.recipient, record.state, record.code]);
    expect(records).toEqual([["bea@example.com", "delivered", ""]]);
  });

  it("with ten callers at once, has every delivery recorded once all have answered, though not each caller waited for its own", async () => {
    const names = Array.from({ length: 10 }, (_, index) => `many${index}`);
    const answers = await Promise.all(names.map((name) => createHumanUser(ports, userRequest(name), context)));
    expect(answers.every((answer) => answer.isOk())).toBe(true);
    const { rows } = await schema.pool.query("SELECT state, count(*)::int AS count FROM human_users_outbox GROUP BY state");
    expect(rows).toEqual([{ state: "delivered", count: 10 }]);
    expect(mailer.sent.length).toBe(10);
  });

  it("reads the organization again on every call when the host turns the directory cache off", async () => {
    const uncached = { ...ports, config: { directoryCacheSeconds: 0 } };
    expect((await createHumanUser(uncached, userRequest("cid", { returnCode: {} }), context)).isOk()).toBe(true);
    expect((await createHumanUser(uncached, userRequest("dan", { returnCode: {} }), context)).isOk()).toBe(true);
    expect(sent).toEqual(["findOrganization", "append new user", "findOrganization", "append new user"]);
  });

  it("prepares every statement, the delivery report too: its function plans the update for the ids it is given", async () => {
    const queries: PgQuery[] = [];
    const store = postgresStore({ pool: watchedPool(schema.pool, { sent: (query: PgQuery) => queries.push(query) }) });
    expect((await createHumanUser({ ...ports, storage: store }, userRequest("hal"), context)).isOk()).toBe(true);
    // A new store has its own directory cache: it reads the organization first.
    expect(queries.map((query) => [named.get(query.text) ?? query.text, query.name !== undefined])).toEqual([
      ["findOrganization", true],
      ["append new user", true],
      ["markDelivered", true],
    ]);
  });

  it("reports deliveries made at once in one statement", async () => {
    const store = postgresStore({ pool: watchedPool(schema.pool, { sent: (query: PgQuery) => sent.push(named.get(query.text) ?? query.text) }) });
    const offPorts = { ...ports, storage: store, config: { immediateDelivery: "off" as const } };
    for (const name of ["eve", "fay", "gus"]) expect((await createHumanUser(offPorts, userRequest(name), context)).isOk()).toBe(true);
    const leased = await store.outbox.lease({ now: new Date(), limit: 10, leaseUntil: new Date(Date.now() + 60_000) });
    sent.length = 0;
    await Promise.all(leased.map((notification) => store.outbox.markDelivered(notification.id, new Date())));
    expect(sent).toEqual(["markDelivered"]);
    const states = (await store.snapshot()).notifications.map((record) => [record.recipient, record.state]);
    expect(states).toEqual([["eve@example.com", "delivered"], ["fay@example.com", "delivered"], ["gus@example.com", "delivered"]]);
  });
});
