// The rules against storage answer in the contract's order (user id, username, provider known,
// provider account, reserved domain), now that the claims are looked up only when the directory
// refuses the user, and otherwise checked by the append itself.
import { describe, expect, it } from "vitest";
import { createHumanUser, errorIds } from "../../src/index.js";
import { instanceAdmin, member, minimalCreate, testPorts, type TestPorts } from "./support/ports.js";

const context = { requester: member };

async function withTaken(ports: TestPorts): Promise<void> {
  const taken = { ...minimalCreate(), userId: "taken-id", username: "taken", email: { email: "t@acme.test", returnCode: {} }, idpLinks: [{ idpId: "idp-acme", userId: "ext-taken", userName: "t" }] };
  expect((await createHumanUser(ports, taken, context)).isOk()).toBe(true);
  const inGlobex = { ...minimalCreate(), username: "t@globex.test", organization: { orgId: "globex" }, email: { email: "t@globex.test", returnCode: {} } };
  expect((await createHumanUser(ports, inGlobex, { requester: instanceAdmin })).isOk()).toBe(true);
}

async function errorIdOf(ports: TestPorts, changes: Record<string, unknown>): Promise<string | undefined> {
  const result = await createHumanUser(ports, { ...minimalCreate(), email: { email: "n@acme.test", returnCode: {} }, ...changes }, context);
  const detail = result._unsafeUnwrapErr().details[0];
  return detail !== undefined && "id" in detail ? detail.id : undefined;
}

describe("the order of the storage rules", () => {
  it.each([
    ["user id taken, unknown provider", { userId: "taken-id", idpLinks: [{ idpId: "idp-none", userId: "e", userName: "e" }] }, errorIds.userIdTaken],
    ["username taken, unknown provider", { username: "TAKEN", idpLinks: [{ idpId: "idp-none", userId: "e", userName: "e" }] }, errorIds.usernameTaken],
    ["username taken, reserved domain", { username: "T@globex.test" }, errorIds.usernameTaken],
    ["unknown provider, account taken", { idpLinks: [{ idpId: "idp-none", userId: "e", userName: "e" }, { idpId: "idp-acme", userId: "ext-taken", userName: "t" }] }, errorIds.identityProviderNotFound],
    ["account taken, reserved domain", { username: "n@globex.test", idpLinks: [{ idpId: "idp-acme", userId: "ext-taken", userName: "t" }] }, errorIds.accountTaken],
    ["reserved domain alone", { username: "n@globex.test" }, errorIds.reservedDomain],
    ["account taken alone (found by the append)", { idpLinks: [{ idpId: "idp-acme", userId: "ext-taken", userName: "t" }] }, errorIds.accountTaken],
    ["username taken alone (found by the append)", { username: "Taken" }, errorIds.usernameTaken],
    ["user id taken alone (found by the append)", { userId: "taken-id" }, errorIds.userIdTaken],
  ])("%s", async (_case, changes, expected) => {
    const ports = testPorts();
    await withTaken(ports);
    const before = ports.storage.snapshot();
    expect(await errorIdOf(ports, changes)).toBe(expected);
    expect(ports.storage.snapshot()).toEqual(before);
  });

  it("looks the claims up only when the directory refuses the user", async () => {
    const ports = testPorts();
    let lookups = 0;
    const storage = { ...ports.storage, userLog: { ...ports.storage.userLog, findHeldClaims: (claims: Parameters<typeof ports.storage.userLog.findHeldClaims>[0]) => ((lookups += 1), ports.storage.userLog.findHeldClaims(claims)) } };
    expect((await createHumanUser({ ...ports, storage }, minimalCreate(), context)).isOk()).toBe(true);
    expect(lookups).toBe(0);
    expect((await createHumanUser({ ...ports, storage }, { ...minimalCreate(), username: "x@globex.test" }, context)).isErr()).toBe(true);
    expect(lookups).toBe(1);
  });
});
