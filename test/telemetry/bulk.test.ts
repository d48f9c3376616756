// importHumanUsers through OpenTelemetry: a stream that may run for hours is no one span, so each
// batch gets a span named after the operation, with its rows counted by outcome, and each row is
// counted in human_users.operations by its code and outcome.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importHumanUsers, memoryStore } from "../../src/index.js";
import { adminInAcme, bulkPorts, collect, userRequest } from "../bulk/support.js";
import { patchStorage } from "../support/patch-storage.js";
import { recordingTelemetry, useAsyncContexts } from "./otel-harness.js";

let stopContexts: () => void = () => undefined;
beforeAll(() => {
  stopContexts = useAsyncContexts();
});
afterAll(() => stopContexts());

const op = "importHumanUsers";
const rows = (imported: number, alreadyThere: number, failed: number) => ({
  "human_users.operation": op,
  "human_users.rows": imported + alreadyThere + failed,
  "human_users.rows.imported": imported,
  "human_users.rows.already_there": alreadyThere,
  "human_users.rows.would_import": 0,
  "human_users.rows.failed": failed,
});
const counted = (code: number, outcome: string, value: number) => ({
  counter: "human_users.operations",
  attributes: { "human_users.operation": op, "human_users.code": code, "human_users.outcome": outcome },
  value,
});

describe("telemetry of importHumanUsers", () => {
  it("a span per batch with its rows by outcome, the storage calls inside it, and every row counted by code and outcome", async () => {
    const recording = recordingTelemetry();
    const ports = bulkPorts({ telemetry: recording.telemetry });
    const source = [userRequest("ann"), userRequest("bob"), userRequest("ann"), userRequest("cy"), userRequest("ann", { email: "other@example.com" })];
    const outcomes = await collect(importHumanUsers(ports, source, adminInAcme, { batchSize: 2 }));
    expect(outcomes.map((outcome) => Object.keys(outcome)[1])).toEqual(["ok", "ok", "alreadyThere", "ok", "error"]);

    const batches = recording.tree().filter((span) => span.name === op);
    expect(batches).toEqual([
      { name: op, parent: undefined, attributes: rows(2, 0, 0), status: { code: 0 } },
      { name: op, parent: undefined, attributes: rows(1, 1, 0), status: { code: 0 } },
      // A conflict is an answer (6), not the server's fault: the span is not failed.
      { name: op, parent: undefined, attributes: rows(0, 0, 1), status: { code: 0 } },
    ]);
    // The batch's storage calls are its children.
    expect(recording.tree().filter((span) => span.name === "userLog.appendNewUsers").map((span) => span.parent)).toEqual([op, op]);
    expect((await recording.counters()).filter((value) => value.counter === "human_users.operations")).toEqual([
      counted(0, "already_there", 1),
      counted(0, "imported", 3),
      counted(6, "failed", 1),
    ]);
  });

  it("a batch whose write fails is a failed span, its rows counted 13, and a later row of the same user fails with them", async () => {
    const recording = recordingTelemetry();
    const failing = patchStorage(memoryStore({ organizations: [{ id: "acme", domains: [] }] }), {
      userLog: { appendNewUsers: () => Promise.reject(new Error("disk gone")), append: () => Promise.reject(new Error("disk gone")) },
    });
    const ports = bulkPorts({ telemetry: recording.telemetry, storage: failing, logger: { error: () => undefined, warn: () => undefined } });
    const outcomes = await collect(importHumanUsers(ports, [userRequest("ann"), userRequest("ann")], adminInAcme, { batchSize: 1 }));
    expect(outcomes.map((outcome) => ("error" in outcome ? outcome.error.code : Object.keys(outcome)[1]))).toEqual([13, 13]);
    expect(recording.tree().filter((span) => span.name === op).map(({ attributes, status }) => ({ attributes, status }))).toEqual([
      { attributes: { ...rows(0, 0, 1), "error.type": "USER-1nt3" }, status: { code: 2, message: "USER-1nt3" } },
      // Judged the same user as the first row, whose write failed: failed too, as it is answered.
      { attributes: { ...rows(0, 0, 1), "error.type": "USER-1nt3" }, status: { code: 2, message: "USER-1nt3" } },
    ]);
    expect((await recording.counters()).filter((value) => value.counter === "human_users.operations")).toEqual([counted(13, "failed", 2)]);
  });
});
