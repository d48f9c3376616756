import { describe, expect, it } from "vitest";
import { claimKey, firstRepeatedClaim } from "../../src/core/claims.js";
import type { UniqueClaim } from "../../src/index.js";

const claim = (kind: string, key: string, scope = ""): UniqueClaim => ({ kind, scope, key }) as UniqueClaim;

describe("firstRepeatedClaim", () => {
  it("finds the first claim taken twice in a short list, by kind, scope and key together", () => {
    const again = claim("username", "ann");
    expect(firstRepeatedClaim([claim("user_id", "u1"), claim("username", "ann"), claim("username", "ann", "org-a"), again])).toBe(again);
    expect(firstRepeatedClaim([claim("user_id", "ann"), claim("username", "ann"), claim("username", "ann", "org-a")])).toBeUndefined();
    expect(firstRepeatedClaim([])).toBeUndefined();
  });

  it("finds it in a long list too, and uses the keys a caller made", () => {
    const many = Array.from({ length: 20 }, (_, index) => claim("idp_link", `account-${index}`));
    expect(firstRepeatedClaim(many)).toBeUndefined();
    const again = claim("idp_link", "account-3");
    expect(firstRepeatedClaim([...many, again])).toBe(again);
    const keys = many.map(claimKey);
    expect(firstRepeatedClaim(many, keys)).toBeUndefined();
    // The keys decide: two different claims given the same key are the same claim.
    expect(firstRepeatedClaim(many.slice(0, 3), ["a", "b", "a"])).toBe(many[2]);
    expect(firstRepeatedClaim(many, [...keys.slice(0, 19), "a"].map((key, index) => (index === 5 ? "a" : key)))).toBe(many[19]);
  });
});
