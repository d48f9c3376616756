// The command runner: decide, append with the expected sequence, decide again after a lost race,
// 10 when the tries run out; who may call; an error answered with its events still appended.
import { err, ok, type Result } from "neverthrow";
import { describe, expect, it } from "vitest";
import type { Command, RequestObject } from "../../src/core/commands/command.js";
import { runCommand } from "../../src/core/commands/runner.js";
import { aborted, invalidRequest } from "../../src/core/errors/user-errors.js";
import { runtime } from "../../src/operations/runtime.js";
import { createHumanUser, type AppendOutcome, type ErrorBody, type UserAppend } from "../../src/index.js";
import { patchStorage } from "../support/patch-storage.js";
import { FIRST_ID, member, minimalCreate, NOW, plainError, testPorts, type TestPorts } from "../operations/support/ports.js";

/** A small command on an existing user: sets one metadata entry, or refuses a value "bad" after recording it. */
const setMetadata: Command<{ readonly userId: string; readonly value: string; readonly byProof: boolean }, { readonly sequence: string }> = {
  name: "setMetadata",
  fields: { members: new Map([["userId", {}], ["value", {}], ["proof", {}]]) },
  shape: (request) => (typeof request["userId"] === "string" ? [] : [{ field: "userId", description: "is required" }]),
  access: (request) => ({ permission: "user.write", proof: request["proof"] === true }),
  target: (request) => ({ userId: String(request["userId"]) }),
  parse: (request: RequestObject) => ok({ userId: String(request["userId"]), value: String(request["value"] ?? "dmFsdWU="), byProof: request["proof"] === true }),
  decide: (input) =>
    Promise.resolve(
      ok({
        userId: input.parsed.userId,
        events: [{ type: "user.metadata.set", payload: { key: `k${input.attempt}`, value: input.parsed.value } }],
        respond: (facts): Result<{ sequence: string }, ErrorBody> =>
          input.parsed.value === "bad" ? err(invalidRequest([{ field: "value", description: "is bad" }])) : ok({ sequence: facts.sequence }),
      }),
    ),
};

const ABORTED: ErrorBody = {
  code: 10,
  message: "the user was changed by another request at the same time, more often than the retries allow; try again",
  details: [
    {
      "@type": "type.googleapis.com/zitadel.v1.ErrorDetail",
      id: "USER-4brt",
      message: "the user was changed by another request at the same time, more often than the retries allow; try again",
    },
  ],
};
const USER_NOT_FOUND: ErrorBody = {
  code: 5,
  message: "the user does not exist",
  details: [{ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-u5r5", message: "the user does not exist" }],
};

async function withUser(): Promise<TestPorts> {
  const ports = testPorts();
  const created = await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } }, { requester: member });
  expect(created.isOk()).toBe(true);
  return ports;
}

/** The store with its append losing the first `losses` races: another writer appends just before it each time. */
function losingRaces(ports: TestPorts, losses: number): { ports: TestPorts; appends: UserAppend[] } {
  const appends: UserAppend[] = [];
  const store = ports.storage;
  const storage = patchStorage(store, {
    userLog: {
      async append(request): Promise<AppendOutcome> {
        appends.push(request);
        if (appends.length <= losses) {
          const events = await store.userLog.loadEvents(request.userId);
          const sneaked = { ...request, expectedSequence: events.length, events: request.events.map((event, index) => ({ ...event, sequence: events.length + index + 1, payload: { key: "other", value: "b3RoZXI=" } })) };
          expect(await store.userLog.append(sneaked)).toEqual({ ok: true });
        }
        return store.userLog.append(request);
      },
    },
  });
  return { ports: { ...ports, storage }, appends };
}

