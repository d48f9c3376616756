// `npm start`'s server as a user runs it: its start-up line, the demo token, and a clean stop.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";

let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

async function stop(): Promise<number | null> {
  child?.kill("SIGTERM");
  const [code] = (await once(child ?? process, "exit")) as [number | null];
  return code;
}

const demoBody = JSON.stringify({ userId: "demo-1", profile: { givenName: "Demo", familyName: "User" }, email: { email: "demo@demo.localhost", isVerified: true } });

function createDemoUser(baseUrl: string, authorization: string): Promise<Response> {
  return fetch(`${baseUrl}/v2/users/human`, { method: "POST", headers: { "content-type": "application/json", authorization }, body: demoBody });
}

async function start(env: Record<string, string>): Promise<{ readonly line: string; readonly baseUrl: string }> {
  child = spawn(process.execPath, ["--import", "tsx", "examples/server/main.ts"], {
    env: { ...process.env, ...env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  for await (const line of createInterface({ input: child.stdout ?? process.stdin })) {
    const match = /^human-users example server listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(line);
    if (match?.[1] !== undefined) return { line, baseUrl: match[1] };
  }
  throw new Error("the example server stopped before listening");
}

describe("npm start", () => {
  it("says where it listens, serves callers with the demo token, refuses others, and stops on SIGTERM", async () => {
    const { line, baseUrl } = await start({ DEMO_TOKEN: "s3cret-demo" });
    const refused = await createDemoUser(baseUrl, "Bearer wrong-token");
    const accepted = await createDemoUser(baseUrl, "Bearer s3cret-demo");
    const acceptedBody = (await accepted.json()) as { details: { changeDate: string } };
    expect({
      line,
      refused: [refused.status, ((await refused.json()) as { code: number }).code],
      accepted: [accepted.status, acceptedBody],
    }).toEqual({
      line: `human-users example server listening on ${baseUrl} (storage in memory; send "Authorization: Bearer s3cret-demo")`,
      refused: [401, 16],
      accepted: [200, { userId: "demo-1", details: { sequence: "2", changeDate: acceptedBody.details.changeDate, resourceOwner: "demo-org" } }],
    });
    expect(await stop()).toBe(0);
  });

  it("keeps users across restarts in PGlite when PGLITE_DIR is set", async () => {
    const folder = mkdtempSync(join(tmpdir(), "human-users-example-"));
    try {
      const first = await start({ PGLITE_DIR: folder });
      const created = (await createDemoUser(first.baseUrl, "Bearer demo-token")).status;
      const firstStop = await stop();
      const second = await start({ PGLITE_DIR: folder });
      const again = await createDemoUser(second.baseUrl, "Bearer demo-token");
      expect({
        line: second.line,
        created,
        firstStop,
        again: [again.status, ((await again.json()) as { code: number }).code],
        secondStop: await stop(),
      }).toEqual({
        line: `human-users example server listening on ${second.baseUrl} (storage PGlite in ${folder}; send "Authorization: Bearer demo-token")`,
        created: 200,
        firstStop: 0,
        again: [409, 6],
        secondStop: 0,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000); // PGlite's first start creates its database cluster: seconds on a busy machine
});
