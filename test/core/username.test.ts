// The username's claim key (unique ignoring case: NFKC_Casefold) and the domain the reserved-domain
// rule looks up.
import { describe, expect, it } from "vitest";
import { usernameClaimKey, usernameDomain } from "../../src/core/rules/username.js";

describe("usernameClaimKey", () => {
  it.each([
    ["ΑΣ", "ασ", "ασ"],
    ["ΌΣΟΣ", "όσοσ", "όσοσ"],
    ["ΌΣΟΣ", "όσος", "όσοσ"],
    ["STRASSE", "straße", "strasse"],
    ["STRAẞE", "Strasse", "strasse"],
    ["ſam", "sam", "sam"],
    ["ﬁx", "FIX", "fix"],
    ["ＡＮＮ", "ann", "ann"],
    ["Ⅻ", "xii", "xii"],
    ["ǅemal", "DŽEMAL", "d\u017eemal"],
    ["ᾼ", "ΑΙ", "αι"],
    ["ann\u200b", "ann", "ann"],
    ["a\u00adnn", "ANN", "ann"],
    ["ann\ufe0f", "ann", "ann"],
    ["ann＠acme.test", "ANN@acme.test", "ann@acme.test"],
    ["x²", "X2", "x2"],
  ])("gives %j and %j the same key %j", (one, other, key) => {
    expect([usernameClaimKey(one), usernameClaimKey(other)]).toEqual([key, key]);
  });

  // Unicode's default folding, not the Turkic one: the dotless ı and the dotted İ stay apart from i.
  it.each([
    ["ı", "i", "ı", "i"],
    ["İ", "I", "i\u0307", "i"],
    ["straße", "strase", "strasse", "strase"],
    ["á", "a", "á", "a"],
    ["\u0430nn", "ann", "\u0430nn", "ann"],
  ])("keeps %j and %j apart (%j, %j)", (one, other, oneKey, otherKey) => {
    expect([usernameClaimKey(one), usernameClaimKey(other)]).toEqual([oneKey, otherKey]);
  });

  it("lower-cases ASCII and leaves everything else of it alone", () => {
    expect(usernameClaimKey("Ann.Lee+News_1@ACME.test")).toBe("ann.lee+news_1@acme.test");
  });

  it("returns NFC text, and the key of a key is the key itself", () => {
    for (const username of ["Jose\u0301", "JOSÉ", "ΌΣΟΣ", "STRAẞE", "ǅemal", "ᾼ\u0301", "a\u0345\u0301", "山田", "Ꮳꮳ", "ﬀ"]) {
      const key = usernameClaimKey(username);
      expect([key.normalize("NFC"), usernameClaimKey(key)]).toEqual([key, key]);
    }
  });

  it("gives a lower-cased name the key of the name, so an old lower-cased key can be recomputed", () => {
    for (const username of ["ΌΣΟΣ", "İSTANBUL", "STRAẞE", "ǄEMAL", "ΑΣ ΑΣ", "ᾼ", "ＡＮＮ", "Ꮳ"]) {
      expect(usernameClaimKey(username.toLowerCase())).toBe(usernameClaimKey(username));
    }
  });
});

describe("usernameDomain", () => {
  it.each([
    ["ann@acme.test", "acme.test"],
    ["Ann@ACME.Test", "acme.test"],
    ["ann@acme.test.", "acme.test"],
    ["ann@acme.test..", "acme.test"],
    ["ann＠acme.test", "acme.test"],
    ["ann﹫acme.test", "acme.test"],
    ["ann@acme．test", "acme.test"],
    ["ann@acme。test", "acme.test"],
    ["ann@acme｡test", "acme.test"],
    ["ann@ａｃｍｅ.ｔｅｓｔ", "acme.test"],
    ["ann@ac\u00adme.test", "acme.test"],
    ["ann@acme.test\u200b", "acme.test"],
    ["ann@ACME.test\u3002", "acme.test"],
    ["a@b@acme.test", "acme.test"],
    ["@acme.test", "acme.test"],
    ["ann@bücher.example", "bücher.example"],
    ["ann@BU\u0308CHER.example", "bücher.example"],
  ])("reads the domain of %j as %j", (username, domain) => {
    expect(usernameDomain(username)?.canonical).toBe(domain);
  });

  // IDNA2008 registers ß and ς as letters of their own: straße.example is not strasse.example.
  it.each([
    ["ann@straße.example", "straße.example"],
    ["ann@STRAẞE.example", "straße.example"],
    ["ann@STRASSE.example", "strasse.example"],
    ["ann@ΟΔΟΣ.example", "οδοσ.example"],
    ["ann@οδος.example", "οδος.example"],
  ])("keeps the letters IDNA keeps apart: %j has the domain %j", (username, domain) => {
    expect(usernameDomain(username)?.canonical).toBe(domain);
  });

  it("keeps the domain as written beside it, for stores that lower letters their own way", () => {
    expect(usernameDomain("ann@İZMİR.test")).toEqual({ written: "İZMİR.test", canonical: "i\u0307zmi\u0307r.test" });
    expect(usernameDomain("ann＠ＡＣＭＥ.test.")).toEqual({ written: "ACME.test.", canonical: "acme.test" });
  });

  it.each(["ann", "ann@", "ann@.", "ann@...", "ann@\u200b", "ann＠"])("finds no domain in %j", (username) => {
    expect(usernameDomain(username)).toBeUndefined();
  });
});
