import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryMailer } from "../../src/adapters/memory/mailer.js";
import { memoryStore } from "../../src/adapters/memory/store.js";
import type { DeliveryReport } from "../../src/notifications/report.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import { startNotificationWorker } from "../../src/notifications/worker.js";
import type { MailMessage } from "../../src/ports/mailer.js";
import { emailNotification, manualClock, writeOf } from "./helpers.js";

const nothing: DeliveryReport = { delivered: [], retrying: [], dead: [], errors: [] };

function setUp() {
  return { storage: memoryStore(), mailer: memoryMailer(), clock: manualClock() };
}

const sentIds = (sent: readonly MailMessage[]) => sent.map((message) => message.id);

describe("startNotificationWorker", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("delivers at once, then every interval, and leaves no timer behind when stopped", async () => {
    const ports = setUp();
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "left-over" })]));
    const reports: DeliveryReport[] = [];

    const worker = startNotificationWorker(ports, { intervalMs: 1000, onReport: (report) => reports.push(report) });
    await vi.advanceTimersByTimeAsync(0);
    expect(sentIds(ports.mailer.sent)).toEqual(["left-over"]);

    await ports.storage.userLog.append(writeOf([emailNotification({ id: "later" })], "u-2"));
    await vi.advanceTimersByTimeAsync(999);
    expect(sentIds(ports.mailer.sent)).toEqual(["left-over"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentIds(ports.mailer.sent)).toEqual(["left-over", "later"]);

    expect(await worker.stop()).toEqual(nothing);
    expect(vi.getTimerCount()).toBe(0);
    expect(reports).toEqual([{ ...nothing, delivered: ["left-over"] }, { ...nothing, delivered: ["later"] }, nothing]);
  });

  it("sends nothing while the configuration cannot be used, says why each round (logging it once), and sends with ports that pass", async () => {
    const ports = setUp();
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "kept" })]));
    const reports: DeliveryReport[] = [];
    const logged: string[] = [];
    const logger = { warn: () => undefined, error: (_fields: unknown, message: string) => void logged.push(message) };

    const worker = startNotificationWorker({ ...ports, logger, config: { delivery: { batchSize: 0 } } }, { intervalMs: 1000, onReport: (report) => reports.push(report) });
    await vi.advanceTimersByTimeAsync(2000);
    await worker.stop();
    // The verdict is kept per ports object, as the operations keep theirs: fixed ports are new ports.
    const fixed = startNotificationWorker({ ...ports, logger, config: { delivery: {} } }, { intervalMs: 1000, onReport: (report) => reports.push(report) });
    await vi.advanceTimersByTimeAsync(0);
    await fixed.stop();

    const refused = { ...nothing, errors: [{ stage: "configuration", error: "invalid configuration: config.delivery.batchSize must be a whole number, 1 or more" }] };
    expect(reports).toEqual([refused, refused, refused, refused, { ...nothing, delivered: ["kept"] }, nothing]);
    expect(logged).toEqual(["human-users: notifications are not delivered with these ports: the configuration cannot be used (logged once per ports object)"]);
    expect(sentIds(ports.mailer.sent)).toEqual(["kept"]);
  });

  it("drains on stop: what was written after the last round goes out before stop resolves", async () => {
    const ports = setUp();
    const worker = startNotificationWorker(ports, { intervalMs: 60_000 });
    await vi.advanceTimersByTimeAsync(0);

    await ports.storage.userLog.append(writeOf([emailNotification({ id: "just-written" })]));
    const final = await worker.stop();

    expect(final).toEqual({ ...nothing, delivered: ["just-written"] });
    expect(sentIds(ports.mailer.sent)).toEqual(["just-written"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits for the round in flight before its final drain, and stop is idempotent", async () => {
    const ports = setUp();
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "slow" })]));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const mailer = {
      send: async (message: MailMessage) => {
        order.push(`start ${message.id}`);
        await gate;
        order.push(`end ${message.id}`);
      },
    };

    const worker = startNotificationWorker({ ...ports, mailer }, { intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    const stopped = worker.stop();
    expect(worker.stop()).toBe(stopped);
    void stopped.then(() => order.push("stopped"));
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "queued" })], "u-2"));
    await vi.advanceTimersByTimeAsync(5000);
    expect(order).toEqual(["start slow"]);

    release();
    expect(await stopped).toEqual({ ...nothing, delivered: ["queued"] });
    expect(order).toEqual(["start slow", "end slow", "start queued", "end queued", "stopped"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("empties a backlog larger than one batch in a single round", async () => {
    const ports = { ...setUp(), config: { delivery: { batchSize: 2 } } };
    const ids = ["a", "b", "c", "d", "e"];
    await ports.storage.userLog.append(writeOf(ids.map((id) => emailNotification({ id }))));

    const worker = startNotificationWorker(ports, { intervalMs: 60_000 });
    await vi.advanceTimersByTimeAsync(0);

    expect(sentIds(ports.mailer.sent)).toEqual(ids);
    await worker.stop();
  });

  it("moves on from a send that never settles: the next round sends what was queued after it", async () => {
    const ports = { ...setUp(), config: { delivery: { sendTimeoutSeconds: 2 } } };
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "hangs" })]));
    const sent: string[] = [];
    const mailer = {
      send: (message: MailMessage) => (message.id === "hangs" ? new Promise<void>(() => undefined) : Promise.resolve(void sent.push(message.id))),
    };
    const reports: DeliveryReport[] = [];

    const worker = startNotificationWorker({ ...ports, mailer }, { intervalMs: 1000, onReport: (report) => reports.push(report) });
    await vi.advanceTimersByTimeAsync(0);
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "queued" })], "u-2"));
    await vi.advanceTimersByTimeAsync(2000 + 1000);

    expect(sent).toEqual(["queued"]);
    expect(reports.map((report) => [report.delivered, report.retrying.map((failed) => [failed.id, failed.error])])).toEqual([
      [[], [["hangs", "SendTimeoutError: mailer.send did not settle within 2 s"]]],
      [["queued"], []],
    ]);
    expect(await worker.stop()).toEqual(nothing);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops within the time limit while a send hangs", async () => {
    const ports = { ...setUp(), config: { delivery: { sendTimeoutSeconds: 2 } } };
    await ports.storage.userLog.append(writeOf([emailNotification({ id: "hangs" })]));
    const mailer = { send: () => new Promise<void>(() => undefined) };

    const worker = startNotificationWorker({ ...ports, mailer }, { intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = worker.stop().then((report) => {
      stopped = true;
      return report;
    });
    await vi.advanceTimersByTimeAsync(1999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);

    // The hung notification waits for its retry time: the final round has nothing due.
    expect(await stopping).toEqual(nothing);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops leasing once stopped: a hung mailer holds stop() for the sends in flight and one last slice, not the whole backlog", async () => {
    const ports = { ...setUp(), config: { delivery: { sendTimeoutSeconds: 2, concurrency: 4, batchSize: 8 } } };
    await ports.storage.userLog.append(writeOf(Array.from({ length: 40 }, (_, index) => emailNotification({ id: `n-${index}` }))));
    let sends = 0;
    const mailer = {
      send: () => {
        sends += 1;
        return new Promise<void>(() => undefined);
      },
    };

    const worker = startNotificationWorker({ ...ports, mailer }, { intervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(sends).toBe(4);
    let stopped = false;
    const stopping = worker.stop().then((report) => {
      stopped = true;
      return report;
    });
    // The slice in flight ends at its time limit (2 s); the final drain's first slice of 4 fails the same way (2 s), and it stops.
    await vi.advanceTimersByTimeAsync(3999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const last = await stopping;
    expect({ stopped, sends, retrying: last.retrying.length }).toEqual({ stopped: true, sends: 8, retrying: 4 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("with a mailer that works, stop() sends everything due, also what was written right before it", async () => {
    const ports = { ...setUp(), config: { delivery: { concurrency: 4, batchSize: 8 } } };
    await ports.storage.userLog.append(writeOf(Array.from({ length: 30 }, (_, index) => emailNotification({ id: `n-${index}` }))));
    const sent: string[] = [];
    // 10 ms a mail: the first round is still sending its first slice when stop() comes.
    const mailer = { send: (message: MailMessage) => new Promise<void>((resolve) => setTimeout(() => resolve(void sent.push(message.id)), 10)) };
    const worker = startNotificationWorker({ ...ports, mailer }, { intervalMs: 60_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(await ports.storage.userLog.append(writeOf([emailNotification({ id: "late", userId: "u-2" })], "u-2"))).toEqual({ ok: true });
    const stopping = worker.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(sent.sort()).toEqual([...Array.from({ length: 30 }, (_, index) => `n-${index}`), "late"].sort());
  });

  it("keeps polling when the host's report callback throws", async () => {
    const ports = setUp();
    const worker = startNotificationWorker(ports, {
      intervalMs: 1000,
      onReport: () => {
        throw new Error("metrics down");
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    await ports.storage.userLog.append(writeOf([emailNotification()]));
    await vi.advanceTimersByTimeAsync(1000);

    expect(sentIds(ports.mailer.sent)).toEqual(["n-1"]);
    await worker.stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("startNotificationWorker on real timers", () => {
  it("waits an interval longer than a timer can hold as the longest one, instead of running a round every millisecond", async () => {
    const ports = setUp();
    let leases = 0;
    const counted = { ...ports, storage: { ...ports.storage, outbox: { ...ports.storage.outbox, lease: (request: Parameters<typeof ports.storage.outbox.lease>[0]) => ((leases += 1), ports.storage.outbox.lease(request)) } } };
    const worker = startNotificationWorker(counted, { intervalMs: 2 ** 31 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await worker.stop();
    // One round at the start and the last one of stop().
    expect(leases).toBe(2);
  });
});

describe("deliverPendingNotifications given ports that break on reading", () => {
  it("answers a report of the error, never a rejection, when the logger cannot be read", async () => {
    const ports = setUp();
    const hostile = Object.defineProperty({ ...ports }, "logger", {
      get() {
        throw new Error("no logger here");
      },
    });
    const report = await deliverPendingNotifications(hostile);
    expect(report).toEqual({ delivered: [], retrying: [], dead: [], errors: [{ stage: "configuration", error: "invalid configuration: ports.logger could not be read" }] });
  });
});
