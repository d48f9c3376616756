// POST /v2/users/human creating a new user (no password, `returnCode`) on the memory store, over
// loopback HTTP/1.1 with keep-alive and 8 callers: createNodeHandler, and createFetchHandler through
// toNodeHandler, against a bare node:http server that reads the body and answers a fixed JSON body
// of the same size, in interleaved rounds of the same run. The servers run in their own process.
// `npm run bench -- node-http`; BENCH_ROUNDS (5) and BENCH_ROUND_MS (2000) tune it, and
// BENCH_SERVER_FLAGS="--cpu-prof --cpu-prof-dir=prof" profiles the servers' process. With
// BENCH_SERVERS_APART=1 each server runs in a process of its own, so that each profile is one server's.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent } from "node:http";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { postNewUser } from "./support/loopback-post.js";
import { figuresTable, interleavedRounds } from "./support/rounds.js";

const CALLERS = 8;
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? "5");
const ROUND_MS = Number(process.env["BENCH_ROUND_MS"] ?? "2000");
const PATH = "/v2/users/human";

/** One call; anything but a success (201 from the library, 200 from the bare server) stops the bench, so that a figure never counts refusals. */
async function post(agent: Agent, port: number): Promise<void> {
  const status = await postNewUser(agent, port, PATH, "bench-token");
  if (status < 200 || status > 299) throw new Error(`answered ${status}`);
}

interface ServerPorts {
  readonly bare: number;
  readonly node: number;
  readonly fetch: number;
}

/** The servers script in a child process, started with `args`, and the ports it printed. */
async function startServers(args: readonly string[]): Promise<{ readonly child: ChildProcess; readonly ports: Partial<ServerPorts> }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), "support", "node-http-servers.ts");
  const child = spawn(process.execPath, [...(process.env["BENCH_SERVER_FLAGS"] ?? "").split(" ").filter(Boolean), "--import", "tsx", script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  for await (const line of createInterface({ input: child.stdout })) return { child, ports: JSON.parse(line) as Partial<ServerPorts> };
  throw new Error("the servers process printed no ports");
}

const started = process.env["BENCH_SERVERS_APART"] === "1" ? await Promise.all(["bare", "node", "fetch"].map((name) => startServers([name]))) : [await startServers([])];
const ports = Object.assign({}, ...started.map((servers) => servers.ports)) as ServerPorts;

const agent = new Agent({ keepAlive: true, maxSockets: CALLERS });
try {
  const figures = await interleavedRounds(
    [
      { name: "bare node:http, fixed JSON (baseline)", run: () => post(agent, ports.bare), inFlight: CALLERS },
      { name: "createNodeHandler", run: () => post(agent, ports.node), inFlight: CALLERS },
      { name: "createFetchHandler via toNodeHandler", run: () => post(agent, ports.fetch), inFlight: CALLERS },
    ],
    ROUNDS,
    ROUND_MS,
  );
  console.log(`POST ${PATH}, new user with returnCode, memory store, loopback HTTP/1.1 keep-alive, ${CALLERS} callers, ${ROUNDS} rounds of ${ROUND_MS} ms\n`);
  console.log(figuresTable(figures));
  for (const figure of figures.slice(1)) {
    console.log(`\n${figure.name}: ${(1 / figure.ratio.median).toFixed(2)} of bare node:http (${(1 / figure.ratio.max).toFixed(2)}–${(1 / figure.ratio.min).toFixed(2)}); aim ≥ 0.5`);
  }
} finally {
  agent.destroy();
  for (const servers of started) servers.child.stdin?.end();
}
