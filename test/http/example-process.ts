// `npm start`'s server in its own process, as a user runs it, on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

export interface ExampleServer {
  readonly child: ChildProcess;
  /** The start-up line. */
  readonly line: string;
  readonly baseUrl: string;
  readonly port: number;
}

const started = new Set<ChildProcess>();

export async function startExampleServer(env: Readonly<Record<string, string>> = {}): Promise<ExampleServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/server/main.ts"], {
    env: { ...process.env, ...env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.add(child);
  for await (const line of createInterface({ input: child.stdout ?? process.stdin })) {
    const match = /^human-users example server listening on (http:\/\/127\.0\.0\.1:(\d+)) /.exec(line);
    if (match?.[1] !== undefined) {
      // Keep reading what it prints (mail, for one), so that a full pipe never blocks it.
      child.stdout?.resume();
      return { child, line, baseUrl: match[1], port: Number(match[2]) };
    }
  }
  throw new Error("the example server stopped before listening");
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
}
