// A domain and its IDNA spellings are one domain: bücher.test and xn--bcher-kva.test, whichever
// of them an organization verified and whichever a username or a request names.
import { err, ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, importHumanUser } from "../../src/index.js";
import { ACME, FIRST_ID, GLOBEX, instanceAdmin, invalidBody, member, minimalCreate, testPorts } from "./support/ports.js";

const UNICODE = { id: "books", domains: [{ domain: "bücher.test", verified: true }] };
const ASCII = { id: "books", domains: [{ domain: "xn--bcher-kva.test", verified: true }] };
const MIXED = { id: "books", domains: [{ domain: "bücher.straße", verified: true }] };
const RESERVED = "uses a domain verified by another organization";
const context = { requester: member };
/** The reserved-domain refusal, on `field`. */
function reserved(field: string) {
  const body = invalidBody([{ field, description: RESERVED }]);
  return err({ ...body, details: [{ ...body.details[0], id: "USER-d0m3" }, body.details[1]] });
}
const importRequest = (userName: string) => ({ userName, profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test", isEmailVerified: true }, password: "Secr3t!pw" });

describe("reserved domains under their other IDNA spelling", () => {
  it.each([
    ["verified as U-labels, named as A-labels", UNICODE, "ann@xn--bcher-kva.test"],
    ["verified as A-labels, named as U-labels", ASCII, "ann@bücher.test"],
    ["verified as A-labels, named as U-labels in upper case", ASCII, "ann@BÜCHER.test"],
    ["verified as U-labels, named with one label of each", MIXED, "ann@bücher.xn--strae-oqa"],
    ["verified as U-labels, named as A-labels in upper case", UNICODE, "ann@XN--BCHER-KVA.TEST"],
  ])("refuses a username on a domain %s (importHumanUser and createHumanUser)", async (_name, books, userName) => {
    const ports = testPorts({}, { organizations: [ACME, GLOBEX, books] });
    expect(await importHumanUser(ports, importRequest(userName), context)).toEqual(reserved("userName"));
    expect(await createHumanUser(ports, { ...minimalCreate(), username: userName }, context)).toEqual(reserved("username"));
    expect(ports.storage.events()).toEqual([]);
  });

  it("takes a username on the organization's own domain under either spelling", async () => {
    const ports = testPorts({}, { organizations: [ACME, GLOBEX, UNICODE] });
    const inBooks = { requester: { userId: "admin-of-books", orgId: "books" } };
    expect((await createHumanUser(ports, { ...minimalCreate(), username: "ann@xn--bcher-kva.test" }, inBooks)).isOk()).toBe(true);
  });

  it("takes an A-label that decodes to no domain spelled otherwise, and a domain no organization verified", async () => {
    const ports = testPorts({}, { organizations: [ACME, GLOBEX, UNICODE] });
    for (const username of ["ann@xn--abc.test", "bob@xn--.test", "cid@xn--bcher-kva.example"]) {
      expect((await createHumanUser(ports, { ...minimalCreate(), username }, context)).isOk()).toBe(true);
    }
  });
});

describe("organization.orgDomain under its other IDNA spelling", () => {
  it.each(["xn--bcher-kva.test", "XN--BCHER-KVA.TEST", "bücher.test.", "ＢÜCHER.test", "bücher。test"])("finds the organization that verified the domain, named %j", async (orgDomain) => {
    const ports = testPorts({}, { organizations: [ACME, GLOBEX, UNICODE] });
    const admin = { requester: instanceAdmin };
    const created = await createHumanUser(ports, { ...minimalCreate(), email: { email: "ann@books.example" }, organization: { orgDomain } }, admin);
    expect(created).toEqual(ok({ userId: FIRST_ID, details: { sequence: "2", changeDate: "2026-03-04T05:06:07Z", resourceOwner: "books" } }));
  });
});
