// Password hashing: our verifiers against native references measured in the same run, the four
// hashers at OWASP's settings (hash time against native, throughput with one and two concurrent
// callers, the event loop's longest stall while eight hashes run), and the default hasher's aims;
// then the cost model (each family's estimate beside its measured time), the hostile hashes the
// budget refuses (time and peak memory with the budget lifted, as before it existed, and with it),
// and the longest stall of every pure-JS path.
// Run with `npm run bench -- passwords`; PASSWORDS_SECTIONS=cost,hostile,stalls (any of
// verify, hashers, cost, hostile, stalls) runs only those sections.
import { hash as argon2NativeHash, verify as argon2NativeVerify } from "@node-rs/argon2";
import { hash as bcryptNativeHash, verify as bcryptNativeVerify } from "@node-rs/bcrypt";
import { spawnSync } from "node:child_process";
import { createCipheriv, createHash, createHmac, pbkdf2 as nodePbkdf2, randomBytes, scrypt as nodeScrypt } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { estimateCostMs } from "../src/passwords/cost.js";
import { ALL_NATIVE, type HashingPaths } from "../src/passwords/primitives/paths.js";
import {
  argon2idHasher,
  bcryptHasher,
  defaultPasswordHasher,
  parsePasswordHash,
  pbkdf2Sha256Hasher,
  scryptHasher,
  useNativeImplementations,
  verifyPassword,
  type PasswordHasher,
} from "../src/passwords/index.js";

const PASSWORD = "correct horse battery staple";
const AIMS = { nativeRatio: 1.2, twoCallerSpeedup: 1.8, stallMs: 20 } as const;

async function medianMs(runs: number, task: () => Promise<unknown> | unknown): Promise<number> {
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

function ours(hash: string, password = PASSWORD): () => Promise<void> {
  return async () => {
    const result = await verifyPassword(hash, password);
    if (result.isErr() || !result.value.valid) throw new Error(`bench hash did not verify: ${hash.slice(0, 12)}`);
  };
}

function callback<T>(run: (done: (error: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))));
}

const nodeScryptOwasp = () => callback((done) => nodeScrypt(PASSWORD, randomBytes(16), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 }, done));
const nodePbkdf2Owasp = () => callback((done) => nodePbkdf2(PASSWORD, randomBytes(16), 600_000, 32, "sha256", done));

/**
 * A native reference run by perl in a child process, timed inside it (so process start-up is not
 * counted): libxcrypt's crypt(3) for the crypt family, and the XS digests of Digest::MD5 and
 * Digest::SHA for phpass and Drupal 7, whose loops are a few lines. Undefined without perl.
 */
function perlMedianMs(runs: number, body: string, args: readonly string[]): number | undefined {
  const script = `use Time::HiRes qw(time); use Digest::MD5 qw(md5); use Digest::SHA qw(sha512);
    my @t; for my $i (0..${runs}) { my $s = time; ${body}; push @t, (time - $s) * 1000 if $i > 0; }
    @t = sort { $a <=> $b } @t; printf "%.4f", $t[int(@t / 2)];`;
  const run = spawnSync("perl", ["-e", script, ...args], { encoding: "utf8" });
  return run.status === 0 ? Number(run.stdout) : undefined;
}

/** crypt(3) of the password with the whole hash as setting; dies unless it gives the hash back. */
function libxcrypt(runs: number, hash: string, password = PASSWORD): number | undefined {
  return perlMedianMs(runs, `crypt($ARGV[1], $ARGV[0]) eq $ARGV[0] or die "mismatch"`, [hash, password]);
}

/** phpass' loop: digest(salt . password), then 2^log2 times digest(previous . password). */
function perlPhpass(runs: number, digest: "md5" | "sha512", salt: string, log2: number): number | undefined {
  return perlMedianMs(runs, `my $h = ${digest}($ARGV[0] . $ARGV[1]); $h = ${digest}($h . $ARGV[1]) for 1 .. 2 ** $ARGV[2]`, [salt, PASSWORD, String(log2)]);
}

interface Reference {
  readonly name: string;
  readonly ms: number | undefined;
}

interface Row {
  readonly family: string;
  readonly ours: number;
  readonly references: readonly Reference[];
}

/** The fastest reference that ran. */
function fastest(references: readonly Reference[]): { readonly name: string; readonly ms: number } | undefined {
  let best: { name: string; ms: number } | undefined;
  for (const { name, ms } of references) if (ms !== undefined && (best === undefined || ms < best.ms)) best = { name, ms };
  return best;
}

