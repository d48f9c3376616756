// Hono on Node (@hono/node-server) with the library's Fetch handler mounted under /users-api:
// `app.mount` takes the prefix off before the handler sees the path.
// Run: `node --import tsx examples/hono/server.ts` (PORT, default 3000).
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";
import { createFetchHandler } from "../../src/http/index.js";
import { demoPorts, requesterFor, type Started } from "../frameworks/demo.js";

export function honoApp(): Hono {
  const app = new Hono();
  app.mount("/users-api", createFetchHandler(demoPorts(), { authenticate: (request) => requesterFor(request.headers.get("authorization")) }));
  app.get("/", (context) => context.json({ host: "hono" }));
  return app;
}

export function startHono(port = 0): Promise<Started> {
  return new Promise((resolve) => {
    const server = serve({ fetch: honoApp().fetch, port, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const started = await startHono(Number(process.env["PORT"] ?? "3000"));
  console.log(`hono example listening on ${started.url}/users-api`);
}
