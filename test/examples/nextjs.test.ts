// The Next.js example as a user ships it: `next build`, then `next start` on a loopback port, and
// real requests to its App Router route handler. The build is the slow part (about a minute here).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedAnswers, tryExample } from "./exchange.js";

const NEXT = "node_modules/next/dist/bin/next";
const APP = "examples/nextjs";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  probe.close();
  return typeof address === "object" && address !== null ? address.port : 0;
}

async function build(): Promise<void> {
  const child = spawn(process.execPath, [NEXT, "build", APP], { env, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`next build failed:\n${output.join("")}`);
}

/** Polls the health route until the server answers, or the process has ended. */
async function untilServing(child: ChildProcess, url: string): Promise<void> {
  while (child.exitCode === null) {
    try {
      if ((await fetch(`${url}/api/human-users/healthz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error("next start exited before serving");
}

let server: ChildProcess | undefined;
let url = "";

beforeAll(async () => {
  const started = performance.now();
  await build();
  console.log(`next build of ${APP}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [NEXT, "start", APP, "-p", String(port), "-H", "127.0.0.1"], { env, stdio: "ignore" });
  await untilServing(server, url);
}, 300_000);

afterAll(() => {
  server?.kill("SIGKILL");
});

describe("the Next.js example (App Router route handler)", () => {
  it("creates a user through `export const POST` under /api/human-users and answers whole bodies", async () => {
    const answers = await tryExample(`${url}/api/human-users`);
    expect(answers).toEqual(expectedAnswers(String(answers["userId"]?.body)));
  });

  it("answers a method a path is not served with as the library does: 405, code 12, Allow", async () => {
    const response = await fetch(`${url}/api/human-users/v2/users/human`, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
    expect([response.status, response.headers.get("allow"), ((await response.json()) as { code?: number }).code]).toEqual([405, "GET, POST", 12]);
  });
});
