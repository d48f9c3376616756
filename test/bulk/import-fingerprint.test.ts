// What the import fingerprint compares: every field of the normalized request and the
// organization, the email ignoring case, a password hash as given, but never a plain password's
// text; and the rule of 0.2.0 (v1), kept to recognize the users it imported.
import { describe, expect, it } from "vitest";
import type { UserDraft } from "../../src/core/user-draft.js";
import { foldUser } from "../../src/core/users/fold-user.js";
import { fingerprintsOf, importFingerprint } from "../../src/core/users/import-fingerprint.js";
import { BCRYPT_HASH } from "../operations/support/import-fixtures.js";

const draft: UserDraft = {
  username: "ann",
  profile: { givenName: "Ann", familyName: "Lee", nickName: "", displayName: "Ann Lee", preferredLanguage: "und", gender: "GENDER_UNSPECIFIED" },
  email: { address: "ann@acme.test", verified: true, codeDelivery: "none" },
  metadata: [],
  password: { kind: "hashed", encoded: BCRYPT_HASH, changeRequired: false },
  idpLinks: [{ idpId: "idp-global", externalUserId: "ann-1", displayName: "" }],
  passwordlessRegistration: false,
};

describe("importFingerprint", () => {
  it("is the same for the same request and organization, and never holds the request's text", () => {
    expect(importFingerprint({ ...draft }, "acme")).toBe(importFingerprint(draft, "acme"));
    expect(importFingerprint(draft, "acme")).toMatch(/^v3\.[A-Za-z0-9_-]{43}$/);
  });

  it("compares a username that is the email address ignoring case, as the email (a row that gives none), and any other as stored", () => {
    const fromEmail = (address: string): UserDraft => ({ ...draft, username: address, email: { ...draft.email, address } });
    expect(importFingerprint(fromEmail("ANN@acme.test"), "acme")).toBe(importFingerprint(fromEmail("ann@acme.test"), "acme"));
    expect(importFingerprint(fromEmail("STRASSE@acme.test"), "acme")).toBe(importFingerprint(fromEmail("straße@acme.test"), "acme"));
    // A given username that is the email in another case is the same person too.
    expect(importFingerprint({ ...fromEmail("ann@acme.test"), username: "Ann@Acme.test" }, "acme")).toBe(importFingerprint(fromEmail("ann@acme.test"), "acme"));
    // Any other username is compared as stored, case and all; and under v2 every username is.
    expect(importFingerprint({ ...draft, username: "Ann" }, "acme")).not.toBe(importFingerprint(draft, "acme"));
    expect(importFingerprint(fromEmail("ANN@acme.test"), "acme", "v2")).not.toBe(importFingerprint(fromEmail("ann@acme.test"), "acme", "v2"));
  });

  it("changes with the organization and with every field it compares", () => {
    const variants: UserDraft[] = [
      { ...draft, username: "Ann" },
      { ...draft, profile: { ...draft.profile, givenName: "Anne" } },
      { ...draft, profile: { ...draft.profile, familyName: "Li" } },
      { ...draft, profile: { ...draft.profile, nickName: "annie" } },
      { ...draft, profile: { ...draft.profile, displayName: "A. Lee" } },
      { ...draft, profile: { ...draft.profile, preferredLanguage: "de" } },
      { ...draft, profile: { ...draft.profile, gender: "GENDER_FEMALE" } },
      { ...draft, email: { ...draft.email, address: "other@acme.test" } },
      { ...draft, email: { ...draft.email, verified: false } },
      { ...draft, phone: { number: "+41791234567", verified: true, codeDelivery: "none" } },
      { ...draft, password: { kind: "hashed", encoded: `${BCRYPT_HASH.slice(0, -1)}x`, changeRequired: false } },
      { ...draft, password: { kind: "hashed", encoded: BCRYPT_HASH, changeRequired: true } },
      { ...draft, password: { kind: "plain", plain: "Correct-Horse-1", changeRequired: false } },
      { ...draft, idpLinks: [] },
      { ...draft, idpLinks: [{ idpId: "idp-global", externalUserId: "ann-2", displayName: "" }] },
      { ...draft, passwordlessRegistration: true },
    ];
    const prints = [importFingerprint(draft, "acme"), importFingerprint(draft, "globex"), ...variants.map((variant) => importFingerprint(variant, "acme"))];
    expect(new Set(prints).size).toBe(prints.length);
  });

  it("compares a plain password only as being one: its text is not in the digest", () => {
    const plain = (text: string): UserDraft => ({ ...draft, password: { kind: "plain", plain: text, changeRequired: false } });
    expect(importFingerprint(plain("Correct-Horse-1"), "acme")).toBe(importFingerprint(plain("Other-Secret-2"), "acme"));
  });

  it("compares the email ignoring case as listings do (NFKC_Casefold: ß is ss), and nothing else of it", () => {
    const withEmail = (address: string): UserDraft => ({ ...draft, email: { ...draft.email, address } });
    expect(importFingerprint(withEmail("ANN@Acme.TEST"), "acme")).toBe(importFingerprint(draft, "acme"));
    expect(importFingerprint(withEmail("STRASSE@acme.test"), "acme")).toBe(importFingerprint(withEmail("straße@acme.test"), "acme"));
    // Default case folding, not the Turkic one: the dotless ı is another letter.
    expect(importFingerprint(withEmail("kım@acme.test"), "acme")).not.toBe(importFingerprint(withEmail("kim@acme.test"), "acme"));
  });

  it("keeps the rules earlier versions stored (v1: the email as given; v2: every username as stored), to recognize the users they imported", () => {
    // The fingerprints 0.2.0 (v1) and the versions after it (v2) gave this draft: those rules must never change.
    expect(importFingerprint(draft, "acme", "v1")).toBe("v1.YuaM-JwlSJ5zFv0K2Ar7BaiBKwqTJWMK3YXUa8JZhF4");
    expect(importFingerprint(draft, "acme", "v2")).toBe("v2.G-zJQBffN--lFAyL4HWdpjxH6H1FmsSuhtxhGqJDcl4");
    expect(importFingerprint({ ...draft, email: { ...draft.email, address: "ANN@acme.test" } }, "acme", "v1")).not.toBe(importFingerprint(draft, "acme", "v1"));
  });

  it("gives a row's fingerprint by rule, reusing the one its decision made and making another only when asked", () => {
    const fingerprints = fingerprintsOf(draft, "acme", "v3.made-by-the-decision");
    expect(fingerprints("v3")).toBe("v3.made-by-the-decision");
    expect(fingerprints("v2")).toBe("v2.G-zJQBffN--lFAyL4HWdpjxH6H1FmsSuhtxhGqJDcl4");
    expect(fingerprints("v1")).toBe("v1.YuaM-JwlSJ5zFv0K2Ar7BaiBKwqTJWMK3YXUa8JZhF4");
    expect(fingerprintsOf(draft, "acme")("v3")).toBe(importFingerprint(draft, "acme"));
  });

  it("is folded from the added event, and absent from users whose added event has none (created, or imported before it existed)", () => {
    const added = (payload: Record<string, string>) => [
      { type: "user.human.added", aggregateId: "u-1", orgId: "acme", sequence: 1, createdAt: "2026-03-04T05:06:07Z", payload: { userName: "ann", ...payload } },
    ];
    expect(foldUser(added({ importFingerprint: "v1.abc" }))?.importFingerprint).toBe("v1.abc");
    expect(foldUser(added({}))).not.toHaveProperty("importFingerprint");
  });
});