describe("the command runner", () => {
  it("decides again on the new state after losing two races, and answers Ok", async () => {
    const { ports, appends } = losingRaces(await withUser(), 2);
    const result = await runCommand(ports, { userId: FIRST_ID }, { requester: member }, setMetadata, runtime);
    expect(result).toEqual(ok({ sequence: "5" }));
    expect(appends.map((append) => append.expectedSequence)).toEqual([2, 3, 4]);
    expect(ports.storage.events().map((event) => [event.sequence, event.payload])).toEqual([
      [1, expect.objectContaining({ userName: "ann@acme.test" })],
      [2, expect.objectContaining({ codeReturned: true })],
      [3, { key: "other", value: "b3RoZXI=" }],
      [4, { key: "other", value: "b3RoZXI=" }],
      [5, { key: "k3", value: "dmFsdWU=" }],
    ]);
  });

  it("answers 10 when every try loses its race, and appends nothing of its own", async () => {
    const { ports, appends } = losingRaces(await withUser(), Number.POSITIVE_INFINITY);
    const result = await runCommand(ports, { userId: FIRST_ID }, { requester: member }, setMetadata, runtime);
    expect(result).toEqual(err(ABORTED));
    expect(appends).toHaveLength(5);
    expect(ports.storage.events().filter((event) => event.type === "user.metadata.set" && event.payload["key"] !== "other")).toEqual([]);
  });

  it("tries as often as config.appendAttempts says", async () => {
    const base = await withUser();
    const { ports, appends } = losingRaces({ ...base, config: { appendAttempts: 2 } } as TestPorts, 2);
    expect(await runCommand(ports, { userId: FIRST_ID }, { requester: member }, setMetadata, runtime)).toEqual(err(ABORTED));
    expect(appends).toHaveLength(2);
  });

  it("answers 5 for a user that does not exist, and for one the store no longer finds at the append", async () => {
    const ports = await withUser();
    expect(await runCommand(ports, { userId: "nobody" }, { requester: member }, setMetadata, runtime)).toEqual(err(USER_NOT_FOUND));
    const vanishing = { ...ports, storage: patchStorage(ports.storage, { userLog: { append: () => Promise.resolve<AppendOutcome>({ ok: false, reason: "user-not-found" }) } }) };
    expect(await runCommand(vanishing, { userId: FIRST_ID }, { requester: member }, setMetadata, runtime)).toEqual(err(USER_NOT_FOUND));
  });

  it("answers 5, never 7, for a user outside the requester's organization, and 16 without a requester", async () => {
    const ports = await withUser();
    const outsider = { userId: "someone", orgId: "globex" };
    expect(await runCommand(ports, { userId: FIRST_ID }, { requester: outsider }, setMetadata, runtime)).toEqual(err(USER_NOT_FOUND));
    expect((await runCommand(ports, { userId: FIRST_ID }, {}, setMetadata, runtime))._unsafeUnwrapErr().code).toBe(16);
    expect(ports.storage.events()).toHaveLength(2);
  });

  it("lets a request that carries its proof in without a requester, and with one from elsewhere", async () => {
    const ports = await withUser();
    expect(await runCommand(ports, { userId: FIRST_ID, proof: true }, {}, setMetadata, runtime)).toEqual(ok({ sequence: "3" }));
    expect(await runCommand(ports, { userId: FIRST_ID, proof: true }, { requester: { userId: "x", orgId: "globex" } }, setMetadata, runtime)).toEqual(ok({ sequence: "4" }));
  });

  it("answers an error the decision gives after its events are appended", async () => {
    const ports = await withUser();
    const result = await runCommand(ports, { userId: FIRST_ID, value: "bad" }, { requester: member }, setMetadata, runtime);
    expect(result).toEqual(err(invalidRequest([{ field: "value", description: "is bad" }])));
    expect(ports.storage.events().at(-1)).toEqual({ type: "user.metadata.set", aggregateId: FIRST_ID, orgId: "acme", sequence: 3, createdAt: NOW, payload: { key: "k1", value: "bad" } });
  });
});

describe("creation on the runner", () => {
  it("draws a generated user id again when another user took it at the write, and answers Ok", async () => {
    const ports = testPorts();
    let taken = 0;
    const storage = patchStorage(ports.storage, {
      userLog: {
        append(request) {
          if (taken < 2) {
            taken += 1;
            return Promise.resolve<AppendOutcome>({ ok: false, reason: "claim-held", conflict: { kind: "user_id", scope: "", key: request.userId } });
          }
          return ports.storage.userLog.append(request);
        },
      },
    });
    const result = await createHumanUser({ ...ports, storage }, { ...minimalCreate(), email: { email: "ann@acme.test", returnCode: {} } }, { requester: member });
    // Ids 1 and 2 were taken at the write; the third try got id 3.
    expect(result._unsafeUnwrap().userId).toBe("100000000000000003");
    expect(new Set(ports.storage.events().map((event) => event.aggregateId))).toEqual(new Set(["100000000000000003"]));
  });

  it("answers 10, never 6, when every generated id is taken, whether the rules ask the directory or only the write finds it", async () => {
    // A username whose domain another organization verified is refused by the directory, and then
    // the claims are looked up first (ZITADEL checks the id first); others meet the id at the write.
    for (const username of ["ann@globex.test", "ann@acme.test", "ann"]) {
      const ports = testPorts();
      expect((await createHumanUser(ports, { ...minimalCreate(), username: "holder" }, { requester: member })).isOk()).toBe(true);
      const before = ports.storage.snapshot();
      const result = await createHumanUser({ ...ports, ids: { next: () => FIRST_ID } }, { ...minimalCreate(), username }, { requester: member });
      expect(result).toEqual(err(aborted()));
      expect(ports.storage.snapshot()).toEqual(before);
    }
  });

  it("answers 6 for a taken username when every generated id is taken too: the id is never the caller's problem", async () => {
    // Without a domain the write meets the id first; with this organization's domain the directory
    // is asked, and the claims looked up. Either way the username is the answer, not a 10.
    for (const username of ["ann", "ann@acme.test"]) {
      const ports = testPorts();
      expect((await createHumanUser(ports, { ...minimalCreate(), username }, { requester: member })).isOk()).toBe(true);
      const before = ports.storage.snapshot();
      const result = await createHumanUser({ ...ports, ids: { next: () => FIRST_ID } }, { ...minimalCreate(), username }, { requester: member });
      expect(result).toEqual(err(plainError(6, "USER-n4m6", "the username is already taken")));
      expect(ports.storage.snapshot()).toEqual(before);
    }
  });

  it("answers 6 when the user id the caller asked for was taken at the write", async () => {
    const ports = testPorts();
    const storage = patchStorage(ports.storage, {
      userLog: { append: (request) => Promise.resolve<AppendOutcome>({ ok: false, reason: "claim-held", conflict: { kind: "user_id", scope: "", key: request.userId } }) },
    });
    const result = await createHumanUser({ ...ports, storage }, { ...minimalCreate(), userId: "chosen" }, { requester: member });
    expect(result._unsafeUnwrapErr().details[0]).toEqual({ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-1d6x", message: "a user with this userId already exists" });
    expect(ports.storage.snapshot()).toEqual({ events: [], claims: [], notifications: [] });
  });
});
