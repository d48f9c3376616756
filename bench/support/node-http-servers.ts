// The servers the node-http bench drives, in a process of their own so that the client's work
// does not share their event loop: a bare node:http server that reads the body and answers a fixed
// JSON body, createNodeHandler, and createFetchHandler through toNodeHandler. Each on its own
// loopback port, printed as one JSON line. `--cpu-prof` on this process profiles the servers alone;
// naming one of them (`bare`, `node`, `fetch`) as the argument starts only that one, for a profile of it alone.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { memoryMailer, memoryStore, systemClock, type Ports, type Requester } from "../../src/index.js";
import { createFetchHandler } from "../../src/http/index.js";
import { createNodeHandler, toNodeHandler } from "../../src/node/index.js";

const ADMIN: Requester = { userId: "bench-admin", orgId: "demo-org", instanceAdmin: true };
const TOKEN = "Bearer bench-token";

function freshPorts(): Ports {
  return { storage: memoryStore({ organizations: [{ id: "demo-org", domains: [{ domain: "demo.localhost", verified: true }] }] }), mailer: memoryMailer(), clock: systemClock };
}

const authenticate = (authorization: string | null | undefined): Requester | undefined => (authorization === TOKEN ? ADMIN : undefined);

/** What the library answers a new user with, byte for byte the same size. */
const FIXED = JSON.stringify({ userId: "335551616066781185", details: { sequence: "2", changeDate: "2026-11-23T06:40:00.000Z", resourceOwner: "demo-org" }, emailCode: "ABCDEF" });

type ServerName = "bare" | "node" | "fetch";

const bare = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    Buffer.concat(chunks);
    response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store", "content-length": Buffer.byteLength(FIXED) });
    response.end(FIXED);
  });
});
const node = createServer(createNodeHandler(freshPorts(), { authenticate: (request) => authenticate(request.headers.authorization) }));
const fetchThroughNode = createServer(toNodeHandler(createFetchHandler(freshPorts(), { authenticate: (request) => authenticate(request.headers.get("authorization")) })));

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

const servers: Readonly<Record<ServerName, Server>> = { bare, node, fetch: fetchThroughNode };
const only = process.argv[2];
const ports: Partial<Record<ServerName, number>> = {};
for (const name of ["bare", "node", "fetch"] as const) if (only === undefined || only === name) ports[name] = await listen(servers[name]);
console.log(JSON.stringify(ports));
// Stops (and writes its profile, under --cpu-prof) when the bench closes its stdin.
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
