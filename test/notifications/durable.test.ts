import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryMailer } from "../../src/adapters/memory/mailer.js";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { migrate, postgresStore } from "../../src/adapters/postgres/index.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import type { Storage, StorageSnapshot } from "../../src/ports/storage.js";
import { emailNotification, mailOf, manualClock, writeOf, zeroRandom } from "./helpers.js";

/** One process's view of a store: opened, used, closed as the process ends. */
interface Opened {
  readonly storage: Storage;
  snapshot(): Promise<StorageSnapshot>;
  close(): Promise<void>;
}

interface Backend {
  readonly name: string;
  setUp(): Promise<void>;
  /** Opens the store as a freshly started process would. */
  open(): Promise<Opened>;
  tearDown(): Promise<void>;
}

function memoryBackend(): Backend {
  // Memory does not outlive a process: the "restart" keeps the store and drops everything else.
  let store = memoryStore();
  return {
    name: "memory",
    setUp: async () => {
      store = memoryStore();
    },
    open: async () => ({ storage: store, snapshot: async () => store.snapshot(), close: async () => undefined }),
    tearDown: async () => undefined,
  };
}

function postgresBackend(): Backend {
  const schema = `hu_notifications_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
  const connection = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" };
  const admin = new pg.Pool({ ...connection, max: 1 });
  return {
    name: "PostgreSQL",
    setUp: async () => {
      await admin.query(`CREATE SCHEMA ${schema}`);
    },
    open: async () => {
      const pool = new pg.Pool({ ...connection, max: 2, options: `-c search_path=${schema}` });
      await migrate(pool);
      const storage = postgresStore({ pool });
      return { storage, snapshot: () => storage.snapshot(), close: () => pool.end() };
    },
    tearDown: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

describe.each([memoryBackend(), postgresBackend()])("outbox across a restart: $name", (backend) => {
  beforeAll(() => backend.setUp());
  afterAll(() => backend.tearDown());

  it("delivers on the next call what a process wrote and never handed to a mailer", async () => {
    const notification = emailNotification({ id: "restart-1", userId: "u-restart-1" });
    const before = await backend.open();
    await before.storage.userLog.append(writeOf([notification], "u-restart-1"));
    await before.close();

    const after = await backend.open();
    const mailer = memoryMailer();
    const clock = manualClock();
    const report = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    const again = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    const records = (await after.snapshot()).notifications;
    await after.close();

    expect(report).toEqual({ delivered: ["restart-1"], retrying: [], dead: [], errors: [] });
    expect(again).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(mailer.sent).toEqual([mailOf(notification)]);
    expect(records.map((record) => [record.id, record.state, record.attempts, record.code, record.link])).toEqual([
      ["restart-1", "delivered", 0, "", ""],
    ]);
  });

  it("delivers once, when its lease is over, what a process leased in its write and died before sending", async () => {
    const notification = emailNotification({ id: "restart-3", userId: "u-restart-3" });
    const clock = manualClock();
    const leaseEnd = new Date(clock.now().getTime() + 300_000);
    const before = await backend.open();
    const written = await before.storage.userLog.append({ ...writeOf([notification], "u-restart-3"), leaseNotificationsUntil: leaseEnd });
    await before.close();

    const after = await backend.open();
    const mailer = memoryMailer();
    const leased = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    clock.set(leaseEnd);
    const due = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    const again = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    await after.close();

    expect(written).toEqual({ ok: true, leased: [{ ...notification, attempts: 0 }] });
    expect(leased).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(due).toEqual({ delivered: ["restart-3"], retrying: [], dead: [], errors: [] });
    expect(again).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(mailer.sent).toEqual([mailOf(notification)]);
  });

  it("keeps a retry scheduled before the restart and delivers once it is due", async () => {
    const notification = emailNotification({ id: "restart-2", userId: "u-restart-2" });
    const clock = manualClock();
    const before = await backend.open();
    await before.storage.userLog.append(writeOf([notification], "u-restart-2"));
    const refusing = memoryMailer({ failAlways: true });
    const refused = await deliverPendingNotifications({ storage: before.storage, mailer: refusing, clock, random: zeroRandom });
    await before.close();

    const after = await backend.open();
    const mailer = memoryMailer();
    const early = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    clock.set(new Date("2025-03-01T10:00:15.000Z"));
    const due = await deliverPendingNotifications({ storage: after.storage, mailer, clock });
    await after.close();

    expect(refused.retrying.map((failed) => [failed.id, failed.retryAt])).toEqual([["restart-2", "2025-03-01T10:00:15.000Z"]]);
    expect(early).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(due).toEqual({ delivered: ["restart-2"], retrying: [], dead: [], errors: [] });
    expect(mailer.sent).toEqual([mailOf(notification)]);
  });
});
