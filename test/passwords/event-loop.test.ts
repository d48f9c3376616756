import { afterEach, describe, expect, it } from "vitest";
import { argon2idHasher, useNativeImplementations, verifyPassword } from "../../src/passwords/index.js";

/** Runs `work` while a 1 ms interval measures the longest gap between its ticks. */
async function longestStall(work: () => unknown): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
    // The stretch since the last tick counts too: a loop blocked until the end never ticked.
    longest = Math.max(longest, performance.now() - last);
  } finally {
    clearInterval(timer);
  }
  return longest;
}

afterEach(() => {
  useNativeImplementations(true);
});

// Generous limit: the slices are 4 ms, the rest is timer and scheduler jitter on a busy machine.
const STALL_LIMIT_MS = 25;

describe("the event loop keeps running during pure-JS work", () => {
  it("SHA-512-crypt with 100,000 rounds", async () => {
    const hash = "$6$rounds=100000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";
    expect(await longestStall(() => verifyPassword(hash, "x"))).toBeLessThan(STALL_LIMIT_MS);
  });

  it("phpass with 2^16 rounds", async () => {
    expect(await longestStall(() => verifyPassword("$P$E12345678si5M0DDyPpmRCmcltU/YW/", "x"))).toBeLessThan(STALL_LIMIT_MS);
  });

  it("argon2id in pure JS (no native binding)", async () => {
    const hasher = argon2idHasher({ memoryKiB: 4096, time: 2 });
    const encoded = await hasher.hash("pw");
    useNativeImplementations(false);
    expect(await longestStall(() => verifyPassword(encoded, "pw"))).toBeLessThan(STALL_LIMIT_MS);
  });

  it("scrypt in pure JS (no node:crypto)", async () => {
    useNativeImplementations(false);
    const hash = "$scrypt$ln=14,r=8,p=1$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofI";
    expect(await longestStall(() => verifyPassword(hash, "x"))).toBeLessThan(STALL_LIMIT_MS);
  });
});
