// A telemetry port that fails in any way changes no answer: a user written is answered Ok, a mail
// that went out counts as delivered, and nothing it throws or rejects reaches the host's process.
import { describe, expect, it } from "vitest";
import { createHumanUser, deliverPendingNotifications, startNotificationWorker, type Telemetry, type TelemetrySpan } from "../../src/index.js";
import { FIRST_ID, member, minimalCreate, testPorts } from "../operations/support/ports.js";

const context = { requester: member };
const boom = (): never => {
  throw new Error("exporter down");
};
const rejected = (): Promise<never> => Promise.reject(new Error("exporter down"));

/** A working span that hands `span` to the work. */
function passing(span: TelemetrySpan): Telemetry["span"] {
  return (_name, _attributes, work) => work(span);
}

const quietSpan: TelemetrySpan = { setAttributes: () => undefined, fail: () => undefined };
const BROKEN: Record<string, Telemetry> = {
  "setAttributes throws": { span: passing({ setAttributes: boom, fail: boom }), count: () => undefined },
  "count throws": { span: passing(quietSpan), count: boom },
  "count rejects (an async counter)": { span: passing(quietSpan), count: rejected as unknown as Telemetry["count"] },
  "span throws before the work": { span: boom, count: () => undefined },
  "span throws after running the work": {
    span: (_name, _attributes, work) => {
      void work(quietSpan);
      throw new Error("exporter down");
    },
    count: () => undefined,
  },
  "span rejects after the work succeeded": { span: async (_name, _attributes, work) => (await work(quietSpan), rejected()), count: () => undefined },
  "span answers something else than the work's promise": { span: ((_name: string, _attributes: unknown, work: (span: TelemetrySpan) => Promise<unknown>) => (void work(quietSpan), undefined)) as unknown as Telemetry["span"], count: () => undefined },
  "span never runs the work and answers nothing": { span: (() => undefined) as unknown as Telemetry["span"], count: () => undefined },
  "span answers a thenable whose then throws": {
    span: ((_name: string, _attributes: unknown, work: (span: TelemetrySpan) => Promise<unknown>) => (void work(quietSpan), { then: boom })) as unknown as Telemetry["span"],
    count: () => undefined,
  },
  "span answers an object whose then getter throws": {
    span: ((_name: string, _attributes: unknown, work: (span: TelemetrySpan) => Promise<unknown>) => (
      void work(quietSpan),
      Object.defineProperty({}, "then", { get: boom })
    )) as unknown as Telemetry["span"],
    count: () => undefined,
  },
  "span answers, without running the work, a thenable whose then throws": { span: (() => ({ then: boom })) as unknown as Telemetry["span"], count: () => undefined },
  "span runs the work later": {
    span: (_name, _attributes, work) => new Promise((resolve) => setTimeout(() => resolve(work(quietSpan)), 1)),
    count: () => undefined,
  },
};

describe("a broken telemetry port changes no answer", () => {
  it.each(Object.entries(BROKEN))("%s: the user is created, answered Ok, its mail delivered once, and the host warned once", async (_case, telemetry) => {
    const warnings: string[] = [];
    const logger = { warn: (_fields: unknown, message: string) => void warnings.push(message), error: () => undefined };
    const ports = testPorts({ telemetry, logger });
    const first = await createHumanUser(ports, minimalCreate(), context);
    const second = await createHumanUser(ports, { ...minimalCreate(), username: "bob", email: { email: "bob@acme.test" } }, context);
    expect([first.isOk(), second.isOk()]).toEqual([true, true]);
    expect(first._unsafeUnwrap().userId).toBe(FIRST_ID);
    expect(ports.storage.notifications().map((notification) => notification.state)).toEqual(["delivered", "delivered"]);
    expect(ports.mailer.sent.length).toBe(2);
    expect(warnings.filter((message) => message.includes("telemetry")).length).toBeLessThanOrEqual(1);
  });

  it("a port that throws at once is called once with telemetry as without, and the host is not told telemetry failed", async () => {
    let calls = 0;
    const warnings: string[] = [];
    const logger = { warn: (_fields: unknown, message: string) => void warnings.push(message), error: () => undefined };
    const base = testPorts({ telemetry: { span: passing(quietSpan), count: () => undefined }, logger });
    const directory = { ...base.storage.directory, findOrganization: () => ((calls += 1), boom()) };
    const answer = await createHumanUser({ ...base, directory }, minimalCreate(), context);
    expect([answer._unsafeUnwrapErr().code, calls, warnings.filter((message) => message.includes("telemetry"))]).toEqual([13, 1, []]);
  });

  it("a counter that fails while delivery runs on its own: the mail counts as delivered", async () => {
    const ports = testPorts({ config: { immediateDelivery: "off" } });
    expect((await createHumanUser(ports, minimalCreate(), context)).isOk()).toBe(true);
    const report = await deliverPendingNotifications({ ...ports, telemetry: { span: passing({ setAttributes: boom, fail: boom }), count: boom } });
    expect([report.delivered.length, report.retrying.length, report.dead.length, report.errors]).toEqual([1, 0, 0, []]);
  });
});

describe("host callbacks that reject are not left unheard", () => {
  it("an async logger that rejects: the 13 is answered, and no rejection reaches the process", async () => {
    const logger = { warn: rejected, error: rejected } as unknown as { warn: () => void; error: () => void };
    const ports = testPorts({ logger, ids: { next: boom } });
    const answer = await createHumanUser(ports, minimalCreate(), context);
    expect(answer._unsafeUnwrapErr().code).toBe(13);
    // Vitest fails the run on an unhandled rejection; give one a turn to surface.
    await new Promise((resolve) => setTimeout(resolve, 5));
  });

  it("an async onReport that rejects: the worker goes on delivering", async () => {
    const ports = testPorts({ config: { immediateDelivery: "off" } });
    expect((await createHumanUser(ports, minimalCreate(), context)).isOk()).toBe(true);
    let reports = 0;
    const worker = startNotificationWorker(ports, { intervalMs: 1, onReport: (() => ((reports += 1), rejected())) as unknown as () => void });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await worker.stop();
    expect(reports).toBeGreaterThan(1);
    expect(ports.storage.notifications().map((notification) => notification.state)).toEqual(["delivered"]);
  });
});
