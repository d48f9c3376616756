import { describe, expect, it } from "vitest";
import { canonicalDomain, domainSpellings } from "../../src/core/rules/domain-name.js";
import { decodePunycode } from "../../src/core/rules/punycode.js";

describe("decodePunycode", () => {
  // RFC 3492 section 7.1, samples (A), (B) and (L), and labels every registrar shows.
  it.each([
    ["egbpdaj6bu4bxfgehfvwxn", "ليهمابتكلموشعربي؟"],
    ["ihqwcrb4cv8a8dqg056pqjye", "他们为什么不说中文"],
    ["3B-ww4c5e180e575a65lsy2b", "3年B組金八先生"],
    ["bcher-kva", "bücher"],
    ["strae-oqa", "straße"],
    ["ls8h", "💩"],
    ["a--b-1ra", "a-ü-b"],
  ])("decodes %j as %j", (input, output) => {
    expect(decodePunycode(input)).toBe(output);
  });

  it("decodes every label the runtime's URL parser encodes back to the text", () => {
    for (const text of ["日本語", "παράδειγμα", "mañana", "münchen-ost", "ü-", "ドメイン名例", "مثال", "☃"]) {
      const label = new URL(`http://${text}.test/`).hostname.split(".")[0] ?? "";
      expect(label.startsWith("xn--")).toBe(true);
      expect(decodePunycode(label.slice(4))).toBe(text.normalize("NFC"));
    }
  });

  it.each(["-abc", "bcher-kv!", "99999999999", "ü-kva"])("refuses %j, which is no Punycode of text", (input) => {
    expect(decodePunycode(input)).toBeUndefined();
  });

  it("reads a basic label with an empty extension as the label: valid Punycode, which no A-label uses", () => {
    expect(decodePunycode("a-")).toBe("a");
  });
});

describe("domainSpellings", () => {
  it.each([
    ["acme.test", ["acme.test"]],
    ["bücher.test", ["bücher.test", "xn--bcher-kva.test"]],
    ["xn--bcher-kva.test", ["xn--bcher-kva.test", "bücher.test"]],
    ["XN--BCHER-KVA.TEST", ["xn--bcher-kva.test", "bücher.test"]],
    ["straße.example", ["straße.example", "xn--strae-oqa.example"]],
    ["bücher.xn--strae-oqa", ["bücher.xn--strae-oqa", "xn--bcher-kva.xn--strae-oqa", "bücher.straße"]],
    ["xn--abc.test", ["xn--abc.test"]],
    ["xn--.test", ["xn--.test"]],
    ["bücher.test/x", ["bücher.test/x"]],
    ["bücher@x.test", ["bücher@x.test"]],
  ])("spells %j as %j", (domain, spellings) => {
    expect(domainSpellings(canonicalDomain(domain))).toEqual(spellings);
  });
});
