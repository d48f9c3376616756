// The order of the members a creation writes: stores that keep JSON keep its text as made, so the
// order of the added event's payload and of the listing is part of what is stored.
import { describe, expect, it } from "vitest";
import { importHumanUser } from "../../src/index.js";
import type { UserQuery } from "../../src/ports/user-listing.js";
import { BCRYPT_HASH, importPorts, member } from "./support/import-fixtures.js";

function everyUser(userId: string): UserQuery {
  return { filter: { userIds: [userId] }, sortBy: "userId", ascending: true, offset: 0, limit: 10 };
}

describe("the members a creation writes, in order", () => {
  it("writes the added event's payload and the listing with every optional member in its place", async () => {
    const ports = importPorts();
    const request = {
      userName: "ann",
      profile: { firstName: "Ann", lastName: "Lee", nickName: "annie" },
      email: { email: "ann@acme.test", isEmailVerified: true },
      phone: { phone: "+41 79 123 45 67", isPhoneVerified: true },
      hashedPassword: { value: BCRYPT_HASH },
    };
    const created = await importHumanUser(ports, request, { requester: member });
    const userId = created._unsafeUnwrap().userId;

    const [added] = await ports.storage.userLog.loadEvents(userId);
    expect(Object.keys(added?.payload ?? {})).toEqual([
      "userName",
      "firstName",
      "lastName",
      "nickName",
      "displayName",
      "preferredLanguage",
      "gender",
      "email",
      "phone",
      "encodedHash",
      "changeRequired",
      "importFingerprint",
    ]);
    const [listing] = (await ports.storage.userLog.queryUsers(everyUser(userId))).users;
    expect(Object.keys(listing ?? {})).toEqual([
      "userId",
      "orgId",
      "sequence",
      "createdAt",
      "changedAt",
      "state",
      "username",
      "givenName",
      "familyName",
      "nickName",
      "displayName",
      "preferredLanguage",
      "gender",
      "email",
      "emailVerified",
      "phone",
      "phoneVerified",
      "passwordChangeRequired",
      "passwordChangedAt",
      "usernameFolded",
      "emailFolded",
      "displayNameFolded",
      "givenNameFolded",
      "familyNameFolded",
      "nickNameFolded",
    ]);
  });

  it("leaves the absent optional members out of both", async () => {
    const ports = importPorts();
    const created = await importHumanUser(ports, { userName: "bob", profile: { firstName: "Bob", lastName: "Lee" }, email: { email: "bob@acme.test" } }, { requester: member });
    const userId = created._unsafeUnwrap().userId;

    const [added] = await ports.storage.userLog.loadEvents(userId);
    expect(Object.keys(added?.payload ?? {})).toEqual(["userName", "firstName", "lastName", "displayName", "preferredLanguage", "gender", "email", "importFingerprint"]);
    const [listing] = (await ports.storage.userLog.queryUsers(everyUser(userId))).users;
    expect(Object.keys(listing ?? {})).not.toContain("phone");
    expect(Object.keys(listing ?? {})).not.toContain("passwordChangedAt");
  });
});
