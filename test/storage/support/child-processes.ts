// Node processes for the tests that need more than one process against one database: each child
// runs a TypeScript script through tsx and talks to the test over the IPC channel. A child whose
// test fails or times out is killed by `killAll`; one whose test process dies exits by itself
// (the child scripts leave when the channel closes).
import { fork, type ChildProcess } from "node:child_process";

/** A message between the test and a child: `type` says what it is. */
export interface ChildMessage {
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface Child {
  send(message: ChildMessage): void;
  /** The next message of this type; rejects when the child exits before sending it. */
  next(type: string): Promise<ChildMessage>;
  /** Closes the channel: the child scripts leave when it closes. */
  disconnect(): void;
  /** Resolves when the child exits with code 0; rejects on any other exit. */
  readonly exited: Promise<void>;
}

export interface ChildGroup {
  start(script: string, env: Readonly<Record<string, string>>): Child;
  /** SIGKILL to every child still running; waits until each has gone. */
  killAll(): Promise<void>;
}

function isMessage(value: unknown): value is ChildMessage {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

function running(process: ChildProcess): boolean {
  return process.exitCode === null && process.signalCode === null;
}

function watch(process: ChildProcess, name: string): Child {
  const received: ChildMessage[] = [];
  const waiting: { type: string; resolve: (message: ChildMessage) => void; reject: (error: Error) => void }[] = [];
  let errors = "";
  let gone: Error | undefined;
  process.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));

  function settle(): void {
    for (const waiter of [...waiting]) {
      const index = received.findIndex((message) => message.type === waiter.type);
      if (index >= 0) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(received.splice(index, 1)[0] as ChildMessage);
      } else if (gone !== undefined) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.reject(gone);
      }
    }
  }

  process.on("message", (message: unknown) => {
    if (isMessage(message)) received.push(message);
    settle();
  });
  const exited = new Promise<void>((resolve, reject) => {
    process.on("error", reject);
    process.on("exit", (code, signal) => {
      const ended = code === 0 ? undefined : new Error(`${name} exited with ${signal ?? code}: ${errors.trim()}`);
      gone = ended ?? new Error(`${name} exited`);
      settle();
      if (ended === undefined) resolve();
      else reject(ended);
    });
  });
  // Whoever waits for a message hears of a failed exit there; this keeps it from going unhandled meanwhile.
  exited.catch(() => undefined);

  return {
    send: (message) => {
      process.send(message);
    },
    disconnect: () => {
      if (process.connected) process.disconnect();
    },
    next: (type) =>
      new Promise((resolve, reject) => {
        waiting.push({ type, resolve, reject });
        settle();
      }),
    exited,
  };
}

export function childGroup(): ChildGroup {
  const processes: ChildProcess[] = [];
  return {
    start(script, env) {
      const child = fork(script, [], {
        execArgv: ["--import", "tsx"],
        env: { ...process.env, ...env },
        stdio: ["ignore", "inherit", "pipe", "ipc"],
      });
      processes.push(child);
      return watch(child, `${script} (pid ${child.pid ?? "?"})`);
    },
    async killAll() {
      await Promise.all(
        processes.filter(running).map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once("exit", () => resolve());
              child.kill("SIGKILL");
            }),
        ),
      );
    },
  };
}