function printRows(rows: readonly Row[]): void {
  console.log("| family (parameters) | ours ms | fastest native reference | native ms | ours / native | other references |");
  console.log("|---|---:|---|---:|---:|---|");
  for (const row of rows) {
    const best = fastest(row.references);
    const others = row.references.filter((reference) => reference.name !== best?.name).map(({ name, ms }) => `${name} ${ms === undefined ? "n/a" : `${ms.toFixed(1)} ms`}`);
    const native = best === undefined ? "| (none available) | | " : `| ${best.name} | ${best.ms.toFixed(2)} | ${(row.ours / best.ms).toFixed(2)}`;
    console.log(`| ${row.family} | ${row.ours.toFixed(2)} ${native} | ${others.join("; ")} |`);
  }
}

/** Hashes of PASSWORD for the crypt family and PHP formats, each checked against libxcrypt or the formats' vectors. */
const LEGACY = {
  md5Crypt: "$1$saltsalt$BsXyQbZiQujHkdhwPwdol.",
  sha512Crypt: "$6$saltstring$qvPJY4PeugKzKQqyIJ0gRdJnpS0uaaiZ.X1SaheFedsK/yZPwlluTLS90fJPM41sD5JxCHKgGr1..qt5HqEY8.",
  sha256Crypt: "$5$rounds=535000$saltstring$Wyr2kATx292FtOgZD4jNyjT8ilIUlZyjvhVVBP0M3MA",
  phpass: "$P$BsaltsaltQzFfSQXmLYYwGZyj3dUJh.",
  drupal7: "$S$Dsaltsalt2Bndpr2kcohKNp4aHvhlno13H/9REUdpwZpKQmQfyEl",
} as const;

/** From the shared vectors: formats whose reference needs the vector's own password. */
const SODIUM_SCRYPT = { hash: "$7$C6..../....SodiumChloride$kBGj9fHznVYFQMEn/qDCfrDevf9YDtcDdKvEqHJLV8D", password: "pleaseletmein" };
const FIREBASE = {
  hash: "$firescrypt$ln=14,r=8,p=1$42xEC+ixf3L2lw==$lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==$Bw==$jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  password: "user1password",
};
const LDAP_SSHA512 = { hash: "{SSHA512}xPUl/px+1cG55rUH4rzcwxdOIPSB2TingLpiJJumN2xyDWN4Ix1WQG3ihnvHaWUE8MYNkvMi5rf0C9NYixHsE6Yh59M=", password: "test123" };
const HMAC_SHA256 = { hash: "$hmac-sha256$ZTAzMWJhMWMyOTM4YjFkMjgzZjkxOWExZGY5YWM2NmMxOTJhN2RkNzQ0MzJkNWZkNGFkYTI5OTk0MWJhMTA5Zg==$MTIzNDU=", password: "test" };

/** Firebase's scrypt as node:crypto does it: scrypt, then AES-256-CTR of the signer key. */
async function nodeFirebase(): Promise<unknown> {
  const fields = FIREBASE.hash.split("$");
  const salt = Buffer.concat([Buffer.from(fields[3] ?? "", "base64"), Buffer.from(fields[5] ?? "", "base64")]);
  const key = await callback<Buffer>((done) => nodeScrypt(FIREBASE.password, salt, 32, { N: 2 ** 14, r: 8, p: 1 }, done));
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(fields[6] ?? "", "base64")), cipher.final()]);
}

