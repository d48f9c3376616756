// config.limits reaches the operations: a shorter list limit and a lower violation cap.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createHumanUser, importHumanUser } from "../../src/index.js";
import { member, minimalCreate, testPorts } from "./support/ports.js";

const context = { requester: member };
const detail = (message: string) => ({ "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-1nv4", message });
const violations = (...fieldViolations: Array<{ field: string; description: string }>) => ({ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations });

describe("config.limits", () => {
  it("refuses a metadata list over the configured length as one violation, and accepts one at it", async () => {
    const ports = testPorts({ config: { limits: { maxMetadataEntries: 2 } } });
    const entry = (key: string) => ({ key, value: "dg==" });
    const message = "metadata: must have at most 2 entries";
    expect(await createHumanUser(ports, { ...minimalCreate(), metadata: [entry("a"), entry("b"), entry("c")] }, context)).toEqual(
      err({ code: 3, message, details: [detail(message), violations({ field: "metadata", description: "must have at most 2 entries" })] }),
    );
    expect(ports.storage.events()).toEqual([]);
    expect((await createHumanUser(ports, { ...minimalCreate(), metadata: [entry("a"), entry("b")] }, context)).isOk()).toBe(true);
  });

  it("refuses identity-provider links over the configured number, in both operations", async () => {
    const ports = testPorts({ config: { limits: { maxIdentityProviderLinks: 1 } } });
    const links = [{ idpId: "idp-acme", userId: "a", userName: "a" }, { idpId: "idp-acme", userId: "b", userName: "b" }];
    expect((await createHumanUser(ports, { ...minimalCreate(), idpLinks: links }, context))._unsafeUnwrapErr().message).toBe("idpLinks: must have at most 1 entry");
    const idps = [{ configId: "idp-acme", externalUserId: "a" }, { configId: "idp-acme", externalUserId: "b" }];
    const imported = await importHumanUser(ports, { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test" }, idps }, context);
    expect(imported._unsafeUnwrapErr().message).toBe("idps: must have at most 1 entry");
  });

  it("lists at most the configured number of violations, and says that more were left out", async () => {
    const request = { profile: { givenName: "", familyName: "" }, email: { email: "not an address" }, username: "" };
    const all = (await createHumanUser(testPorts(), request, context))._unsafeUnwrapErr().details[1];
    const every = all !== undefined && "fieldViolations" in all ? all.fieldViolations : [];
    expect(every.length).toBeGreaterThan(3);
    const [first, second] = every;
    const message = `${first?.field}: ${first?.description} (and 1 more violation listed; more were left out)`;
    const capped = await createHumanUser(testPorts({ config: { limits: { maxFieldViolations: 2 } } }), request, context);
    expect(capped).toEqual(err({ code: 3, message, details: [detail(message), violations(...[first, second].flatMap((violation) => (violation === undefined ? [] : [violation])))] }));
  });
});
