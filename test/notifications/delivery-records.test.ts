// While other commands on the store are in flight, a command answers once its mail is handed
// to the mailer, and leaves the record of the delivery to the last of them: on PostgreSQL it goes
// with other callers' records in one statement, instead of each caller waiting for a statement of
// its own (callers that did moved in step). The last writing
// command in flight answers once every record is written, so that when a host's operations have
// all answered, every delivery is recorded and it may end its database; a read never waits. Rounds the host runs itself
// (deliverPendingNotifications) answer after their own records: their report says what was recorded.
import { describe, expect, it } from "vitest";
import { createHumanUser, deliverPendingNotifications, getUser, type MailMessage, type Outbox, type UserLog } from "../../src/index.js";
import { patchStorage } from "../support/patch-storage.js";
import { FIRST_ID, member, minimalCreate, testPorts, type TestPorts } from "../operations/support/ports.js";

const context = { requester: member };
const bea = { ...minimalCreate(), username: "bea", email: { email: "bea@acme.test" } };

/** A gate the test opens. */
function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Whether `promise` has settled once pending callbacks and a short wait have run. */
async function settled(promise: PromiseLike<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return done;
}

/** The memory store with the record of Ann's mail waiting behind `until`, and reads of users behind `reads`. */
function heldRecords(base: TestPorts, until: Promise<void>, reads: Promise<void> = Promise.resolve()): TestPorts {
  const recipientOf = (id: string) => base.storage.notifications().find((notification) => notification.id === id)?.recipient;
  const markDelivered: Outbox["markDelivered"] = async (id, at) => {
    if (recipientOf(id) === "ann@acme.test") await until;
    return base.storage.outbox.markDelivered(id, at);
  };
  const loadEvents: UserLog["loadEvents"] = async (userId) => {
    await reads;
    return base.storage.userLog.loadEvents(userId);
  };
  return { ...base, storage: patchStorage(base.storage, { outbox: { markDelivered }, userLog: { loadEvents } }) } as TestPorts;
}

const states = (ports: TestPorts) => ports.storage.notifications().map((notification) => [notification.recipient, notification.state]).sort(([a], [b]) => String(a).localeCompare(String(b)));

describe("the record of a delivery made right after the write", () => {
  it("is left to the last operation in flight: the first answers before its record, the last waits for every record", async () => {
    const base = testPorts();
    const record = gate();
    const beaSend = gate();
    const mailer = {
      sent: base.mailer.sent,
      send: async (message: MailMessage) => {
        if (message.to === "bea@acme.test") await beaSend.opened;
        return base.mailer.send(message);
      },
    };
    const ports = { ...heldRecords(base, record.opened), mailer } as TestPorts;
    const ann = (async () => await createHumanUser(ports, minimalCreate(), context))();
    const second = (async () => await createHumanUser(ports, bea, context))();
    // Ann's mail went out; her record waits, and so does Bea's mail: Ann answers all the same.
    expect(await settled(ann)).toBe(true);
    expect(base.mailer.sent.map((mail) => mail.to)).toEqual(["ann@acme.test"]);
    beaSend.open();
    // Bea's call is the last in flight: it answers once Ann's record is written too.
    expect(await settled(second)).toBe(false);
    expect(states(base)).toEqual([["ann@acme.test", "pending"], ["bea@acme.test", "delivered"]]);
    record.open();
    expect([(await ann).isOk(), (await second).isOk()]).toEqual([true, true]);
    expect(states(base)).toEqual([["ann@acme.test", "delivered"], ["bea@acme.test", "delivered"]]);
  });

  it("of a call alone is written before it answers", async () => {
    const base = testPorts();
    const record = gate();
    const ann = (async () => await createHumanUser(heldRecords(base, record.opened), minimalCreate(), context))();
    expect(await settled(ann)).toBe(false);
    expect(base.mailer.sent.map((mail) => mail.to)).toEqual(["ann@acme.test"]);
    record.open();
    expect((await ann).isOk()).toBe(true);
    expect(states(base)).toEqual([["ann@acme.test", "delivered"]]);
  });

  it("is never waited for by a read: reads do not count, so a call whose only company is a read waits for its own", async () => {
    const base = testPorts();
    const record = gate();
    const slowRead = gate();
    const ports = heldRecords(base, record.opened, slowRead.opened);
    const annSend = gate();
    const mailer = { sent: base.mailer.sent, send: async (message: MailMessage) => (await annSend.opened, base.mailer.send(message)) };
    const ann = (async () => await createHumanUser({ ...ports, mailer } as TestPorts, minimalCreate(), context))();
    // The read starts while Ann's mail waits, and ends after Ann's mail went out.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const read = (async () => await getUser(ports, { userId: FIRST_ID }, context))();
    annSend.open();
    expect(await settled(ann)).toBe(false);
    slowRead.open();
    expect(await settled(read)).toBe(true);
    expect((await read).isOk()).toBe(true);
    record.open();
    expect((await ann).isOk()).toBe(true);
    expect(states(base)).toEqual([["ann@acme.test", "delivered"]]);
  });

  it("that fails is logged as before, and the call answers", async () => {
    const errors: string[] = [];
    const base = testPorts({ logger: { warn: () => undefined, error: (_fields, message) => void errors.push(message) } });
    const markDelivered: Outbox["markDelivered"] = () => Promise.reject(new Error("connection lost"));
    const ports = { ...base, storage: patchStorage(base.storage, { outbox: { markDelivered } }) };
    expect((await createHumanUser(ports, minimalCreate(), context)).isOk()).toBe(true);
    expect(errors).toEqual(["human-users: delivered notification could not be marked delivered; it may be sent again"]);
    expect(states(base)).toEqual([["ann@acme.test", "pending"]]);
  });
});

describe("a round the host runs itself", () => {
  it("answers after its records, so that its report says what was recorded", async () => {
    const base = testPorts({ config: { immediateDelivery: "off" } });
    expect((await createHumanUser(base, minimalCreate(), context)).isOk()).toBe(true);
    const record = gate();
    const round = deliverPendingNotifications(heldRecords(base, record.opened));
    expect(await settled(round)).toBe(false);
    record.open();
    expect((await round).delivered.length).toBe(1);
    expect(states(base)).toEqual([["ann@acme.test", "delivered"]]);
  });
});

describe("a record that never settles", () => {
  it("holds the one operation that ends last after it, not every later one", async () => {
    const base = testPorts();
    const never = new Promise<void>(() => undefined);
    const ports = heldRecords(base, never);
    const ann = (async () => await createHumanUser(ports, minimalCreate(), context))();
    expect(await settled(ann)).toBe(false);
    // Ann's own call waits for her record, as it always did; calls after it are not held by it.
    const second = (async () => await createHumanUser(ports, bea, context))();
    expect(await settled(second)).toBe(true);
    expect((await second).isOk()).toBe(true);
    expect(await settled((async () => await getUser(ports, { userId: FIRST_ID }, context))())).toBe(true);
  });
});