async function verificationTable(): Promise<void> {
  const argon2Hash = await argon2NativeHash(PASSWORD, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  const bcryptHash = await bcryptNativeHash(PASSWORD, { cost: 10 });
  const scryptHash = await scryptHasher().hash(PASSWORD);
  const pbkdf2Hash = await pbkdf2Sha256Hasher().hash(PASSWORD);
  const ssha512 = Buffer.from(LDAP_SSHA512.hash.slice("{SSHA512}".length), "base64");
  const rows: Row[] = [
    {
      family: "bcrypt (cost 10)",
      ours: await medianMs(5, ours(bcryptHash)),
      references: [
        { name: "@node-rs/bcrypt", ms: await medianMs(5, () => bcryptNativeVerify(PASSWORD, bcryptHash)) },
        { name: "libxcrypt", ms: libxcrypt(5, bcryptHash) },
      ],
    },
    { family: "argon2id (m=19456,t=2,p=1)", ours: await medianMs(7, ours(argon2Hash)), references: [{ name: "@node-rs/argon2", ms: await medianMs(7, () => argon2NativeVerify(argon2Hash, PASSWORD)) }] },
    { family: "scrypt (N=2^17,r=8,p=1)", ours: await medianMs(5, ours(scryptHash)), references: [{ name: "node:crypto", ms: await medianMs(5, nodeScryptOwasp) }] },
    { family: "scrypt $7$ (N=2^14,r=8,p=1)", ours: await medianMs(7, ours(SODIUM_SCRYPT.hash, SODIUM_SCRYPT.password)), references: [{ name: "libxcrypt", ms: libxcrypt(7, SODIUM_SCRYPT.hash, SODIUM_SCRYPT.password) }] },
    { family: "firebase scrypt (N=2^14,r=8)", ours: await medianMs(7, ours(FIREBASE.hash, FIREBASE.password)), references: [{ name: "node:crypto", ms: await medianMs(7, nodeFirebase) }] },
    { family: "pbkdf2-sha256 (600000)", ours: await medianMs(5, ours(pbkdf2Hash)), references: [{ name: "node:crypto", ms: await medianMs(5, nodePbkdf2Owasp) }] },
    { family: "md5-crypt ($1$, 1000 rounds)", ours: await medianMs(9, ours(LEGACY.md5Crypt)), references: [{ name: "libxcrypt", ms: libxcrypt(9, LEGACY.md5Crypt) }] },
    { family: "sha512-crypt ($6$, 5000 rounds)", ours: await medianMs(9, ours(LEGACY.sha512Crypt)), references: [{ name: "libxcrypt", ms: libxcrypt(9, LEGACY.sha512Crypt) }] },
    { family: "sha256-crypt ($5$, rounds=535000)", ours: await medianMs(3, ours(LEGACY.sha256Crypt)), references: [{ name: "libxcrypt", ms: libxcrypt(3, LEGACY.sha256Crypt) }] },
    { family: "phpass ($P$, 2^13)", ours: await medianMs(9, ours(LEGACY.phpass)), references: [{ name: "perl Digest::MD5 loop", ms: perlPhpass(9, "md5", "saltsalt", 13) }] },
    { family: "drupal7 ($S$, 2^15)", ours: await medianMs(5, ours(LEGACY.drupal7)), references: [{ name: "perl Digest::SHA loop", ms: perlPhpass(5, "sha512", "saltsalt", 15) }] },
    {
      family: "LDAP {SSHA512}",
      ours: await medianMs(101, ours(LDAP_SSHA512.hash, LDAP_SSHA512.password)),
      references: [{ name: "node:crypto", ms: await medianMs(101, () => createHash("sha512").update(LDAP_SSHA512.password).update(ssha512.subarray(64)).digest()) }],
    },
    {
      family: "$hmac-sha256$",
      ours: await medianMs(101, ours(HMAC_SHA256.hash, HMAC_SHA256.password)),
      references: [{ name: "node:crypto", ms: await medianMs(101, () => createHmac("sha256", "12345").update(HMAC_SHA256.password).digest("hex")) }],
    },
  ];
  useNativeImplementations(false);
  const pureJs: Row[] = [
    { family: "argon2id, pure JS (m=19456,t=2,p=1)", ours: await medianMs(3, ours(argon2Hash)), references: rows[1]?.references ?? [] },
    { family: "scrypt, pure JS (N=2^17,r=8,p=1)", ours: await medianMs(3, ours(scryptHash)), references: rows[2]?.references ?? [] },
    { family: "pbkdf2-sha256, pure JS (600000)", ours: await medianMs(3, ours(pbkdf2Hash)), references: rows[5]?.references ?? [] },
    { family: "sha512-crypt, pure JS digests ($6$, 5000)", ours: await medianMs(5, ours(LEGACY.sha512Crypt)), references: rows[7]?.references ?? [] },
  ];
  useNativeImplementations(true);
  printRows([...rows, ...pureJs]);
}

/** Busy CPU seconds of the whole machine so far (Linux's /proc/stat), or undefined elsewhere. */
function machineBusySeconds(): number | undefined {
  try {
    const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    return (user + nice + system + irq + softirq + steal) / 100; // USER_HZ
  } catch {
    return undefined;
  }
}

function processCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

interface Measured<T> {
  readonly value: T;
  /** Cores other processes kept busy meanwhile, on average (NaN where the machine does not say). */
  readonly neighbours: number;
}

/** Runs `task` and says how busy the rest of the machine was meanwhile. */
async function withNeighbours<T>(task: () => Promise<T>): Promise<Measured<T>> {
  const busyBefore = machineBusySeconds();
  const oursBefore = processCpuSeconds();
  const started = performance.now();
  const value = await task();
  const seconds = (performance.now() - started) / 1000;
  const busyAfter = machineBusySeconds();
  const ours = processCpuSeconds() - oursBefore;
  const neighbours = busyBefore === undefined || busyAfter === undefined ? Number.NaN : Math.max(0, (busyAfter - busyBefore - ours) / seconds);
  return { value, neighbours };
}

/** Neighbours' CPU below this (in cores) counts as a quiet machine. */
const QUIET_CORES = 0.1;
const ATTEMPTS = 5;

/**
 * Concurrency figures only mean something while the rest of the machine is idle: on a shared
 * 2-core machine a neighbour's test run halves what two callers can get. So each measurement is
 * repeated (up to ATTEMPTS times, stopping once the machine was quiet) and the attempt during
 * which the neighbours used the least CPU is kept, with that usage printed beside it.
 */
async function quietest<T>(measure: () => Promise<T>): Promise<Measured<T>> {
  let best: Measured<T> | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const measured = await withNeighbours(measure);
    if (best === undefined || !(measured.neighbours >= best.neighbours)) best = measured;
    if (!(best.neighbours >= QUIET_CORES)) break;
  }
  if (best === undefined) throw new Error("no attempt");
  return best;
}

