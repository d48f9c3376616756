import { describe, expect, it } from "vitest";
import { defaultCodeSpecs, generateCode } from "../../src/core/secrets/codes.js";
import type { RandomSource } from "../../src/index.js";

/** Hands out the given bytes in order, then zeros. */
function scriptedRandom(bytes: number[]): RandomSource {
  const queue = [...bytes];
  return {
    fill: (target) => {
      for (let i = 0; i < target.length; i++) target[i] = queue.shift() ?? 0;
      return target;
    },
  };
}

describe("generateCode", () => {
  it("uses the contract's alphabets and lengths", () => {
    expect(defaultCodeSpecs).toEqual({
      email: { length: 6, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", lifetimeSeconds: 3600 },
      phone: { length: 6, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", lifetimeSeconds: 3600 },
      init: { length: 6, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", lifetimeSeconds: 259200 },
      passwordless: { length: 12, alphabet: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", lifetimeSeconds: 3600 },
      // The password reset code: 6 characters, one hour (the numbers).
      passwordReset: { length: 6, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", lifetimeSeconds: 3600 },
    });
  });

  it("throws away bytes at or above the last whole multiple of the alphabet size (no modulo bias)", () => {
    // 36 symbols: 252 = 7 * 36, so 252..255 are dropped and 251 is the last byte used.
    const code = generateCode(defaultCodeSpecs.email, scriptedRandom([252, 253, 254, 255, 251, 0, 35, 36, 71, 1]));
    expect(code).toBe("9A9A9B");
  });

  it("draws again when a whole buffer is refused", () => {
    const refused = Array.from({ length: 16 }, () => 255);
    expect(generateCode(defaultCodeSpecs.email, scriptedRandom([...refused, 1, 2, 3, 4, 5, 6]))).toBe("BCDEFG");
  });

  it("spreads evenly over the alphabet with a real random source", () => {
    const counts = new Map<string, number>();
    const random = { fill: (bytes: Uint8Array) => crypto.getRandomValues(bytes) };
    for (let i = 0; i < 6000; i++) for (const char of generateCode(defaultCodeSpecs.email, random)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // 36,000 draws: 1,000 expected per symbol; 5 standard deviations is about 160.
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(160);
  });
});
