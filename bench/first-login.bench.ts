// The first login after an import, on in-memory ports, with the default hasher (scrypt N=2^17):
//   1. checkPassword (user read, verification, event appended) against verifyPassword alone on the
//      same stored hash; beside them a wrong password and an unknown login name, whose times should
//      match (the unknown one runs a dummy verification of the configured hasher's cost);
//   2. the added cost of the upgrade on a first login from bcrypt cost 10: a first login that
//      upgrades to the default hasher against one whose hasher takes bcrypt-10 as current.
// Rounds interleave the contenders (order rotated each round) so that drift hits all alike; each
// time is the median of the rounds with min and max, and each ratio is taken round by round
// against the first contender of its table. Run with `npm run bench -- first-login` (ROUNDS=n).
import { hash as bcryptNativeHash } from "@node-rs/bcrypt";
import { availableParallelism, cpus, loadavg } from "node:os";
import type { ResultAsync } from "neverthrow";
import { checkPassword, importHumanUser, memoryMailer, memoryStore, systemClock, type ErrorBody, type Ports } from "../src/index.js";
import { bcryptHasher, defaultPasswordHasher, verifyPassword, type PasswordHasher } from "../src/passwords/index.js";

const PASSWORD = "Correct-Horse-Battery-9";
const ROUNDS = Number(process.env.ROUNDS ?? 11);
const admin = { requester: { userId: "admin", orgId: "acme", instanceAdmin: true }, orgId: "acme" };

function ports(hasher: PasswordHasher): Ports {
  return {
    storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] }),
    mailer: memoryMailer(),
    clock: systemClock,
    passwordHasher: hasher,
  };
}

let users = 0;
async function importWithHash(target: Ports, hash: string): Promise<{ userId: string; userName: string }> {
  const userName = `user-${++users}`;
  const result = await importHumanUser(
    target,
    { userName, profile: { firstName: "Ann", lastName: "Lee" }, email: { email: `${userName}@acme.example`, isEmailVerified: true }, hashedPassword: { value: hash } },
    admin,
  );
  if (result.isErr()) throw new Error(`import refused: ${result.error.message}`);
  return { userId: result.value.userId, userName };
}

async function timed(task: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

interface Stats {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN };
}

interface Figures {
  readonly time: Stats;
  /** Time over the first contender's in the same round: median and extremes over the rounds. */
  readonly ratio: Stats;
}

/**
 * Runs every contender once per round, in an order rotated each round, after one warm-up round;
 * each ratio is taken round by round against the first contender.
 */
async function interleaved(contenders: Readonly<Record<string, () => Promise<void>>>, rounds = ROUNDS): Promise<Map<string, Figures>> {
  const names = Object.keys(contenders);
  const times = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = -1; round < rounds; round++) {
    for (let index = 0; index < names.length; index++) {
      const name = names[(index + Math.max(round, 0)) % names.length] ?? "";
      const took = await timed(contenders[name] ?? (() => Promise.resolve()));
      if (round >= 0) times.get(name)?.push(took);
    }
  }
  const baseline = times.get(names[0] ?? "") ?? [];
  return new Map(
    [...times].map(([name, list]) => [name, { time: stats(list), ratio: stats(list.map((took, round) => took / (baseline[round] ?? Number.NaN))) }]),
  );
}

function table(figures: ReadonlyMap<string, Figures>): void {
  console.log("| contender | ms, median (min–max) | × first row, per round: median (min–max) |");
  console.log("|---|---:|---:|");
  for (const [name, { time, ratio }] of figures) {
    console.log(`| ${name} | ${time.median.toFixed(1)} (${time.min.toFixed(1)}–${time.max.toFixed(1)}) | ${ratio.median.toFixed(3)} (${ratio.min.toFixed(3)}–${ratio.max.toFixed(3)}) |`);
  }
}

async function mustBe(result: ResultAsync<unknown, ErrorBody>, ok: boolean, what: string): Promise<void> {
  if ((await result).isOk() !== ok) throw new Error(`${what}: unexpected answer`);
}

async function checkAgainstVerify(): Promise<void> {
  const target = ports(defaultPasswordHasher);
  const stored = await defaultPasswordHasher.hash(PASSWORD);
  const { userId, userName } = await importWithHash(target, stored);
  const figures = await interleaved({
    "verifyPassword alone, same stored hash": async () => {
      const result = await verifyPassword(stored, PASSWORD);
      if (result.isErr() || !result.value.valid) throw new Error("verifyPassword failed");
    },
    "checkPassword, right password (read, verify, append)": () => mustBe(checkPassword(target, { userId, password: PASSWORD }), true, "right password"),
    "checkPassword, wrong password (read, verify, append)": () => mustBe(checkPassword(target, { loginName: userName, password: "Wrong-Password-1" }), false, "wrong password"),
    "checkPassword, unknown login name (dummy verify)": () => mustBe(checkPassword(target, { loginName: "nobody", password: "Wrong-Password-1" }), false, "unknown name"),
  });
  console.log(`\n### checkPassword against verifyPassword (scrypt N=2^17, r=8, p=1), ${ROUNDS} interleaved rounds\n`);
  table(figures);
}

async function upgradeCost(): Promise<void> {
  const bcrypt10 = await bcryptNativeHash(PASSWORD, { cost: 10 });
  const upgrading = ports(defaultPasswordHasher);
  // The same stored hash, under a hasher that takes it as current: a login without the upgrade.
  const keeping = ports(bcryptHasher({ cost: 10 }));
  const fresh = async (target: Ports) => (await importWithHash(target, bcrypt10)).userId;
  const waiting = { upgrading: [] as string[], keeping: [] as string[] };
  for (let index = 0; index <= ROUNDS; index++) {
    waiting.upgrading.push(await fresh(upgrading));
    waiting.keeping.push(await fresh(keeping));
  }
  const upgraded: string[] = [];
  const figures = await interleaved({
    "first login, bcrypt-10 kept (bcrypt current)": async () => {
      const userId = waiting.keeping.pop() ?? "";
      await mustBe(checkPassword(keeping, { userId, password: PASSWORD }), true, "kept");
    },
    "first login, bcrypt-10 upgraded to scrypt": async () => {
      const userId = waiting.upgrading.pop() ?? "";
      await mustBe(checkPassword(upgrading, { userId, password: PASSWORD }), true, "upgrade");
      upgraded.push(userId);
    },
    "second login, upgraded user (scrypt verify)": async () => {
      const userId = upgraded[0] ?? (await fresh(upgrading));
      if (upgraded.length === 0) {
        await checkPassword(upgrading, { userId, password: PASSWORD });
        upgraded.push(userId);
      }
      await mustBe(checkPassword(upgrading, { userId, password: PASSWORD }), true, "second login");
    },
  });
  const kept = figures.get("first login, bcrypt-10 kept (bcrypt current)");
  const upgradedFirst = figures.get("first login, bcrypt-10 upgraded to scrypt");
  console.log(`\n### The upgrade on a first login from bcrypt cost 10, ${ROUNDS} interleaved rounds\n`);
  table(figures);
  if (kept !== undefined && upgradedFirst !== undefined) {
    console.log(`\nAdded cost of the upgrade (median upgraded - median kept): ${(upgradedFirst.time.median - kept.time.median).toFixed(1)} ms`);
  }
}

console.log(`node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "unknown"}), load ${loadavg().map((load) => load.toFixed(2)).join(" ")}`);
await checkAgainstVerify();
await upgradeCost();
