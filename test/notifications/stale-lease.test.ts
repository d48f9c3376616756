// A process whose send outlived its lease reports its failure after another process has leased the
// notification: that stale report must change nothing, or it frees the notification for a third
// process (sent three times) or marks dead one the second process then delivers.
import { describe, expect, it } from "vitest";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import { createHumanUser } from "../../src/operations/index.js";
import type { HumanUsersConfig } from "../../src/ports/config.js";
import type { Mailer } from "../../src/ports/mailer.js";
import { emailNotification, manualClock, recordingLogger, start, writeOf, zeroRandom } from "./helpers.js";

/** A mailer that records who sent, and holds each send until the test settles it. */
function hungMailer(name: string, sends: string[]): Mailer & { fail(): void; succeed(): void } {
  let settle: (ok: boolean) => void = () => undefined;
  const gate = new Promise<void>((resolve, reject) => (settle = (ok) => (ok ? resolve() : reject(new Error("smtp 451 timeout")))));
  return {
    fail: () => settle(false),
    succeed: () => settle(true),
    send() {
      sends.push(name);
      return gate;
    },
  };
}

/** A mailer that records who sent and succeeds at once. */
function quickMailer(name: string, sends: string[]): Mailer {
  return {
    send() {
      sends.push(name);
      return Promise.resolve();
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

async function setUp(delivery: NonNullable<HumanUsersConfig["delivery"]>) {
  const storage = memoryStore();
  await storage.userLog.append(writeOf([emailNotification()]));
  const clock = manualClock();
  const base = { storage, clock, random: zeroRandom, config: { delivery } };
  return { storage, clock, base };
}

describe("a failure reported after the lease was taken by another process", () => {
  it("does not free the notification for a third process: only A and B send", async () => {
    const { storage, clock, base } = await setUp({ leaseSeconds: 60, initialBackoffSeconds: 30 });
    const sends: string[] = [];
    const a = hungMailer("A", sends);
    const b = hungMailer("B", sends);

    const copyA = deliverPendingNotifications({ ...base, mailer: a });
    await until(() => sends.length === 1);
    clock.set(at(61)); // A's lease (until 60 s) is over: B leases it until 121 s.
    const copyB = deliverPendingNotifications({ ...base, mailer: b });
    await until(() => sends.length === 2);
    clock.set(at(62));
    a.fail();
    const reportA = await copyA;
    const afterA = storage.notifications();
    clock.set(at(95)); // Inside B's lease; A's retry time (15 s after 62 s) has passed.
    const reportC = await deliverPendingNotifications({ ...base, mailer: quickMailer("C", sends) });
    b.succeed();
    const reportB = await copyB;

    expect(sends).toEqual(["A", "B"]);
    expect(reportA).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(afterA.map((record) => [record.state, record.attempts, record.leasedUntil, record.retryAt])).toEqual([["pending", 0, at(121).toISOString(), undefined]]);
    expect(reportC).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(reportB.delivered).toEqual(["n-1"]);
    expect(storage.notifications().map((record) => record.state)).toEqual(["delivered"]);
  });

  it("does not mark dead a notification whose last attempt B then delivers", async () => {
    const { storage, clock, base } = await setUp({ leaseSeconds: 60, maxAttempts: 1 });
    const sends: string[] = [];
    const a = hungMailer("A", sends);
    const b = hungMailer("B", sends);
    const logger = recordingLogger();
    const loggerB = recordingLogger();

    const copyA = deliverPendingNotifications({ ...base, mailer: a, logger });
    await until(() => sends.length === 1);
    clock.set(at(61));
    const copyB = deliverPendingNotifications({ ...base, mailer: b, logger: loggerB });
    await until(() => sends.length === 2);
    clock.set(at(62));
    a.fail();
    const reportA = await copyA;
    const afterA = storage.notifications();
    b.succeed();
    const reportB = await copyB;

    expect(afterA.map((record) => [record.state, record.code])).toEqual([["pending", "K7Q2ZD"]]);
    // A's own report and logger do not call dead what B is sending: A says its failure was not recorded.
    expect(reportA).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(logger.entries.map(({ level, message }) => [level, message])).toEqual([
      ["warn", "human-users: a failed send was not recorded: the notification is no longer this process's to record (its lease ended and another process took it, or a newer code withdrew it)"],
    ]);
    expect(loggerB.entries).toEqual([]);
    expect(reportB).toEqual({ delivered: ["n-1"], retrying: [], dead: [], errors: [] });
    expect(storage.notifications().map((record) => [record.state, record.attempts, record.code])).toEqual([["delivered", 0, ""]]);
  });

  it("does not free a notification the operation leased in its write and another process leased after that lease", async () => {
    const storage = memoryStore({ organizations: [{ id: "acme", domains: [] }] });
    const clock = manualClock();
    const config = { delivery: { leaseSeconds: 60, initialBackoffSeconds: 30 } };
    const sends: string[] = [];
    const a = hungMailer("A", sends);
    const b = hungMailer("B", sends);

    const request = { username: "ada", profile: { givenName: "Ada", familyName: "Lovelace" }, email: { email: "ada@example.com" } };
    const creating = createHumanUser({ storage, clock, random: zeroRandom, config, mailer: a }, request, { requester: { userId: "admin", orgId: "acme" } });
    await until(() => sends.length === 1);
    clock.set(at(61));
    const copyB = deliverPendingNotifications({ storage, clock, random: zeroRandom, config, mailer: b });
    await until(() => sends.length === 2);
    clock.set(at(62));
    a.fail();
    expect((await creating).isOk()).toBe(true);
    clock.set(at(95));
    const reportC = await deliverPendingNotifications({ storage, clock, random: zeroRandom, config, mailer: quickMailer("C", sends) });
    b.succeed();
    await copyB;

    expect(sends).toEqual(["A", "B"]);
    expect(reportC).toEqual({ delivered: [], retrying: [], dead: [], errors: [] });
    expect(storage.notifications().map((record) => [record.state, record.attempts])).toEqual([["delivered", 0]]);
  });
});
