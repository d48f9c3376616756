// A conflict or "already there" names the stored user it met by id only when the requester may
// read that user, as getUser would tell it: otherwise an import (a dry run writes nothing) would
// map any username or identity-provider account of any organization to its user id.
import { describe, expect, it } from "vitest";
import { alreadyExists } from "../../src/core/errors/user-errors.js";
import { createHumanUser, importHumanUser, importHumanUsers, type Authorizer } from "../../src/index.js";
import { instanceAdmin, member } from "../operations/support/ports.js";
import { bulkPorts, collect, userRequest } from "./support.js";

const gusOfGlobex = {
  username: "gus",
  organization: { orgId: "globex" },
  profile: { givenName: "Gus", familyName: "Ek" },
  email: { email: "gus@globex.test", isVerified: true },
  idpLinks: [{ idpId: "idp-global", userId: "ext-42", userName: "gus" }],
};
const wantsHisUsername = userRequest("gus");
const wantsHisAccount = { ...userRequest("other"), idps: [{ configId: "idp-global", externalUserId: "ext-42" }] };

describe("importHumanUsers names a stored holder only to a requester who may read it", () => {
  it("tells a member of acme that another user holds the username or account, not which user", async () => {
    const ports = bulkPorts();
    const gus = (await createHumanUser(ports, gusOfGlobex, { requester: instanceAdmin }))._unsafeUnwrap();
    for (const dryRun of [true, false]) {
      expect(await collect(importHumanUsers(ports, [wantsHisUsername, wantsHisAccount], { requester: member }, { dryRun }))).toEqual([
        { index: 0, error: alreadyExists("username"), conflict: { claim: "username", field: "userName", hiddenUser: true } },
        { index: 1, error: alreadyExists("idp_link"), conflict: { claim: "idp_link", field: "idps[0].externalUserId", hiddenUser: true } },
      ]);
    }
    // The same as importHumanUser answers such a row.
    expect((await importHumanUser(ports, wantsHisUsername, { requester: member }))._unsafeUnwrapErr()).toEqual(alreadyExists("username"));
    // An instance admin may read globex's users: it is told which one.
    expect(await collect(importHumanUsers(ports, [wantsHisUsername], { requester: instanceAdmin, orgId: "acme" }, { dryRun: true }))).toEqual([
      { index: 0, error: alreadyExists("username"), conflict: { claim: "username", field: "userName", userId: gus.userId } },
    ]);
  });

  it("hides the user a row is already there as, from a requester that may write the organization's users but not read them", async () => {
    const writeOnly: Authorizer = { hasPermission: (requester, permission, orgId) => permission === "user.write" && orgId === requester.orgId };
    const ports = bulkPorts({ authorizer: writeOnly });
    await collect(importHumanUsers(ports, [userRequest("ann")], { requester: member }));
    expect(await collect(importHumanUsers(ports, [userRequest("ann")], { requester: member }))).toEqual([{ index: 0, alreadyThere: { hiddenUser: true } }]);
  });

  it("hides the holder when the authorizer fails to answer, and answers the row as a conflict all the same", async () => {
    let failing = false;
    const flaky: Authorizer = {
      hasPermission: (requester, permission, orgId) => {
        if (failing && permission === "user.read") throw new Error("policy service down");
        return requester.instanceAdmin === true || orgId === requester.orgId;
      },
    };
    const ports = bulkPorts({ authorizer: flaky, logger: { warn: () => undefined, error: () => undefined } });
    await createHumanUser(ports, { ...gusOfGlobex, organization: { orgId: "acme" } }, { requester: member });
    failing = true;
    expect(await collect(importHumanUsers(ports, [wantsHisUsername], { requester: member }, { dryRun: true }))).toEqual([
      { index: 0, error: alreadyExists("username"), conflict: { claim: "username", field: "userName", hiddenUser: true } },
    ]);
  });

  it("asks an async authorizer about the holders of a batch side by side, once per holder", async () => {
    let reads = 0;
    let inFlight = 0;
    let mostAtOnce = 0;
    const slow: Authorizer = {
      hasPermission: async (requester, permission, orgId) => {
        if (permission === "user.read") {
          reads += 1;
          inFlight += 1;
          mostAtOnce = Math.max(mostAtOnce, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 2));
          inFlight -= 1;
        }
        return orgId === requester.orgId;
      },
    };
    const ports = bulkPorts({ authorizer: slow });
    const rows = Array.from({ length: 40 }, (_, index) => userRequest(`user${index}`));
    await collect(importHumanUsers(ports, rows, { requester: member }));
    reads = 0;
    const again = await collect(importHumanUsers(ports, rows, { requester: member }));
    expect(again.every((outcome) => "alreadyThere" in outcome && "userId" in outcome.alreadyThere)).toBe(true);
    expect({ reads, sideBySide: mostAtOnce > 1 }).toEqual({ reads: 40, sideBySide: true });
  });
});
