import { scryptSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { useNativeImplementations, verifyPassword } from "../../src/passwords/index.js";

afterEach(() => {
  useNativeImplementations(true);
});

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64").replace(/=+$/, "");

/** [log2 N, r, p, key bytes, salt]: odd sizes, many lanes, wide blocks, an empty and a long salt. */
const CASES: readonly (readonly [number, number, number, number, string])[] = [
  [4, 1, 1, 16, "s"],
  [10, 8, 1, 32, "SodiumChloride"],
  [1, 3, 5, 17, "odd sizes"],
  [3, 1, 600, 64, ""],
  [2, 32768, 1, 32, "wide blocks"],
  [6, 2, 3, 100, "x".repeat(300)],
];

describe("scrypt, natively and in pure JS, agrees with node:crypto", () => {
  for (const native of [true, false]) {
    it.each(CASES)(`${native ? "native" : "pure JS"}: ln=%i, r=%i, p=%i, %i-byte key`, async (log2n, r, p, keyBytes, salt) => {
      const key = scryptSync("password", salt, keyBytes, { N: 2 ** log2n, r, p, maxmem: 2 ** 30 });
      const hash = `$scrypt$ln=${log2n},r=${r},p=${p}$${b64(Buffer.from(salt))}$${b64(key)}`;
      useNativeImplementations(native);
      expect((await verifyPassword(hash, "password"))._unsafeUnwrap()).toEqual({ valid: true, needsRehash: true });
      expect((await verifyPassword(hash, "passwore"))._unsafeUnwrap()).toEqual({ valid: false, needsRehash: true });
    });
  }
});
