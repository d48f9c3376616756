// The spelling check without decoding must accept exactly the strings decoding accepts.
import { describe, expect, it } from "vitest";
import { ADAPTED_ALPHABET, BCRYPT_ALPHABET, decodeRadix64, isCanonicalRadix64, STANDARD_ALPHABET } from "../../src/passwords/encoding/radix64.js";

/** A small deterministic generator, so that a failure names a string that can be tried again. */
function stepping(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe.each([
  ["bcrypt", BCRYPT_ALPHABET],
  ["standard", STANDARD_ALPHABET],
  ["adapted", ADAPTED_ALPHABET],
])("isCanonicalRadix64 with the %s alphabet", (_name, alphabet) => {
  it("agrees with decoding (padding forbidden) on every length up to 40, canonical or not, with stray characters and padding", () => {
    const random = stepping(7);
    const extra = `${alphabet}=!é\u0000`;
    for (let length = 0; length <= 40; length++) {
      for (let trial = 0; trial < 200; trial++) {
        const pool = trial % 4 === 0 ? extra : alphabet;
        const text = Array.from({ length }, () => pool[Math.floor(random() * pool.length)]).join("");
        expect([text, isCanonicalRadix64(text, alphabet)]).toEqual([text, decodeRadix64(text, alphabet, "forbidden") !== undefined]);
      }
    }
  });

  it("refuses a last character with spare bits set, and accepts it with them clear", () => {
    // 22 characters (a bcrypt salt): 4 spare bits; 31 (a checksum): 2.
    expect(isCanonicalRadix64(`${alphabet[0]?.repeat(21)}${alphabet[16]}`, alphabet)).toBe(true);
    expect(isCanonicalRadix64(`${alphabet[0]?.repeat(21)}${alphabet[1]}`, alphabet)).toBe(false);
    expect(isCanonicalRadix64(`${alphabet[0]?.repeat(30)}${alphabet[4]}`, alphabet)).toBe(true);
    expect(isCanonicalRadix64(`${alphabet[0]?.repeat(30)}${alphabet[2]}`, alphabet)).toBe(false);
  });
});
