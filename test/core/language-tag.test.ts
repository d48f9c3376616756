// Preferred languages are stored in canonical form: what Intl canonicalizes, and the RFC 5646
// forms it does not take (grandfathered tags, extended language subtags, private use alone).
import { describe, expect, it } from "vitest";
import { canonicalLanguageTag } from "../../src/core/rules/language-tag.js";

describe("canonicalLanguageTag", () => {
  it.each([
    ["de-ch", "de-CH"],
    [" EN ", "en"],
    ["sr-latn-rs", "sr-Latn-RS"],
    ["i-klingon", "tlh"],
    ["I-KLINGON", "tlh"],
    ["en-GB-oed", "en-GB-oxendict"],
    ["sgn-BE-FR", "sfb"],
    ["art-lojban", "jbo"],
    ["no-bok", "nb"],
    ["zh-min-nan", "nan"],
    ["zh-yue", "yue"],
    ["zh-yue-HK", "yue-HK"],
    ["sgn-ase", "ase"],
    ["ar-aao", "aao"],
    ["i-default", "i-default"],
    ["zh-min", "zh-min"],
    ["x-private", "x-private"],
    ["X-Foo-Bar", "x-foo-bar"],
    ["en-x-foo", "en-x-foo"],
  ])("stores %j as %j", (given, stored) => {
    expect(canonicalLanguageTag(given)).toBe(stored);
  });

  it.each(["", "  ", "not a tag", "en_US!", "x-", "x-toolongsubtag", "zh-cmn-", "12-abc", "i-unknown", "__proto__", "constructor", "hasOwnProperty"])("stores %j, which does not parse, as und", (given) => {
    expect(canonicalLanguageTag(given)).toBe("und");
  });

  it("writes zh-cmn as Intl writes cmn, its registry form", () => {
    expect(canonicalLanguageTag("zh-cmn")).toBe(canonicalLanguageTag("cmn"));
  });
});
