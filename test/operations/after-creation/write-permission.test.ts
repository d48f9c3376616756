// Who may change an existing user: a requester who may not even read the user's organization is
// told the user does not exist (5); one who may read it but not write is told so (7).
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createPasskeyRegistrationLink, getUser, passwordReset, resendEmailCode, resendInitialization, setPassword, unlockUser, type Authorizer } from "../../../src/index.js";
import { plainError } from "../support/ports.js";
import { storeCases } from "../support/stores.js";
import { createAnn, type Harness, harnessForEachTest, member } from "./harness.js";

const memory = storeCases.filter((storeCase) => storeCase.name === "memory");
const unknownUser = err(plainError(5, "USER-u5r5", "the user does not exist"));
const mayNotWrite = err(plainError(7, "USER-p3rm", "no permission to write users in this organization"));

/** Every change of an existing user that a requester makes on another's behalf. */
const changes = {
  resendEmailCode: (harness: Harness, userId: string, authorizer: Authorizer) => resendEmailCode({ ...harness.ports, authorizer }, { userId, returnCode: {} }, { requester: member }),
  resendInitialization: (harness: Harness, userId: string, authorizer: Authorizer) => resendInitialization({ ...harness.ports, authorizer }, { userId }, { requester: member }),
  passwordReset: (harness: Harness, userId: string, authorizer: Authorizer) => passwordReset({ ...harness.ports, authorizer }, { userId, returnCode: {} }, { requester: member }),
  setPassword: (harness: Harness, userId: string, authorizer: Authorizer) => setPassword({ ...harness.ports, authorizer }, { userId, newPassword: { password: "Secret-pass2" } }, { requester: member }),
  unlockUser: (harness: Harness, userId: string, authorizer: Authorizer) => unlockUser({ ...harness.ports, authorizer }, { userId }, { requester: member }),
  createPasskeyRegistrationLink: (harness: Harness, userId: string, authorizer: Authorizer) => createPasskeyRegistrationLink({ ...harness.ports, authorizer }, { userId, returnCode: {} }, { requester: member }),
};

describe.each(memory)("changing an existing user without the permission to write, on $name", (storeCase) => {
  const harness = harnessForEachTest(storeCase);

  const readOnly: Authorizer = { hasPermission: (_requester, permission) => permission === "user.read" };
  const nothing: Authorizer = { hasPermission: () => false };

  it.each(Object.keys(changes) as (keyof typeof changes)[])("%s answers 7 to a requester who may read the user, 5 to one who may not, and changes nothing", async (name) => {
    const userId = await createAnn(harness);
    const before = await getUser(harness.ports, { userId }, { requester: member });
    expect(await changes[name](harness, userId, readOnly)).toEqual(mayNotWrite);
    expect(await changes[name](harness, userId, nothing)).toEqual(unknownUser);
    expect(await getUser(harness.ports, { userId }, { requester: member })).toEqual(before);
  });

  it("tells the authorizer which user a request acts on, so that a host can let users act on themselves, as ZITADEL does", async () => {
    const userId = await createAnn(harness);
    const asked: unknown[] = [];
    // Administrators of nothing; each user may read and change itself.
    const selfOnly: Authorizer = {
      hasPermission: (requester, permission, orgId, targetUserId) => (asked.push([permission, orgId, targetUserId]), targetUserId !== undefined && targetUserId === requester.userId),
    };
    const ports = { ...harness.ports, authorizer: selfOnly };
    const self = { requester: { userId, orgId: "acme" } };
    expect((await getUser(ports, { userId }, self)).isOk()).toBe(true);
    expect((await resendEmailCode(ports, { userId, returnCode: {} }, self)).isOk()).toBe(true);
    expect(asked).toEqual([
      ["user.read", "acme", userId],
      ["user.write", "acme", userId],
    ]);
    expect(await getUser(ports, { userId }, { requester: member })).toEqual(unknownUser);
    expect(await resendEmailCode(ports, { userId, returnCode: {} }, { requester: member })).toEqual(unknownUser);
    // Unlocking stays an administrator's act, as in ZITADEL: the authorizer is not told whose, so a
    // locked user cannot unlock itself; it may see itself, so it is told it may not (7), not that it does not exist.
    asked.length = 0;
    expect(await unlockUser(ports, { userId }, self)).toEqual(mayNotWrite);
    expect(asked).toEqual([["user.write", "acme", undefined], ["user.read", "acme", userId]]);
  });
});
