import { describe, expect, it } from "vitest";
import { PI_FRACTION_HEX } from "../../src/passwords/primitives/blowfish-pi.js";

/** arctan(1/x) scaled by `one`, by its alternating series. */
function arctanInverse(x: bigint, one: bigint): bigint {
  let sum = 0n;
  let term = one / x;
  for (let n = 1n, sign = 1n; term !== 0n; n += 2n, sign = -sign, term /= x * x) sum += (sign * term) / n;
  return sum;
}

describe("Blowfish's initial state", () => {
  it("is the fractional part of pi in hex, as Machin's formula computes it", () => {
    const digits = PI_FRACTION_HEX.length;
    const guardBits = 64n;
    const one = 1n << (BigInt(digits * 4) + guardBits);
    const pi = 4n * (4n * arctanInverse(5n, one) - arctanInverse(239n, one));
    const fraction = (pi - 3n * one) >> guardBits;
    expect(digits).toBe((18 + 4 * 256) * 8);
    expect(PI_FRACTION_HEX).toBe(fraction.toString(16).padStart(digits, "0"));
  });
});