type Hash = () => Promise<unknown>;

/** Hashes per second with one caller and with two, each hashing `each` passwords in turn. */
async function throughputs(hash: Hash, each: number): Promise<{ readonly one: number; readonly two: number }> {
  const rate = async (callers: number): Promise<number> => {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: callers }, async () => {
        for (let i = 0; i < each; i++) await hash();
      }),
    );
    return (callers * each * 1000) / (performance.now() - started);
  };
  await hash();
  return { one: await rate(1), two: await rate(2) };
}

/** Longest event-loop stall (ms, wall clock) while `count` hashes run at once. */
async function stallWhileHashing(hash: Hash, count: number): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  histogram.enable();
  await Promise.all(Array.from({ length: count }, hash));
  longest = Math.max(longest, performance.now() - last);
  histogram.disable();
  clearInterval(timer);
  return Math.max(longest, histogram.max / 1e6);
}

interface Concurrency {
  readonly one: number;
  readonly two: number;
  readonly stall: number;
  /** The neighbours' CPU during the throughput and the stall measurements. */
  readonly neighbours: readonly [number, number];
}

async function concurrency(hash: Hash, hashMs: number): Promise<Concurrency> {
  const each = Math.max(3, Math.ceil(1000 / hashMs));
  const rates = await quietest(() => throughputs(hash, each));
  const stall = await quietest(() => stallWhileHashing(hash, 8));
  return { ...rates.value, stall: stall.value, neighbours: [rates.neighbours, stall.neighbours] };
}

interface HasherFigures {
  readonly name: string;
  readonly hashMs: number;
  readonly nativeMs: number;
  readonly ours: Concurrency;
  readonly native: Concurrency;
}

async function measureHasher(name: string, hasher: PasswordHasher, native: Hash): Promise<HasherFigures> {
  const hash = () => hasher.hash(PASSWORD);
  const hashMs = await medianMs(5, hash);
  const nativeMs = await medianMs(5, native);
  return { name, hashMs, nativeMs, ours: await concurrency(hash, hashMs), native: await concurrency(native, nativeMs) };
}

const cores = (value: number): string => (Number.isNaN(value) ? "?" : value.toFixed(2));

