// The reads through OpenTelemetry: listUsers and getUser get an operation span with children for
// the claim lookup and the query, with counts and outcomes only (never the name looked up).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHumanUser, getUser, importHumanUsers, listUsers } from "../../src/index.js";
import { adminInAcme, bulkPorts, collect, userRequest } from "../bulk/support.js";
import { member, minimalCreate, testPorts } from "../operations/support/ports.js";
import { recordingTelemetry, useAsyncContexts, type SpanSummary } from "./otel-harness.js";

let stopContexts: () => void = () => undefined;
beforeAll(() => {
  stopContexts = useAsyncContexts();
});
afterAll(() => stopContexts());

const context = { requester: member };

function span(name: string, parent: string | undefined, attributes: Record<string, unknown> = {}): SpanSummary {
  return { name, parent, attributes, status: { code: 0 } };
}

describe("telemetry of the reads", () => {
  it("listUsers by login name: the operation, the claim lookup and the query, without the name", async () => {
    const recording = recordingTelemetry();
    const ports = testPorts({ telemetry: recording.telemetry, config: { immediateDelivery: "off" } });
    const userId = (await createHumanUser(ports, { ...minimalCreate(), username: "ann" }, context))._unsafeUnwrap().userId;
    const before = recording.spans().length;
    const request = { queries: [{ loginNameQuery: { loginName: "ann", method: "TEXT_QUERY_METHOD_EQUALS" } }] };
    expect((await listUsers(ports, request, context))._unsafeUnwrap().result?.map((user) => user.userId)).toEqual([userId]);
    const op = "listUsers";
    expect(recording.tree().slice(before)).toEqual([
      span(op, undefined, { "human_users.operation": op, "human_users.code": 0 }),
      span("userLog.findClaimHolder", op, { "human_users.claim.kind": "username", "human_users.claim.held": true }),
      // The organization comes from the directory cache: no call, no span.
      span("userLog.queryUsers", op, { "human_users.limit": 100, "human_users.total": 1, "human_users.users": 1 }),
    ]);
    expect(JSON.stringify(recording.tree())).not.toContain('"ann"');
  });

  it("getUser: the operation in its organization, the events loaded", async () => {
    const recording = recordingTelemetry();
    const ports = testPorts({ telemetry: recording.telemetry, config: { immediateDelivery: "off" } });
    const userId = (await createHumanUser(ports, minimalCreate(), context))._unsafeUnwrap().userId;
    const before = recording.spans().length;
    expect((await getUser(ports, { userId }, context)).isOk()).toBe(true);
    const op = "getUser";
    expect(recording.tree().slice(before)).toEqual([
      span(op, undefined, { "human_users.operation": op, "human_users.organization.id": "acme", "human_users.code": 0 }),
      span("userLog.loadEvents", op, { "human_users.events": 2 }),
    ]);
  });

  it("importHumanUsers run again: the stored holders of a batch's claims in one span, with counts only", async () => {
    const recording = recordingTelemetry();
    const ports = bulkPorts({ telemetry: recording.telemetry });
    const requests = [userRequest("ann"), userRequest("bob")];
    await collect(importHumanUsers(ports, requests, adminInAcme));
    const before = recording.spans().length;
    expect((await collect(importHumanUsers(ports, [...requests, userRequest("cy")], adminInAcme))).map((outcome) => Object.keys(outcome)[1])).toEqual(["alreadyThere", "alreadyThere", "ok"]);
    const lookups = recording.tree().slice(before).filter((summary) => summary.name.startsWith("userLog.find") || summary.name === "userLog.loadEvents");
    // One lookup for the whole batch, one span for it (not one inside another of the same name), counts only.
    expect(lookups.map(({ name, attributes }) => ({ name, attributes }))).toEqual([
      { name: "userLog.findClaimHolders", attributes: { "human_users.claims": 3, "human_users.claims.held": 2 } },
    ]);
  });
});
