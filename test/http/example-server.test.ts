// `npm start`'s server as a user runs it: its start-up line, the demo token, and a clean stop.
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exitCode, failedStart, isRunning, killStartedServers, startExampleServer, stopExampleServer, type FailedStart } from "./example-process.js";
import { openRaw, parseAnswers } from "./raw-http.js";

afterEach(killStartedServers);

const demoBody = JSON.stringify({ userId: "demo-1", profile: { givenName: "Demo", familyName: "User" }, email: { email: "demo@demo.localhost", isVerified: true } });

function createDemoUser(baseUrl: string, authorization: string): Promise<Response> {
  return fetch(`${baseUrl}/v2/users/human`, { method: "POST", headers: { "content-type": "application/json", authorization }, body: demoBody });
}

/** Resolves once nothing accepts connections on `port` any more: the server has stopped listening. */
async function untilRefused(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.on("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.on("error", () => resolve(true));
    });
    if (refused) return;
    await sleep(20);
  }
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
      line: `human-users example server listening on ${baseUrl} (pid ${server.pid}; storage in memory; send "Authorization: Bearer s3cret-demo")`,
      refused: [401, 16],
      accepted: [201, { userId: "demo-1", details: { sequence: "2", changeDate: acceptedBody.details.changeDate, resourceOwner: "demo-org" } }],
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
        line: `human-users example server listening on ${second.baseUrl} (pid ${second.pid}; storage PGlite in ${folder}; send "Authorization: Bearer demo-token")`,
        created: 201,
        firstStop: 0,
        again: [409, 6],
        secondStop: 0,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000); // PGlite's first start creates its database cluster: seconds on a busy machine

  const refused = (line: string): FailedStart => ({ exitCode: 1, errors: [`human-users example server: ${line}`], printed: [] });

  it.each([
    ["PORT=abc", { PORT: "abc" }, 'PORT must be a whole number from 0 to 65535; got "abc"'],
    ["a PORT out of range", { PORT: "70000" }, 'PORT must be a whole number from 0 to 65535; got "70000"'],
    ["a STOP_GRACE_MS that is not a whole number", { STOP_GRACE_MS: "soon" }, 'STOP_GRACE_MS must be a whole number from 0 to 3600000; got "soon"'],
    ["an unreachable DATABASE_URL", { DATABASE_URL: "postgres://postgres@127.0.0.1:1/test" }, "could not open storage: the database cannot be reached"],
    ["a DATABASE_URL that is not a URL", { DATABASE_URL: "not a url" }, "could not open storage: Invalid URL"],
  ])("refuses to start with %s: one line, exit 1", async (_name, env, line) => {
    expect(await failedStart(env)).toEqual(refused(line));
  });

  it("refuses to start on a port that is taken: one line, exit 1", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      expect(await failedStart({ PORT: String(port) })).toEqual(refused(`port ${port} on 127.0.0.1 is already in use (set PORT to another, or 0 for any free port)`));
    } finally {
      taken.close();
    }
  });

  it("refuses to start with keys in the environment that are not usable", async () => {
    const failed = await failedStart({ HUMAN_USERS_CODE_HMAC_KEY: "c2hvcnQ=", HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64") });
    expect({ exitCode: failed.exitCode, lines: failed.errors.length, printed: failed.printed }).toEqual({ exitCode: 1, lines: 1, printed: [] });
  });

  describe("on SIGTERM with a request in flight", () => {
    const head = `POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-token\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(demoBody)}\r\n\r\n`;

    it("answers it, closes its connection rather than keep it alive, and exits", async () => {
      const server = await startExampleServer();
      const connection = openRaw(server.port, 10_000);
      await connection.write(head + demoBody.slice(0, 10));
      server.child.kill("SIGTERM");
      await untilRefused(server.port);
      await connection.write(demoBody.slice(10));
      const { received, closedByServer } = await connection.exchange;
      const answers = parseAnswers(received);
      const changeDate = (answers[0]?.body as { details?: { changeDate?: string } } | undefined)?.details?.changeDate;
      const body = { userId: "demo-1", details: { sequence: "2", changeDate, resourceOwner: "demo-org" } };
      expect({ answers, closedByServer, exitCode: await exitCode(server.child) }).toEqual({
        answers: [
          {
            status: 201,
            headers: { "content-type": "application/json", "cache-control": "no-store", connection: "close", "content-length": String(JSON.stringify(body).length) },
            body,
          },
        ],
        closedByServer: true,
        exitCode: 0,
      });
    });

    it("cuts off a client that stalls half way through its body once STOP_GRACE_MS has passed, and exits", async () => {
      const server = await startExampleServer({ STOP_GRACE_MS: "200" });
      const connection = openRaw(server.port, 10_000);
      await connection.write(head + demoBody.slice(0, 10));
      server.child.kill("SIGTERM");
      expect([await connection.exchange, await exitCode(server.child)]).toEqual([{ received: "", closedByServer: true }, 0]);
    });
  });

  describe("started as `npm start`", () => {
    it.each(["SIGTERM", "SIGINT"] as const)("stops npm and the server on %s to the npm process", async (signal) => {
      const server = await startExampleServer({}, "npm");
      server.child.kill(signal);
      await untilRefused(server.port);
      await exitCode(server.child);
      // npm ends the way its script did, or by the same signal once the script has exited.
      expect({ npmEnded: server.child.exitCode === 0 || server.child.signalCode === signal, serverRunning: isRunning(server.pid) }).toEqual({ npmEnded: true, serverRunning: false });
    }, 30_000);

    it("cuts off a client holding a half-sent request once STOP_GRACE_MS has passed", async () => {
      const server = await startExampleServer({ STOP_GRACE_MS: "300" }, "npm");
      const connection = openRaw(server.port, 10_000);
      await connection.write(`POST /v2/users/human HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer demo-token\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"userId":`);
      const signalled = performance.now();
      server.child.kill("SIGTERM");
      const exchange = await connection.exchange;
      const closedAfterMs = performance.now() - signalled;
      await exitCode(server.child);
      expect({ exchange, npmEnded: server.child.exitCode === 0 || server.child.signalCode === "SIGTERM", serverRunning: isRunning(server.pid), withinGrace: closedAfterMs >= 250 && closedAfterMs < 5_000 }).toEqual({
        exchange: { received: "", closedByServer: true },
        npmEnded: true,
        serverRunning: false,
        withinGrace: true,
      });
    }, 30_000);

    it("prints one line and exits non-zero for a bad PORT", async () => {
      const failed = await failedStart({ PORT: "abc" }, "npm");
      expect({ exitCode: failed.exitCode, errors: failed.errors.filter((line) => line.startsWith("human-users")) }).toEqual({
        exitCode: 1,
        errors: ['human-users example server: PORT must be a whole number from 0 to 65535; got "abc"'],
      });
    }, 30_000);
  });
});