async function hasherTable(): Promise<HasherFigures | undefined> {
  const candidates: readonly (readonly [string, PasswordHasher, Hash])[] = [
    ["scrypt N=2^17,r=8,p=1 / node:crypto", scryptHasher(), nodeScryptOwasp],
    ["argon2id m=19456,t=2,p=1 / @node-rs/argon2", argon2idHasher(), () => argon2NativeHash(PASSWORD, { memoryCost: 19_456, timeCost: 2, parallelism: 1 })],
    ["bcrypt cost 10 / @node-rs/bcrypt", bcryptHasher(), () => bcryptNativeHash(PASSWORD, { cost: 10 })],
    ["pbkdf2-sha256 600000 / node:crypto", pbkdf2Sha256Hasher(), nodePbkdf2Owasp],
  ];
  console.log(`\ndefault hasher: ${defaultPasswordHasher.name}; ours (native) in each cell; "busy" = cores other processes used meanwhile\n`);
  console.log("| hasher (OWASP setting) / native reference | hash ms | ours / native | hashes/s, 1 caller | hashes/s, 2 callers | 2 / 1 | busy | longest stall, 8 at once (ms) | busy |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  let forDefault: HasherFigures | undefined;
  for (const [name, hasher, native] of candidates) {
    const figures = await measureHasher(name, hasher, native);
    if (hasher.name === defaultPasswordHasher.name) forDefault = figures;
    const { hashMs, nativeMs, ours: o, native: n } = figures;
    const label = hasher.name === defaultPasswordHasher.name ? `${name} (default)` : name;
    console.log(
      `| ${label} | ${hashMs.toFixed(1)} (${nativeMs.toFixed(1)}) | ${(hashMs / nativeMs).toFixed(2)} | ${o.one.toFixed(2)} (${n.one.toFixed(2)}) | ${o.two.toFixed(2)} (${n.two.toFixed(2)}) | ${(o.two / o.one).toFixed(2)} (${(n.two / n.one).toFixed(2)}) | ${cores(o.neighbours[0])} (${cores(n.neighbours[0])}) | ${o.stall.toFixed(1)} (${n.stall.toFixed(1)}) | ${cores(o.neighbours[1])} (${cores(n.neighbours[1])}) |`,
    );
  }
  return forDefault;
}

function printAims(figures: HasherFigures): void {
  const ratio = figures.hashMs / figures.nativeMs;
  const speedup = figures.ours.two / figures.ours.one;
  const verdict = (met: boolean): string => (met ? "met" : "MISSED");
  console.log(`\ndefault hasher (${figures.name}):`);
  console.log(`- ours / fastest native: ${ratio.toFixed(2)} (aim <= ${AIMS.nativeRatio}): ${verdict(ratio <= AIMS.nativeRatio)}`);
  console.log(
    `- two callers / one: ${speedup.toFixed(2)}, native ${(figures.native.two / figures.native.one).toFixed(2)}, other processes busy on ${cores(figures.ours.neighbours[0])} cores (aim >= ${AIMS.twoCallerSpeedup}): ${verdict(speedup >= AIMS.twoCallerSpeedup)}`,
  );
  console.log(
    `- longest stall while eight hash: ${figures.ours.stall.toFixed(1)} ms, native ${figures.native.stall.toFixed(1)} ms, other processes busy on ${cores(figures.ours.neighbours[1])} cores (aim <= ${AIMS.stallMs} ms): ${verdict(figures.ours.stall <= AIMS.stallMs)}`,
  );
}

const PURE_JS: HashingPaths = { argon2: false, scrypt: false, pbkdf2: new Set(), digestLoops: new Set() };
const B64_SALT = "c2FsdHNhbHRzYWx0c2FsdA";
const B64_DIGEST = "CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
const SHA512_TAIL = "$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1";
const NO_BUDGET = { maxEstimatedCostMs: Number.POSITIVE_INFINITY } as const;

interface CostCase {
  readonly label: string;
  readonly hash: string;
  readonly password: string;
}

/** Hashes of every family at a few costs; their digests are arbitrary: the verification runs, and says no. */
const COST_CASES: readonly CostCase[] = [
  { label: "bcrypt cost 10", hash: "$2a$10$WvvTPHKwdBJ3uk0Z37EMR.hLA2W6N9AEBhEgrAOljy2Ae5MtaSIUi", password: "x" },
  { label: "bcrypt cost 12", hash: "$2a$12$WvvTPHKwdBJ3uk0Z37EMR.hLA2W6N9AEBhEgrAOljy2Ae5MtaSIUi", password: "x" },
  { label: "argon2id m=19456,t=2,p=1", hash: `$argon2id$v=19$m=19456,t=2,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "argon2id m=65536,t=3,p=4", hash: `$argon2id$v=19$m=65536,t=3,p=4$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "argon2id m=262144,t=1,p=1", hash: `$argon2id$v=19$m=262144,t=1,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "argon2id m=4096,t=10,p=1,data=", hash: `$argon2id$v=19$m=4096,t=10,p=1,data=eA$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=2^14,r=8,p=1", hash: `$scrypt$ln=14,r=8,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=2^17,r=8,p=1", hash: `$scrypt$ln=17,r=8,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=2^10,r=8,p=16", hash: `$scrypt$ln=10,r=8,p=16$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=2,r=1,p=2^16", hash: `$scrypt$ln=1,r=1,p=65536$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "pbkdf2-sha256 100000", hash: `$pbkdf2-sha256$100000$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "pbkdf2-sha1 100000, 20-byte key", hash: `$pbkdf2$100000$${B64_SALT}$${"A".repeat(27)}`, password: "x" },
  { label: "pbkdf2-sha512 20000, 128-byte key", hash: `$pbkdf2-sha512$20000$${B64_SALT}$${"A".repeat(171)}`, password: "x" },
  { label: "pbkdf2 sha3-224 (PHC) 20000", hash: `$pbkdf2-sha224$i=20000,l=32$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "pbkdf2 sha3-384 (PHC) 20000", hash: `$pbkdf2-sha384$i=20000,l=32$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "sha512-crypt 50000", hash: `$6$rounds=50000${SHA512_TAIL}`, password: "x" },
  { label: "sha512-crypt 20000, 1024-byte password", hash: `$6$rounds=20000${SHA512_TAIL}`, password: "p".repeat(1024) },
  { label: "sha256-crypt 50000", hash: "$5$rounds=50000$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5", password: "x" },
  { label: "md5-crypt, 1024-byte password", hash: LEGACY.md5Crypt, password: "p".repeat(1024) },
  { label: "phpass 2^16", hash: "$P$E12345678si5M0DDyPpmRCmcltU/YW/", password: "x" },
  { label: "phpass 2^14, 1024-byte password", hash: "$P$C12345678si5M0DDyPpmRCmcltU/YW/", password: "p".repeat(1024) },
  { label: "drupal7 2^16", hash: "$S$ECiTwp95d.CM.PorExdDeWcec0F1SeaEsf3Yon9RUcrhQy4Q7XX1", password: "x" },
];

/** Runs of each case; the cheapest is kept, the one other processes disturbed least. */
const COST_RUNS = 3;

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The cheapest of `runs` runs, in CPU milliseconds of this process (every thread: the native
 * paths compute on libuv's pool) and in wall-clock milliseconds. The model estimates CPU: on a
 * busy machine the wall clock also counts the time the OS gave other processes.
 */
async function cheapestRun(runs: number, task: () => Promise<unknown>): Promise<{ readonly cpu: number; readonly wall: number }> {
  await task();
  let cpu = Number.POSITIVE_INFINITY;
  let wall = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const cpuBefore = processCpuMs();
    const started = performance.now();
    await task();
    wall = Math.min(wall, performance.now() - started);
    cpu = Math.min(cpu, processCpuMs() - cpuBefore);
  }
  return { cpu, wall };
}

/** Each case's estimate beside its cheapest measured verification, natively then in pure JS: the calibration's check. */
async function costModelTable(): Promise<void> {
  console.log(`\ncost model: estimate (CPU ms of the reference machine) beside the cheapest of ${COST_RUNS} measured verifications\n`);
  console.log("| hash | path | estimate ms | CPU ms | CPU / estimate | wall ms |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const [path, paths] of [["native", ALL_NATIVE], ["pure JS", PURE_JS]] as const) {
    useNativeImplementations(path === "native");
    for (const { label, hash, password } of COST_CASES) {
      const parsed = parsePasswordHash(hash, NO_BUDGET);
      if (parsed.isErr()) throw new Error(`cost case refused: ${label}: ${parsed.error.message}`);
      const estimate = estimateCostMs(parsed.value, { paths, passwordBytes: password.length });
      // Pure JS at several seconds adds little to the check and much to the run.
      if (estimate > 6000) {
        console.log(`| ${label} | ${path} | ${estimate.toFixed(1)} | (skipped) | | |`);
        continue;
      }
      const run = await cheapestRun(COST_RUNS, async () => verifyPassword(hash, password, { bounds: NO_BUDGET }));
      console.log(`| ${label} | ${path} | ${estimate.toFixed(1)} | ${run.cpu.toFixed(1)} | ${(run.cpu / estimate).toFixed(2)} | ${run.wall.toFixed(1)} |`);
    }
  }
  useNativeImplementations(true);
}

/** The two hostile hashes of the adversarial report: every parameter within its bound. */
const HOSTILE = {
  "argon2id m=262144,t=10,p=16,data=eA": `$argon2id$v=19$m=262144,t=10,p=16,data=eA$${B64_SALT}$${B64_DIGEST}`,
  "scrypt ln=1,r=1,p=2097152": `$scrypt$ln=1,r=1,p=2097152$${B64_SALT}$${B64_DIGEST}`,
} as const;

/** Peak resident memory of this process so far (Linux), in MiB. */
function peakRssMiB(): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(existsSync("/proc/self/status") ? readFileSync("/proc/self/status", "utf8") : "");
  return match === null ? Number.NaN : Number(match[1]) / 1024;
}

interface HostileRun {
  readonly ms: number;
  readonly answer: string;
  readonly rssBeforeMiB: number;
  readonly peakRssMiB: number;
}

/** In a child process (so that the peak is this hash's alone): one verification, timed. */
async function hostileChild(name: keyof typeof HOSTILE, budget: "none" | "default"): Promise<HostileRun> {
  await verifyPassword("$2a$04$WvvTPHKwdBJ3uk0Z37EMR.hLA2W6N9AEBhEgrAOljy2Ae5MtaSIUi", "x"); // load the modules first
  const rssBeforeMiB = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  const result = await verifyPassword(HOSTILE[name], "password", budget === "none" ? { bounds: NO_BUDGET } : {});
  const ms = performance.now() - started;
  const answer = result.isOk() ? `valid: ${result.value.valid}` : `code ${result.error.code}: ${result.error.message}`;
  return { ms, answer, rssBeforeMiB, peakRssMiB: peakRssMiB() };
}

function runHostileChild(name: keyof typeof HOSTILE, budget: "none" | "default"): HostileRun {
  const run = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--hostile", name, budget], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`hostile child failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as HostileRun;
}

async function hostileTable(): Promise<void> {
  console.log("\nhostile hashes: one verification in a fresh process, with the budget lifted (as before it existed) and with the default budget\n");
  console.log("| hash | budget | answer | time ms | RSS before MiB | peak RSS MiB |");
  console.log("|---|---|---|---:|---:|---:|");
  for (const name of Object.keys(HOSTILE) as (keyof typeof HOSTILE)[]) {
    for (const budget of ["none", "default"] as const) {
      const run = runHostileChild(name, budget);
      console.log(`| ${name} | ${budget} | ${run.answer} | ${run.ms.toFixed(1)} | ${run.rssBeforeMiB.toFixed(0)} | ${run.peakRssMiB.toFixed(0)} |`);
    }
  }
}

const SCHED = `/proc/self/task/${process.pid}/sched`;

/** Milliseconds the main thread has spent on a CPU (Linux), or undefined elsewhere. */
function mainThreadMs(): number | undefined {
  if (!existsSync(SCHED)) return undefined;
  const match = /sum_exec_runtime\s*:\s*([\d.]+)/.exec(readFileSync(SCHED, "utf8"));
  return match === null ? undefined : Number(match[1]);
}

interface Stall {
  /** Longest gap between two ticks of a 1 ms interval, wall clock (the histogram's maximum agrees). */
  readonly wallMs: number;
  /** The same gaps counted only as far as the main thread ran: time the OS parked the process is left out. */
  readonly runningMs: number | undefined;
}

/** The longest event-loop stall while `task` runs. */
async function measureStall(task: () => Promise<unknown>): Promise<Stall> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let lastWall = performance.now();
  let lastRun = mainThreadMs();
  let wallMs = 0;
  let runningMs: number | undefined = lastRun === undefined ? undefined : 0;
  const tick = (): void => {
    const wall = performance.now();
    const run = mainThreadMs();
    wallMs = Math.max(wallMs, wall - lastWall);
    if (run !== undefined && lastRun !== undefined && runningMs !== undefined) runningMs = Math.max(runningMs, Math.min(wall - lastWall, run - lastRun));
    lastWall = wall;
    lastRun = run;
  };
  const timer = setInterval(tick, 1);
  histogram.enable();
  await task();
  tick();
  histogram.disable();
  clearInterval(timer);
  return { wallMs: Math.max(wallMs, histogram.max / 1e6), runningMs };
}

