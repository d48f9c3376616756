import { describe, expect, it } from "vitest";
import { codeSpec, defaultCodeSpecs, generateCode } from "../../src/core/secrets/codes.js";
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

/** Always the same byte; throws once it has been asked `limit` times, so that a loop without a bound fails instead of hanging. */
function stuckRandom(byte: number, limit = 1000): RandomSource & { fills: number } {
  const source = {
    fills: 0,
    fill(target: Uint8Array) {
      source.fills += 1;
      if (source.fills > limit) throw new Error("still drawing");
      return target.fill(byte);
    },
  };
  return source;
}

describe("generateCode's bounds", () => {
  it("gives up after 64 refills of a random source whose bytes are all refused", () => {
    const random = stuckRandom(0xff);
    expect(() => generateCode(defaultCodeSpecs.email, random)).toThrow(new Error("the random source gave no usable bytes"));
    expect(random.fills).toBe(64);
  });

  it("refuses an alphabet it cannot draw from without bias, before drawing", () => {
    const refusal = new RangeError("a code alphabet needs 2 to 256 distinct characters");
    for (const alphabet of ["", "A", "AA", "x".repeat(300), Array.from({ length: 257 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("")]) {
      const random = stuckRandom(0);
      expect(() => generateCode({ length: 6, alphabet, lifetimeSeconds: 60 }, random)).toThrow(refusal);
      expect(random.fills).toBe(0);
    }
  });

  it("refuses a length outside 1 to 64", () => {
    for (const length of [0, -1, 1.5, 65, Number.NaN]) {
      expect(() => generateCode({ length, alphabet: "AB", lifetimeSeconds: 60 }, stuckRandom(0))).toThrow(new RangeError("a code length is a whole number from 1 to 64"));
    }
  });

  it("draws whole characters from an alphabet beyond the Basic Multilingual Plane", () => {
    // 0, 1, 2, 3 mod 2: the first, second, first, second emoji.
    expect(generateCode({ length: 4, alphabet: "😀😁", lifetimeSeconds: 60 }, scriptedRandom([0, 1, 2, 3]))).toBe("😀😁😀😁");
  });

  it("draws from all 256 characters of a full alphabet, every byte usable", () => {
    const alphabet = Array.from({ length: 256 }, (_, i) => String.fromCodePoint(0x100 + i)).join("");
    expect(generateCode({ length: 3, alphabet, lifetimeSeconds: 60 }, scriptedRandom([255, 0, 128]))).toBe("\u01ff\u0100\u0180");
  });
});

describe("codeSpec", () => {
  it("takes each configured member over the default, and a member given as undefined keeps the default", () => {
    const config = { codes: { email: { length: 8, alphabet: undefined } } } as unknown as Parameters<typeof codeSpec>[0];
    expect(codeSpec(config, "email")).toEqual({ length: 8, alphabet: defaultCodeSpecs.email.alphabet, lifetimeSeconds: 3600 });
  });
});
