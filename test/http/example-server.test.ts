// `npm start`'s server as a user runs it: its start-up line, the demo token, and a clean stop.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killStartedServers, startExampleServer, stopExampleServer } from "./example-process.js";

afterEach(killStartedServers);

const demoBody = JSON.stringify({ userId: "demo-1", profile: { givenName: "Demo", familyName: "User" }, email: { email: "demo@demo.localhost", isVerified: true } });

function createDemoUser(baseUrl: string, authorization: string): Promise<Response> {
  return fetch(`${baseUrl}/v2/users/human`, { method: "POST", headers: { "content-type": "application/json", authorization }, body: demoBody });
}

describe("npm start", () => {
  it("says where it listens, serves callers with the demo token, refuses others, and stops on SIGTERM", async () => {
    const server = await startExampleServer({ DEMO_TOKEN: "s3cret-demo" });
    const { line, baseUrl } = server;
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
    expect(await stopExampleServer(server)).toBe(0);
  });

  it("keeps users across restarts in PGlite when PGLITE_DIR is set", async () => {
    const folder = mkdtempSync(join(tmpdir(), "human-users-example-"));
    try {
      const first = await startExampleServer({ PGLITE_DIR: folder });
      const created = (await createDemoUser(first.baseUrl, "Bearer demo-token")).status;
      const firstStop = await stopExampleServer(first);
      const second = await startExampleServer({ PGLITE_DIR: folder });
      const again = await createDemoUser(second.baseUrl, "Bearer demo-token");
      expect({
        line: second.line,
        created,
        firstStop,
        again: [again.status, ((await again.json()) as { code: number }).code],
        secondStop: await stopExampleServer(second),
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