/** Every pure-JS path, near the budget where it can be: the slices must keep each stall under 20 ms. */
const STALL_CASES: readonly CostCase[] = [
  { label: "bcrypt cost 12", hash: "$2a$12$WvvTPHKwdBJ3uk0Z37EMR.hLA2W6N9AEBhEgrAOljy2Ae5MtaSIUi", password: "x" },
  { label: "argon2id m=131072,t=1,p=1", hash: `$argon2id$v=19$m=131072,t=1,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "argon2id m=16384,t=3,p=4", hash: `$argon2id$v=19$m=16384,t=3,p=4$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=2^17,r=8,p=1", hash: `$scrypt$ln=17,r=8,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=2,r=1,p=2^17", hash: `$scrypt$ln=1,r=1,p=131072$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "scrypt N=4,r=2^15,p=1", hash: `$scrypt$ln=2,r=32768,p=1$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "pbkdf2-sha256 300000", hash: `$pbkdf2-sha256$300000$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "pbkdf2-sha512 20000, 128-byte key", hash: `$pbkdf2-sha512$20000$${B64_SALT}$${"A".repeat(171)}`, password: "x" },
  { label: "pbkdf2 sha3-224 (PHC) 20000", hash: `$pbkdf2-sha224$i=20000,l=32$${B64_SALT}$${B64_DIGEST}`, password: "x" },
  { label: "sha512-crypt 200000", hash: `$6$rounds=200000${SHA512_TAIL}`, password: "x" },
  { label: "sha512-crypt 20000, 1024-byte password", hash: `$6$rounds=20000${SHA512_TAIL}`, password: "p".repeat(1024) },
  { label: "md5-crypt, 1024-byte password", hash: LEGACY.md5Crypt, password: "p".repeat(1024) },
  { label: "phpass 2^18", hash: "$P$G12345678si5M0DDyPpmRCmcltU/YW/", password: "x" },
  { label: "drupal7 2^16, 1024-byte password", hash: "$S$ECiTwp95d.CM.PorExdDeWcec0F1SeaEsf3Yon9RUcrhQy4Q7XX1", password: "p".repeat(1024) },
  { label: "LDAP {SSHA512}, 1024-byte password", hash: LDAP_SSHA512.hash, password: "p".repeat(1024) },
];

const STALL_RUNS = 3;

async function stallTable(): Promise<void> {
  console.log(`\npure JS (no native code): longest event-loop stall of one verification, worst of ${STALL_RUNS} runs (aim <= ${AIMS.stallMs} ms)\n`);
  console.log("| hash | verification ms | longest stall, wall clock ms | longest stall, main thread running ms | aim |");
  console.log("|---|---:|---:|---:|---|");
  useNativeImplementations(false);
  for (const { label, hash, password } of STALL_CASES) {
    const verify = async (): Promise<void> => {
      const result = await verifyPassword(hash, password);
      if (result.isErr()) throw new Error(`stall case refused: ${label}: ${result.error.message}`);
    };
    await verify(); // warm-up
    let wall = 0;
    let running: number | undefined;
    let slowest = 0;
    for (let i = 0; i < STALL_RUNS; i++) {
      const started = performance.now();
      const stall = await measureStall(verify);
      slowest = Math.max(slowest, performance.now() - started);
      wall = Math.max(wall, stall.wallMs);
      running = stall.runningMs === undefined ? undefined : Math.max(running ?? 0, stall.runningMs);
    }
    const judged = running ?? wall;
    console.log(`| ${label} | ${slowest.toFixed(0)} | ${wall.toFixed(1)} | ${running === undefined ? "n/a" : running.toFixed(1)} | ${judged <= AIMS.stallMs ? "met" : "MISSED"} |`);
  }
  useNativeImplementations(true);
}

if (process.argv[2] === "--hostile") {
  const run = await hostileChild(process.argv[3] as keyof typeof HOSTILE, process.argv[4] === "none" ? "none" : "default");
  console.log(JSON.stringify(run));
} else {
  const sections = new Set((process.env["PASSWORDS_SECTIONS"] ?? "verify,hashers,cost,hostile,stalls").split(","));
  const started = performance.now();
  console.log(`node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}), load average ${loadavg().map((load) => load.toFixed(2)).join(" ")}\n`);
  if (sections.has("verify")) await verificationTable();
  if (sections.has("hashers")) {
    const figures = await hasherTable();
    if (figures !== undefined) printAims(figures);
  }
  if (sections.has("cost")) await costModelTable();
  if (sections.has("hostile")) await hostileTable();
  if (sections.has("stalls")) await stallTable();
  console.log(`\n(total ${((performance.now() - started) / 1000).toFixed(0)} s, load average now ${loadavg().map((load) => load.toFixed(2)).join(" ")})`);
}
