// A loop of createHumanUser calls (no password, code returned, memory store), to profile:
//   node --cpu-prof --import tsx bench/profile-create.ts [calls]
//   node --import tsx bench/profile-create.ts [calls] --allocations   (writes allocations.heapprofile)
// The allocation profile samples every allocation, also of objects already collected (what
// --heap-prof leaves out), so it shows where the garbage comes from. Not a bench: run.ts skips it.
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { createHumanUser, fixedClock, memoryMailer, memoryStore, type Ports } from "../src/index.js";

const ports: Ports = {
  storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] }),
  mailer: memoryMailer(),
  clock: fixedClock("2026-01-01T00:00:00Z"),
};
const context = { requester: { userId: "admin", orgId: "acme" } };
const calls = Number(process.argv[2] ?? 100_000);
const allocations = process.argv.includes("--allocations");

async function create(index: number): Promise<void> {
  const body = { username: `user-${index}`, profile: { givenName: "Ann", familyName: "Lee", preferredLanguage: "en" }, email: { email: `user-${index}@example.com`, returnCode: {} } };
  if ((await createHumanUser(ports, body, context)).isErr()) throw new Error("refused");
}

for (let index = 0; index < 5_000; index++) await create(-index - 1); // warm-up
const session = new Session();
if (allocations) {
  session.connect();
  await session.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}
const started = performance.now();
for (let index = 0; index < calls; index++) await create(index);
const seconds = (performance.now() - started) / 1000;
console.log(`${calls} users in ${seconds.toFixed(2)} s: ${Math.round(calls / seconds)} users/s`);
if (allocations) {
  const { profile } = await session.post("HeapProfiler.stopSampling");
  writeFileSync("allocations.heapprofile", JSON.stringify(profile));
  console.log("allocation profile written to allocations.heapprofile");
}
