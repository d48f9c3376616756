// Password hashing: our verifiers against native references measured in the same run, the
// default hasher's throughput with one and two concurrent callers, and the event loop's longest
// stall while eight hashes run. Run with `npm run bench -- passwords`.
import { hash as argon2NativeHash, verify as argon2NativeVerify } from "@node-rs/argon2";
import { hash as bcryptNativeHash, verify as bcryptNativeVerify } from "@node-rs/bcrypt";
import { pbkdf2 as nodePbkdf2, randomBytes, scrypt as nodeScrypt } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import {
  argon2idHasher,
  bcryptHasher,
  defaultPasswordHasher,
  pbkdf2Sha256Hasher,
  scryptHasher,
  useNativeImplementations,
  verifyPassword,
  type PasswordHasher,
} from "../src/passwords/index.js";

const PASSWORD = "correct horse battery staple";

async function medianMs(runs: number, task: () => Promise<unknown>): Promise<number> {
  await task(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

async function ours(hash: string): Promise<void> {
  const result = await verifyPassword(hash, PASSWORD);
  if (result.isErr() || !result.value.valid) throw new Error("bench hash did not verify");
}

function nodeScryptOnce(): Promise<unknown> {
  return new Promise((resolve, reject) => {
    nodeScrypt(PASSWORD, randomBytes(16), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function nodePbkdf2Once(): Promise<unknown> {
  return new Promise((resolve, reject) => {
    nodePbkdf2(PASSWORD, randomBytes(16), 600_000, 32, "sha256", (error, key) => (error ? reject(error) : resolve(key)));
  });
}

interface Row {
  readonly family: string;
  readonly ours: number;
  readonly reference?: string;
  readonly native?: number;
}

function printRows(rows: readonly Row[]): void {
  console.log("| family (parameters) | ours ms | native reference | native ms | ours / native |");
  console.log("|---|---:|---|---:|---:|");
  for (const row of rows) {
    const ratio = row.native === undefined ? "" : (row.ours / row.native).toFixed(2);
    console.log(`| ${row.family} | ${row.ours.toFixed(1)} | ${row.reference ?? "(none)"} | ${row.native?.toFixed(1) ?? ""} | ${ratio} |`);
  }
}

async function verificationTable(): Promise<void> {
  const argon2Hash = await argon2NativeHash(PASSWORD, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const bcryptHash = await bcryptNativeHash(PASSWORD, { cost: 10 });
  const scryptHash = await scryptHasher().hash(PASSWORD);
  const pbkdf2Hash = await pbkdf2Sha256Hasher().hash(PASSWORD);
  const legacy = {
    "md5-crypt ($1$, 1000 rounds)": await hashLegacy("$1$"),
    "sha512-crypt ($6$, 5000 rounds)": await hashLegacy("$6$"),
    "sha256-crypt ($5$, rounds=535000)": await hashLegacy("$5$"),
    "phpass ($P$, 2^13)": await hashLegacy("$P$"),
    "drupal7 ($S$, 2^15)": await hashLegacy("$S$"),
  };
  const rows: Row[] = [
    { family: "bcrypt (cost 10)", ours: await medianMs(5, () => ours(bcryptHash)), reference: "@node-rs/bcrypt", native: await medianMs(5, () => bcryptNativeVerify(PASSWORD, bcryptHash)) },
    { family: "argon2id (m=19456,t=2,p=1)", ours: await medianMs(7, () => ours(argon2Hash)), reference: "@node-rs/argon2", native: await medianMs(7, () => argon2NativeVerify(argon2Hash, PASSWORD)) },
    { family: "scrypt (N=2^17,r=8,p=1)", ours: await medianMs(5, () => ours(scryptHash)), reference: "node:crypto scrypt", native: await medianMs(5, nodeScryptOnce) },
    { family: "pbkdf2-sha256 (600000)", ours: await medianMs(5, () => ours(pbkdf2Hash)), reference: "node:crypto pbkdf2", native: await medianMs(5, nodePbkdf2Once) },
  ];
  for (const [family, hash] of Object.entries(legacy)) rows.push({ family, ours: await medianMs(5, () => ours(hash)) });
  useNativeImplementations(false);
  rows.push({ family: "argon2id pure JS fallback (m=19456,t=2,p=1)", ours: await medianMs(3, () => ours(argon2Hash)), reference: "@node-rs/argon2", native: rows[1]?.native ?? Number.NaN });
  rows.push({ family: "scrypt pure JS fallback (N=2^17,r=8,p=1)", ours: await medianMs(3, () => ours(scryptHash)), reference: "node:crypto scrypt", native: rows[2]?.native ?? Number.NaN });
  useNativeImplementations(true);
  printRows(rows);
}

/** Hashes of PASSWORD for the legacy families ($1$, $5$, $6$ checked against glibc crypt). */
const LEGACY: Readonly<Record<string, string>> = {
  "$1$": "$1$saltsalt$BsXyQbZiQujHkdhwPwdol.",
  "$6$": "$6$saltstring$qvPJY4PeugKzKQqyIJ0gRdJnpS0uaaiZ.X1SaheFedsK/yZPwlluTLS90fJPM41sD5JxCHKgGr1..qt5HqEY8.",
  "$5$": "$5$rounds=535000$saltstring$Wyr2kATx292FtOgZD4jNyjT8ilIUlZyjvhVVBP0M3MA",
  "$P$": "$P$BsaltsaltQzFfSQXmLYYwGZyj3dUJh.",
  "$S$": "$S$Dsaltsalt2Bndpr2kcohKNp4aHvhlno13H/9REUdpwZpKQmQfyEl",
};

async function hashLegacy(prefix: string): Promise<string> {
  const hash = LEGACY[prefix] ?? "";
  const result = await verifyPassword(hash, PASSWORD);
  if (result.isErr() || !result.value.valid) throw new Error(`fixture for ${prefix} does not verify; regenerate it`);
  return hash;
}

/** Hashes per second with `callers` concurrent callers, each hashing `each` passwords in turn. */
async function throughput(hasher: PasswordHasher, callers: number, each: number): Promise<number> {
  await hasher.hash(PASSWORD);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (let i = 0; i < each; i++) await hasher.hash(PASSWORD);
    }),
  );
  return (callers * each * 1000) / (performance.now() - started);
}

/** Longest event-loop stall (ms) while `count` hashes run at once. */
async function stallWhileHashing(hasher: PasswordHasher, count: number): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  histogram.enable();
  await Promise.all(Array.from({ length: count }, () => hasher.hash(PASSWORD)));
  longest = Math.max(longest, performance.now() - last);
  histogram.disable();
  clearInterval(timer);
  return Math.max(longest, histogram.max / 1e6);
}

async function hasherTable(): Promise<void> {
  const candidates: readonly (readonly [string, PasswordHasher, () => Promise<unknown>])[] = [
    ["scrypt N=2^17,r=8,p=1", scryptHasher(), nodeScryptOnce],
    ["argon2id m=19456,t=2,p=1", argon2idHasher(), () => argon2NativeHash(PASSWORD, { memoryCost: 19_456, timeCost: 2, parallelism: 1 })],
    ["bcrypt cost 10", bcryptHasher(), () => bcryptNativeHash(PASSWORD, { cost: 10 })],
    ["pbkdf2-sha256 600000", pbkdf2Sha256Hasher(), nodePbkdf2Once],
  ];
  console.log(`\ndefault hasher: ${defaultPasswordHasher.name}\n`);
  console.log("| hasher (OWASP setting) | hash ms | native ms | ours / native | hashes/s, 1 caller | hashes/s, 2 callers | 2 / 1 | longest stall, 8 at once (ms) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const [name, hasher, native] of candidates) {
    const hashMs = await medianMs(5, () => hasher.hash(PASSWORD));
    const nativeMs = await medianMs(5, native);
    const one = await throughput(hasher, 1, 8);
    const two = await throughput(hasher, 2, 8);
    const stall = await stallWhileHashing(hasher, 8);
    console.log(
      `| ${name}${hasher === defaultPasswordHasher || hasher.name === defaultPasswordHasher.name ? " (default)" : ""} | ${hashMs.toFixed(1)} | ${nativeMs.toFixed(1)} | ${(hashMs / nativeMs).toFixed(2)} | ${one.toFixed(1)} | ${two.toFixed(1)} | ${(two / one).toFixed(2)} | ${stall.toFixed(1)} |`,
    );
  }
}

const started = performance.now();
await verificationTable();
await hasherTable();
console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(0)} s)`);
