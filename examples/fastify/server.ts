// Fastify 5 with the library mounted under /users-api as middleware through @fastify/middie: the
// host's own routes sit beside it, and Fastify's body parsing never sees the library's requests.
// Run: `node --import tsx examples/fastify/server.ts` (PORT, default 3000).
import middie from "@fastify/middie";
import Fastify, { type FastifyInstance } from "fastify";
import { createNodeHandler } from "../../src/node/index.js";
import { demoPorts, requesterFor, type Started } from "../frameworks/demo.js";

export async function fastifyApp(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(middie);
  app.use("/users-api", createNodeHandler(demoPorts(), { authenticate: (request) => requesterFor(request.headers.authorization) }));
  app.get("/", () => ({ host: "fastify" }));
  return app;
}

export async function startFastify(port = 0): Promise<Started> {
  const app = await fastifyApp();
  const url = await app.listen({ port, host: "127.0.0.1" });
  return { url, close: () => app.close() };
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  const started = await startFastify(Number(process.env["PORT"] ?? "3000"));
  console.log(`fastify example listening on ${started.url}/users-api`);
}
