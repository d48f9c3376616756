// The mail of a write is leased to the writing process in the write itself (no lease call after
// it): a worker running meanwhile cannot take it, and a write whose mail the operation does not
// send itself leaves it free for the worker at once.
import { describe, expect, it } from "vitest";
import { memoryMailer } from "../../src/adapters/memory/mailer.js";
import { memoryStore } from "../../src/adapters/memory/store.js";
import { deliverPendingNotifications } from "../../src/notifications/deliver.js";
import { createHumanUser } from "../../src/operations/index.js";
import type { HumanUsersConfig } from "../../src/ports/config.js";
import type { Mailer, MailMessage } from "../../src/ports/mailer.js";
import { manualClock, start } from "./helpers.js";

const context = { requester: { userId: "admin", orgId: "acme" } };
const request = { username: "ada", profile: { givenName: "Ada", familyName: "Lovelace" }, email: { email: "ada@example.com" } };
const nothing = { delivered: [], retrying: [], dead: [], errors: [] };

/** A mailer that holds each message until the test lets it go. */
function heldMailer(): Mailer & { readonly held: MailMessage[]; release(): void } {
  const held: MailMessage[] = [];
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    held,
    release: () => release(),
    async send(message) {
      held.push(message);
      await gate;
    },
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

function setting(config: HumanUsersConfig) {
  const storage = memoryStore({ organizations: [{ id: "acme", domains: [] }] });
  return { storage, clock: manualClock(), config };
}

describe("notifications leased in the write", () => {
  it("are not handed to a worker while the operation sends them, not even just before the lease ends; sent once", async () => {
    const ports = setting({ delivery: { leaseSeconds: 30 } });
    const mailer = heldMailer();
    const creating = createHumanUser({ ...ports, mailer }, request, context);
    await until(() => mailer.held.length === 1);
    const [record] = ports.storage.notifications();
    const worker = memoryMailer();
    const meanwhile = await deliverPendingNotifications({ ...ports, mailer: worker });
    ports.clock.set(new Date(start.getTime() + 29_999));
    const justBefore = await deliverPendingNotifications({ ...ports, mailer: worker });
    mailer.release();
    expect((await creating).isOk()).toBe(true);

    expect([record?.state, record?.leasedUntil]).toEqual(["pending", "2025-03-01T10:00:30.000Z"]);
    expect([meanwhile, justBefore]).toEqual([nothing, nothing]);
    expect(worker.sent).toEqual([]);
    expect(mailer.held.map((message) => message.to)).toEqual(["ada@example.com"]);
    expect(ports.storage.notifications().map((written) => [written.state, written.leasedUntil, written.code])).toEqual([["delivered", undefined, ""]]);
  });

  it("are written free when the operation leaves delivery to the worker, which sends them at once", async () => {
    const ports = setting({ immediateDelivery: "off" });
    const mailer = memoryMailer();
    expect((await createHumanUser({ ...ports, mailer }, request, context)).isOk()).toBe(true);
    const [record] = ports.storage.notifications();
    const report = await deliverPendingNotifications({ ...ports, mailer });

    expect([record?.state, record?.leasedUntil]).toEqual(["pending", undefined]);
    expect(report.delivered).toEqual([record?.id]);
    expect(mailer.sent.map((message) => message.to)).toEqual(["ada@example.com"]);
  });

  it("are not sent by the operation once too little of their lease is left for a send within its time limit: a later round sends them, once", async () => {
    const ports = setting({ delivery: { leaseSeconds: 10, sendTimeoutSeconds: 6, concurrency: 1 } });
    const sms: { to: string; id: string }[] = [];
    // The mail takes 5 s: the phone code's send would start with 5 s of the lease left, under its 6 s limit.
    const slowMailer: Mailer = {
      send: () => {
        ports.clock.advance(5_000);
        return Promise.resolve();
      },
    };
    const smsSender = {
      send: (message: { to: string; id: string }) => {
        sms.push({ to: message.to, id: message.id });
        return Promise.resolve();
      },
    };
    const withPhone = { ...request, phone: { phone: "+41791234567" } };
    expect((await createHumanUser({ ...ports, mailer: slowMailer, sms: smsSender }, withPhone, context)).isOk()).toBe(true);
    expect(sms).toEqual([]);
    const phone = ports.storage.notifications().find((record) => record.kind === "phone.verification");
    expect([phone?.state, phone?.leasedUntil]).toEqual(["pending", "2025-03-01T10:00:10.000Z"]);
    // Not due while the operation's lease lasts; handed out once it ends.
    expect(await deliverPendingNotifications({ ...ports, mailer: memoryMailer(), sms: smsSender })).toEqual(nothing);
    ports.clock.set(new Date(start.getTime() + 10_000));
    expect((await deliverPendingNotifications({ ...ports, mailer: memoryMailer(), sms: smsSender })).delivered).toEqual([phone?.id]);
    expect(sms).toEqual([{ to: "+41791234567", id: phone?.id }]);
  });

  it("are not sent by the operation after a write that waited past the time a send needs", async () => {
    const ports = setting({ delivery: { leaseSeconds: 10, sendTimeoutSeconds: 6 } });
    const mailer = memoryMailer();
    // The write waits 5 s (a row lock, say): the lease was set when the operation decided.
    const append = ports.storage.userLog.append.bind(ports.storage.userLog);
    const storage = {
      ...ports.storage,
      userLog: {
        ...ports.storage.userLog,
        append: (written: Parameters<typeof append>[0]) => {
          ports.clock.advance(5_000);
          return append(written);
        },
      },
    };
    expect((await createHumanUser({ ...ports, storage, mailer }, request, context)).isOk()).toBe(true);
    expect(mailer.sent).toEqual([]);
    ports.clock.set(new Date(start.getTime() + 10_000));
    expect((await deliverPendingNotifications({ ...ports, mailer })).delivered).toHaveLength(1);
    expect(mailer.sent.map((message) => message.to)).toEqual(["ada@example.com"]);
  });
});
