// Without a logger of the host's, the causes a host must see to act at all still reach the
// console, once each: the first cause of a 13 or 14 (tables never migrated, say), and the first
// failed delivery (a mail server that cannot be reached), which would otherwise be silent.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHumanUser, deliverPendingNotifications, type Mailer } from "../../src/index.js";
import { member, minimalCreate, testPorts } from "./support/ports.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("without a logger", () => {
  it("shows the first cause of an internal error on the console, once, and answers 13 as before", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const ports = testPorts();
    const missing = new Error('relation "human_users_events" does not exist');
    const broken = { ...ports, storage: { ...ports.storage, userLog: { ...ports.storage.userLog, append: () => Promise.reject(missing) } } };
    const answers = [await createHumanUser(broken, minimalCreate(), { requester: member }), await createHumanUser(broken, minimalCreate(), { requester: member })];
    expect(answers.map((answer) => (answer.isErr() ? answer.error.code : 0))).toEqual([13, 13]);
    expect(warn.mock.calls).toEqual([["human-users: storage write failed, and the call answered 13 or 14; pass ports.logger to see every such cause (warned once)", { err: missing }]]);
  });

  it("says so on the console, once, when a delivery fails and is to be retried, naming no code", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const unreachable: Mailer = { send: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:2")) };
    const ports = testPorts({ mailer: unreachable, config: { immediateDelivery: "off" } });
    for (const username of ["ann", "bea"]) await createHumanUser(ports, { ...minimalCreate(), username }, { requester: member });
    await deliverPendingNotifications(ports);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      "human-users: a notification could not be delivered and will be retried; check the mailer (its server, its sign-in) if this goes on; pass ports.logger to see every attempt (warned once)",
    ]);
    expect(JSON.stringify(warn.mock.calls)).toContain("ECONNREFUSED");
    expect(JSON.stringify(warn.mock.calls)).not.toContain(ports.storage.notifications()[0]?.code ?? "no code");
  });

  it("names the SMS sender, not the mailer, when a phone code cannot be sent", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const ports = testPorts({ sms: { send: () => Promise.reject(new Error("gateway down")) }, config: { immediateDelivery: "off" } });
    const phone = { phone: "+41 79 123 45 67", sendCode: {} };
    await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", isVerified: true }, phone }, { requester: member });
    await deliverPendingNotifications(ports);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      "human-users: a phone code could not be sent and will be retried; check the SMS sender (ports.sms) if this goes on; pass ports.logger to see every attempt (warned once)",
    ]);
  });

  it("warns nothing of the kind to a host that gave a logger: its logger has every line", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const lines: string[] = [];
    const logger = { warn: (_fields: unknown, message: string) => void lines.push(message), error: (_fields: unknown, message: string) => void lines.push(message) };
    const ports = testPorts({ logger });
    const broken = { ...ports, storage: { ...ports.storage, userLog: { ...ports.storage.userLog, append: () => Promise.reject(new Error("down")) } } };
    expect((await createHumanUser(broken, minimalCreate(), { requester: member }))._unsafeUnwrapErr().code).toBe(13);
    expect([warn.mock.calls, lines]).toEqual([[], ["human-users: storage write failed"]]);
  });
});
