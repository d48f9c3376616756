import { describe, expect, it } from "vitest";
import { LINK_PLACEHOLDERS, PASSKEY_LINK_PLACEHOLDERS, parseUrlTemplate, renderUrlTemplate } from "../../src/core/rules/url-template.js";

describe("parseUrlTemplate's cache of parsed link templates", () => {
  const passkeyLink = "https://app.example/passkey?user={{.UserID}}&code={{.Code}}&id={{.CodeID}}";
  const link = "https://app.example/verify?user={{.UserID}}&code={{ .Code }}&org={{.OrgID}}";

  it("answers for the list of placeholders it is given, whichever list parsed the same template before", () => {
    for (let round = 0; round < 2; round++) {
      expect(parseUrlTemplate(passkeyLink, PASSKEY_LINK_PLACEHOLDERS).isOk()).toBe(true);
      expect(parseUrlTemplate(passkeyLink)._unsafeUnwrapErr()).toBe("has an unknown placeholder (allowed: {{.UserID}}, {{.Code}}, {{.OrgID}})");
      expect(parseUrlTemplate(passkeyLink, LINK_PLACEHOLDERS).isErr()).toBe(true);
      expect(parseUrlTemplate(passkeyLink, [...PASSKEY_LINK_PLACEHOLDERS]).isOk()).toBe(true);
      expect(parseUrlTemplate(link, ["Code"])._unsafeUnwrapErr()).toBe("has an unknown placeholder (allowed: {{.Code}})");
      expect(parseUrlTemplate(link, ["Code", "UserID", "OrgID"]).isOk()).toBe(true);
    }
  });

  it("gives the same parts from the cache as on the first parse", () => {
    const first = parseUrlTemplate(link)._unsafeUnwrap();
    const again = parseUrlTemplate(`${"https://app.example/verify?user={{.UserID}}"}&code={{ .Code }}&org={{.OrgID}}`)._unsafeUnwrap();
    expect(again).toEqual(first);
    expect(renderUrlTemplate(again, { UserID: "u 1", Code: "K7&Q", OrgID: "o" })).toBe("https://app.example/verify?user=u%201&code=K7%26Q&org=o");
    expect(parseUrlTemplate("https://app.example/{x}")._unsafeUnwrapErr()).toBe("has unbalanced braces");
    expect(parseUrlTemplate("/relative?code={{.Code}}")._unsafeUnwrapErr()).toBe("must give an absolute http or https URL");
  });
});

describe("link templates with white space", () => {
  it("are refused, as no URL holds white space: a mail client would end the link there, before the code", () => {
    for (const template of ["https://a.example/ x?c={{.Code}}", "https://a.example/x?c={{.Code}} ", "https://a.example/\u00a0x?c={{.Code}}", "https://a.example/x\u2028?c={{.Code}}", "https://a.example/x?c={{.Code}}\u3000"]) {
      expect({ template, parsed: parseUrlTemplate(template)._unsafeUnwrapErr() }).toEqual({ template, parsed: "must give an absolute http or https URL" });
    }
    expect(parseUrlTemplate("https://bücher.example/x?c={{.Code}}").isOk()).toBe(true);
  });
});
