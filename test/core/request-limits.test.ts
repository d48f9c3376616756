// The configurable bounds on one request (config.limits): how they resolve, and how the parser
// and the error body apply them.
import { err } from "neverthrow";
import { describe, expect, it } from "vitest";
import { parseCreateRequest } from "../../src/core/schemas/create-human-user.js";
import { parseImportRequest } from "../../src/core/schemas/import-human-user.js";
import type { RulesContext } from "../../src/core/schemas/rules-context.js";
import { defaultRequestLimits, resolveRequestLimits } from "../../src/core/validation/request-limits.js";
import { invalidArgument } from "../../src/shared/error-body.js";

const base = { profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.test" } };
const rules = (limits: Parameters<typeof resolveRequestLimits>[0]): RulesContext => ({
  defaultPhoneRegion: undefined,
  refusalOfHash: () => undefined,
  passwordPolicy: undefined,
  limits: resolveRequestLimits(limits),
});

describe("request limits", () => {
  it("default to 1000 metadata entries, 1000 identity-provider links and 100 listed violations", () => {
    expect(resolveRequestLimits(undefined)).toEqual({ maxMetadataEntries: 1000, maxIdentityProviderLinks: 1000, maxFieldViolations: 100 });
    expect(resolveRequestLimits({})).toEqual(defaultRequestLimits);
  });

  it("take whole numbers of at least 1, round down, and cap list limits at 10,000", () => {
    expect(resolveRequestLimits({ maxMetadataEntries: 5.9, maxIdentityProviderLinks: 1_000_000, maxFieldViolations: 1 })).toEqual({
      maxMetadataEntries: 5,
      maxIdentityProviderLinks: 10_000,
      maxFieldViolations: 1,
    });
    expect(resolveRequestLimits({ maxMetadataEntries: 0, maxIdentityProviderLinks: Number.NaN, maxFieldViolations: Number.POSITIVE_INFINITY })).toEqual(
      defaultRequestLimits,
    );
  });

  it("bound the lists of both request shapes as configured", () => {
    const context = rules({ maxMetadataEntries: 2, maxIdentityProviderLinks: 1 });
    const metadata = [{ key: "a", value: "AQ==" }, { key: "b", value: "AQ==" }, { key: "c", value: "AQ==" }];
    const links = [{ idpId: "i", userId: "1", userName: "a" }, { idpId: "i", userId: "2", userName: "b" }];
    expect(parseCreateRequest({ ...base, metadata, idpLinks: links }, context)).toEqual(
      err([
        { field: "metadata", description: "must have at most 2 entries" },
        { field: "idpLinks", description: "must have at most 1 entry" },
      ]),
    );
    expect(parseCreateRequest({ ...base, metadata: metadata.slice(0, 2), idpLinks: links.slice(0, 1) }, context).isOk()).toBe(true);
    const idps = [{ configId: "i", externalUserId: "1" }, { configId: "i", externalUserId: "2" }];
    const importBase = { profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test" } };
    expect(parseImportRequest({ ...importBase, idps }, context)).toEqual(err([{ field: "idps", description: "must have at most 1 entry" }]));
  });

  it("stop validation one violation past the configured cap, so that the body can say more were left out", () => {
    const result = parseCreateRequest({ ...base, metadata: [{}, {}, {}, {}] }, rules({ maxFieldViolations: 3 }));
    const violations = [
      { field: "metadata[0].key", description: "is required" },
      { field: "metadata[0].value", description: "is required" },
      { field: "metadata[1].key", description: "is required" },
      { field: "metadata[1].value", description: "is required" },
    ];
    expect(result).toEqual(err(violations));
    const message = "metadata[0].key: is required (and 2 more violations listed; more were left out)";
    expect(invalidArgument("USER-1nv4", violations, 3)).toEqual({
      code: 3,
      message,
      details: [
        { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "USER-1nv4", message },
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations.slice(0, 3) },
      ],
    });
  });
});

describe("the error body's cap", () => {
  const violations = [
    { field: "a", description: "is required" },
    { field: "b", description: "is required" },
  ];

  it("lists every violation up to the cap, counting the others in the message", () => {
    expect(invalidArgument("X-1", violations, 2).message).toBe("a: is required (and 1 more violation)");
    expect(invalidArgument("X-1", violations).details[1]).toEqual({ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations });
  });

  it("says only that more were left out when the cap is one", () => {
    const message = "a: is required (more were left out)";
    expect(invalidArgument("X-1", violations, 1)).toEqual({
      code: 3,
      message,
      details: [
        { "@type": "type.googleapis.com/zitadel.v1.ErrorDetail", id: "X-1", message },
        { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: violations.slice(0, 1) },
      ],
    });
  });
});
