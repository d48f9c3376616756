// Hostile requests on in-memory ports: how long each takes to be answered, the process's peak
// memory and the size of the error body. Each case runs in a process of its own (this file
// starts itself once per case), so that one case's heap never inflates the next one's figure and
// a case that runs out of memory only ends its own process; each process answers one valid
// request first (warm-up), then the case once. The baseline is a second valid request.
// Run with `npm run bench -- hostile-input`.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createHumanUser, fixedClock, memoryMailer, memoryStore, type Ports } from "../src/index.js";

const LIMIT_SECONDS = 60;
const context = { requester: { userId: "admin", orgId: "acme" } };

function ports(): Ports {
  return {
    storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] }),
    mailer: memoryMailer(),
    clock: fixedClock("2026-01-01T00:00:00Z"),
  };
}

const valid = () => ({ profile: { givenName: "Ann", familyName: "Lee" }, email: { email: "ann@acme.example" } });

/** Each case builds its request outside the timed part. */
const cases: Readonly<Record<string, () => unknown>> = {
  "a valid request (baseline)": valid,
  "1 MiB JSON body: 349,000 empty metadata objects": () => {
    const json = `{"profile":{"givenName":"Ann","familyName":"Lee"},"email":{"email":"ann@acme.example"},"metadata":[${Array(349_000).fill("{}").join(",")}]}`;
    return JSON.parse(json) as unknown;
  },
  "30-level shared-reference graph in an unknown field": () => {
    let graph: unknown = [];
    for (let i = 0; i < 30; i++) graph = [graph, graph];
    return { ...valid(), extra: graph };
  },
  "sparse array of length 4,000,000 as metadata": () => ({ ...valid(), metadata: new Array(4_000_000) }),
  "sparse array of length 4,000,000 in an unknown field": () => ({ ...valid(), extra: new Array(4_000_000) }),
  "50 MB Buffer in an unknown field": () => ({ ...valid(), extra: Buffer.alloc(50_000_000) }),
  "20 MB Uint8Array as givenName": () => ({ ...valid(), profile: { givenName: new Uint8Array(20_000_000), familyName: "Lee" } }),
};

async function runCase(name: string): Promise<void> {
  const build = cases[name];
  if (build === undefined) throw new Error(`no case ${name}`);
  // One valid request first, so that the figure is the case's own cost, not the first call's warm-up.
  await createHumanUser(ports(), valid(), context);
  const request = build();
  const rssBefore = process.resourceUsage().maxRSS;
  const started = performance.now();
  const result = await createHumanUser(ports(), request, context);
  const milliseconds = performance.now() - started;
  const answer = result.isOk() ? "ok" : `code ${result.error.code}: ${result.error.message.slice(0, 80)}`;
  const bodyBytes = Buffer.byteLength(JSON.stringify(result.isOk() ? result.value : result.error));
  const rssAfter = process.resourceUsage().maxRSS;
  console.log(JSON.stringify({ milliseconds: Math.round(milliseconds * 10) / 10, peakRssMiB: Math.round(rssAfter / 1024), rssBeforeMiB: Math.round(rssBefore / 1024), bodyBytes, answer }));
}

function runAll(): void {
  const self = fileURLToPath(import.meta.url);
  console.log("| case | time | peak RSS (before the call) | body | answer |\n|---|---|---|---|---|");
  for (const name of Object.keys(cases)) {
    const run = spawnSync(process.execPath, ["--import", "tsx", self, name], { encoding: "utf8", timeout: LIMIT_SECONDS * 1000 });
    const line = run.stdout.trim().split("\n").pop() ?? "";
    if (run.status !== 0 || line === "") {
      const why = run.error !== undefined ? `still running after ${LIMIT_SECONDS} s` : `process ended (${run.signal ?? `exit ${run.status}`}): ${run.stderr.split("\n").find((text) => /heap|memory|Error/i.test(text)) ?? ""}`;
      console.log(`| ${name} | | | | ${why.trim()} |`);
      continue;
    }
    const figures = JSON.parse(line) as { milliseconds: number; peakRssMiB: number; rssBeforeMiB: number; bodyBytes: number; answer: string };
    console.log(`| ${name} | ${figures.milliseconds} ms | ${figures.peakRssMiB} MiB (${figures.rssBeforeMiB} MiB) | ${figures.bodyBytes} bytes | ${figures.answer} |`);
  }
}

const only = process.argv[2];
if (only === undefined) runAll();
else await runCase(only);
