import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { argon2idHasher, bcryptHasher, useNativeImplementations, verifyPassword } from "../../src/passwords/index.js";

/** Milliseconds of CPU this process has used, on every thread. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs `work` while a 1 ms interval measures the longest gap between its ticks. A gap counts
 * only as far as this process was using the CPU during it: on a busy machine (parallel test
 * files, other jobs) the OS may park the whole process for longer than our slices, and that is
 * not our code holding the event loop. The bench measures the plain wall-clock stall.
 */
async function longestStall(work: () => unknown): Promise<number> {
  let lastWall = performance.now();
  let lastCpu = cpuMs();
  let longest = 0;
  const tick = (): void => {
    const wall = performance.now();
    const cpu = cpuMs();
    longest = Math.max(longest, Math.min(wall - lastWall, cpu - lastCpu));
    lastWall = wall;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, 1);
  try {
    await work();
    // The stretch since the last tick counts too: a loop blocked until the end never ticked.
    tick();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

/** The longest stall while `hash` is verified, which must run to an answer (not be refused). */
async function stallVerifying(hash: string, password: string): Promise<number> {
  let verified = false;
  const stall = await longestStall(async () => {
    verified = (await verifyPassword(hash, password)).isOk();
  });
  expect(verified).toBe(true);
  return stall;
}

// One-time costs (module loading, the JIT compiling the loops) are not what these tests are about.
beforeAll(async () => {
  await verifyPassword("$6$rounds=1000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1", "x");
  await verifyPassword("$P$512345678si5M0DDyPpmRCmcltU/YW/", "x");
  await verifyPassword("$2b$04$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u", "x");
  useNativeImplementations(false);
  await verifyPassword("$6$rounds=1000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1", "p".repeat(200));
  await verifyPassword("$scrypt$ln=10,r=8,p=1$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofI", "x");
  await verifyPassword((await argon2idHasher({ memoryKiB: 64, time: 1 }).hash("x")), "x");
  useNativeImplementations(true);
});

afterEach(() => {
  useNativeImplementations(true);
});

// Generous limit: the slices are 4 ms, the rest is timer and scheduler jitter on a busy machine.
const STALL_LIMIT_MS = 25;

describe("the event loop keeps running during pure-JS work", { retry: 2 }, () => {
  it("SHA-512-crypt with 100,000 rounds", async () => {
    const hash = "$6$rounds=100000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";
    expect(await longestStall(() => verifyPassword(hash, "x"))).toBeLessThan(STALL_LIMIT_MS);
  });

  it("SHA-512-crypt with a 1024-byte password, pure JS (its set-up hashes the password 1024 times)", async () => {
    useNativeImplementations(false);
    const hash = "$6$rounds=1000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";
    expect(await longestStall(() => verifyPassword(hash, "p".repeat(1024)))).toBeLessThan(STALL_LIMIT_MS);
  });

  it("bcrypt at cost 10, two at once", async () => {
    const hash = "$2a$10$WvvTPHKwdBJ3uk0Z37EMR.hLA2W6N9AEBhEgrAOljy2Ae5MtaSIUi";
    const both = () => Promise.all([verifyPassword(hash, "abc"), verifyPassword(hash, "abd")]);
    expect(await longestStall(both)).toBeLessThan(STALL_LIMIT_MS);
  });

  it("eight bcrypt verifications at once: their slices take turns with the rest of the loop", async () => {
    const hash = "$2b$08$k87L/MF28Q673VKh8/cPi.SUl7MU/rWuSiIDDFayrKk/1tBsSQu4u";
    const eight = () => Promise.all(Array.from({ length: 8 }, () => verifyPassword(hash, "a")));
    expect(await longestStall(eight)).toBeLessThan(STALL_LIMIT_MS);
  });

  it("eight pure-JS scrypt verifications at once", async () => {
    useNativeImplementations(false);
    const hash = "$scrypt$ln=11,r=8,p=1$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofI";
    const eight = () => Promise.all(Array.from({ length: 8 }, () => verifyPassword(hash, "x")));
    expect(await longestStall(eight)).toBeLessThan(STALL_LIMIT_MS);
  });

  it("hashing with bcrypt at cost 10", async () => {
    expect(await longestStall(() => bcryptHasher().hash("pw"))).toBeLessThan(STALL_LIMIT_MS);
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

  it("scrypt in pure JS with p = 2^16: the PBKDF2 that fills the lanes, and the one that hashes them back", async () => {
    useNativeImplementations(false);
    const hash = "$scrypt$ln=1,r=1,p=65536$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofI";
    expect(await stallVerifying(hash, "x")).toBeLessThan(STALL_LIMIT_MS);
  });

  it("scrypt in pure JS with r = 2^15: one BlockMix is 2^16 Salsa20/8 cores", async () => {
    useNativeImplementations(false);
    const hash = "$scrypt$ln=2,r=32768,p=1$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofI";
    expect(await stallVerifying(hash, "x")).toBeLessThan(STALL_LIMIT_MS);
  });

  it("scrypt in pure JS (no node:crypto)", async () => {
    useNativeImplementations(false);
    const hash = "$scrypt$ln=14,r=8,p=1$U29kaXVtQ2hsb3JpZGU$cCO9yzr9c0hGHAbNgf046/2o+7qQT44+qbVD9lRdofI";
    expect(await longestStall(() => verifyPassword(hash, "x"))).toBeLessThan(STALL_LIMIT_MS);
  });
});
