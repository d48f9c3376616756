// `npm start`'s server in its own process, as a user runs it, on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

export interface ExampleServer {
  /** The process started: node itself, or npm when started as `npm start`. */
  readonly child: ChildProcess;
  /** The start-up line. */
  readonly line: string;
  readonly baseUrl: string;
  readonly port: number;
  /** The server's own process id, from its start-up line. */
  readonly pid: number;
}

const started = new Set<ChildProcess>();
/** Servers' own ids: under npm, killing npm alone would leave the server running. */
const serverPids = new Set<number>();

/** How the server is started: node with tsx's loader, or `npm start` as a user types it. */
export type Launch = "node" | "npm";

function spawnServer(launch: Launch, env: Readonly<Record<string, string>>): ChildProcess {
  const options = { env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env }, stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"] };
  const child = launch === "npm" ? spawn("npm", ["start", "--silent"], options) : spawn(process.execPath, ["--import", "tsx", "examples/server/main.ts"], options);
  started.add(child);
  return child;
}

export async function startExampleServer(env: Readonly<Record<string, string>> = {}, launch: Launch = "node"): Promise<ExampleServer> {
  const child = spawnServer(launch, env);
  child.stderr?.pipe(process.stderr);
  for await (const line of createInterface({ input: child.stdout ?? process.stdin })) {
    const match = /^human-users example server listening on (http:\/\/127\.0\.0\.1:(\d+)) \(pid (\d+);/.exec(line);
    if (match?.[1] !== undefined) {
      // Keep reading what it prints (mail, for one), so that a full pipe never blocks it.
      child.stdout?.resume();
      serverPids.add(Number(match[3]));
      return { child, line, baseUrl: match[1], port: Number(match[2]), pid: Number(match[3]) };
    }
  }
  throw new Error("the example server stopped before listening");
}

export interface FailedStart {
  readonly exitCode: number | null;
  /** What it printed on stderr, npm's own warnings left out. */
  readonly errors: readonly string[];
  readonly printed: readonly string[];
}

/** Runs the server to its exit, for settings it must refuse. */
export async function failedStart(env: Readonly<Record<string, string>>, launch: Launch = "node"): Promise<FailedStart> {
  const child = spawnServer(launch, env);
  const errors: string[] = [];
  const printed: string[] = [];
  const reading = Promise.all([
    (async () => {
      for await (const line of createInterface({ input: child.stderr ?? process.stdin })) if (!line.startsWith("npm warn")) errors.push(line);
    })(),
    (async () => {
      for await (const line of createInterface({ input: child.stdout ?? process.stdin })) printed.push(line);
    })(),
  ]);
  const code = await exitCode(child);
  await reading;
  return { exitCode: code, errors, printed };
}

/** Whether a process with this id is still running. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves with the exit code once `child` has exited (at once if it already has). */
export async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const [code] = (await once(child, "exit")) as [number | null];
  return code;
}

export function stopExampleServer(server: ExampleServer): Promise<number | null> {
  server.child.kill("SIGTERM");
  return exitCode(server.child);
}

/** For `afterEach`/`afterAll`: no test leaves a server running, whatever it asserted. */
export function killStartedServers(): void {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  started.clear();
  for (const pid of serverPids) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  serverPids.clear();
}
