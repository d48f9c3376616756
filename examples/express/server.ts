// Express 5 with the library mounted under /users-api as middleware: the host's own routes sit
// beside it, and a path under /users-api that the library does not serve falls through to them.
// Run: `node --import tsx examples/express/server.ts` (PORT, default 3000).
import express from "express";
import type { AddressInfo } from "node:net";
import { createNodeHandler } from "../../src/node/index.js";
import { demoPorts, requesterFor, type Started } from "../frameworks/demo.js";

export function expressApp(): express.Express {
  const app = express();
  // Mounted before any body parser: the handler reads the body itself, under its own limit.
  app.use("/users-api", createNodeHandler(demoPorts(), { authenticate: (request) => requesterFor(request.headers.authorization) }));
  app.use(express.json());
  app.get("/", (_request, response) => {
    response.json({ host: "express" });
  });
  return app;
}

export function startExpress(port = 0): Promise<Started> {
  return new Promise((resolve) => {
    const server = expressApp().listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${bound}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const started = await startExpress(Number(process.env["PORT"] ?? "3000"));
  console.log(`express example listening on ${started.url}/users-api`);
}
