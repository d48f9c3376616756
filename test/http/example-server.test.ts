// `npm start`'s server as a user runs it: its start-up line, the demo token, and a clean stop.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";

let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
});

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
    const body = JSON.stringify({ userId: "demo-1", profile: { givenName: "Demo", familyName: "User" }, email: { email: "demo@demo.localhost", isVerified: true } });
    const post = (authorization: string): Promise<Response> =>
      fetch(`${baseUrl}/v2/users/human`, { method: "POST", headers: { "content-type": "application/json", authorization }, body });
    const refused = await post("Bearer wrong-token");
    const accepted = await post("Bearer s3cret-demo");
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
    child?.kill("SIGTERM");
    const [code] = (await once(child ?? process, "exit")) as [number | null];
    expect(code).toBe(0);
  });
});
