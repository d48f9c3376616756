// createHumanUser over HTTP: requests per second and latency percentiles through the example server
// (`npm start`'s, in its own process) from a keep-alive node:http client on loopback, beside the
// same handler called in-process (the baseline) and the bare operation, in this run. No password (so no hashing); codes are returned, so
// no mail. Bounded in time. Run with `npm run bench -- http`.
import { spawn, type ChildProcess } from "node:child_process";
import { Agent } from "node:http";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createHumanUser, httpStatus, memoryMailer, memoryStore, systemClock, type Ports, type Requester } from "../src/index.js";
import { createFetchHandler, type FetchHandler } from "../src/http/index.js";
import { newUserBody, postNewUser } from "./support/loopback-post.js";

const SECONDS = Number(process.env["BENCH_SECONDS"] ?? "5");
const WARM_UP_SECONDS = 1;
const CONCURRENCY = 8;
const TOKEN = "bench-token";
const ORG_ID = "demo-org";
const PATH = "/v2/users/human";


interface Figures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

/** Runs `once` from CONCURRENCY loops for `seconds`; every answer must be a success (2xx). */
async function drive(seconds: number, once: () => Promise<number>): Promise<Figures> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  async function loop(): Promise<void> {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const status = await once();
      if (status < 200 || status > 299) throw new Error(`bench request answered ${status}`);
      latencies.push(performance.now() - sent);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}

async function measure(once: () => Promise<number>): Promise<Figures> {
  await drive(WARM_UP_SECONDS, once);
  return drive(SECONDS, once);
}

const ADMIN: Requester = { userId: "bench-admin", orgId: ORG_ID, instanceAdmin: true };

function freshPorts(): Ports {
  const storage = memoryStore({ organizations: [{ id: ORG_ID, domains: [{ domain: "demo.localhost", verified: true }] }] });
  return { storage, mailer: memoryMailer(), clock: systemClock };
}

/** The operation alone, to show what the handler adds. */
async function callOperation(ports: Ports): Promise<number> {
  const result = await createHumanUser(ports, JSON.parse(newUserBody()) as unknown, { requester: ADMIN });
  return result.isOk() ? 200 : httpStatus(result.error.code);
}

async function callInProcess(handler: FetchHandler): Promise<number> {
  const response = await handler(
    new Request(`http://localhost${PATH}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: newUserBody() }),
  );
  await response.arrayBuffer();
  return response.status;
}

function callOverLoopback(agent: Agent, port: number): Promise<number> {
  return postNewUser(agent, port, PATH, TOKEN);
}

/** Starts `npm start`'s server on a free loopback port and reads the port from its start-up line. */
async function startExampleServer(): Promise<{ readonly child: ChildProcess; readonly port: number }> {
  const main = join(dirname(fileURLToPath(import.meta.url)), "..", "examples", "server", "main.ts");
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DEMO_TOKEN: TOKEN },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout ?? process.stdin });
  for await (const line of lines) {
    const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
    if (match?.[1] !== undefined) return { child, port: Number(match[1]) };
  }
  throw new Error("example server exited before listening");
}

function row(name: string, figures: Figures): string {
  return `| ${name} | ${figures.requests} | ${figures.perSecond.toFixed(0)} | ${figures.p50Ms.toFixed(2)} | ${figures.p99Ms.toFixed(2)} |`;
}

const operationPorts = freshPorts();
const direct = await measure(() => callOperation(operationPorts));
const handler = createFetchHandler(freshPorts(), { authenticate: () => ADMIN });
const inProcess = await measure(() => callInProcess(handler));

const { child, port } = await startExampleServer();
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
try {
  const loopback = await measure(() => callOverLoopback(agent, port));
  console.log(`createHumanUser without a password, ${CONCURRENCY} concurrent callers, ${SECONDS} s each after ${WARM_UP_SECONDS} s warm-up\n`);
  console.log("| path | requests | requests/s | p50 ms | p99 ms |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(row("createHumanUser called directly", direct));
  console.log(row("handler in-process (baseline)", inProcess));
  console.log(row("example server over loopback HTTP/1.1", loopback));
  console.log(`\nhandler / operation: ${(inProcess.perSecond / direct.perSecond).toFixed(2)}x the throughput`);
  console.log(`loopback / in-process: ${(loopback.perSecond / inProcess.perSecond).toFixed(2)}x the throughput, ${(loopback.p99Ms / inProcess.p99Ms).toFixed(2)}x the p99`);
} finally {
  agent.destroy();
  child.kill("SIGTERM");
}
