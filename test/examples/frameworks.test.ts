// The Express, Fastify and Hono examples, each started on a loopback port and tried over real HTTP.
import { afterEach, describe, expect, it } from "vitest";
import { startExpress } from "../../examples/express/server.js";
import { startFastify } from "../../examples/fastify/server.js";
import type { Started } from "../../examples/frameworks/demo.js";
import { startHono } from "../../examples/hono/server.js";
import { expectedAnswers, tryExample } from "./exchange.js";

const running: Started[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((started) => started.close()));
});

describe.each([
  ["express", startExpress],
  ["fastify", startFastify],
  ["hono", startHono],
] as const)("the %s example", (name, start) => {
  it("creates a user through the framework under /users-api and answers whole bodies", async () => {
    const started = await start();
    running.push(started);
    const answers = await tryExample(`${started.url}/users-api`);
    expect(answers).toEqual(expectedAnswers(String(answers["userId"]?.body)));
  });

  it("leaves the host's own routes to the framework", async () => {
    const started = await start();
    running.push(started);
    const own = await fetch(`${started.url}/`);
    const notOurs = await fetch(`${started.url}/users-api/v2/groups`, { method: "POST", body: "{}" });
    expect([own.status, await own.json(), notOurs.status]).toEqual([200, { host: name }, 404]);
  });
});
