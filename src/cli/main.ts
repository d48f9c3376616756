#!/usr/bin/env node
// The `human-users` command. Node only.
import { parseArguments } from "./arguments.js";
import { usage, usageLine } from "./help.js";
import { runImport } from "./import-command.js";
import { packageVersion } from "./version.js";

async function main(): Promise<number> {
  const parsed = parseArguments(process.argv.slice(2));
  if (parsed.kind === "help") {
    process.stdout.write(usage);
    return 0;
  }
  if (parsed.kind === "version") {
    process.stdout.write(`human-users ${packageVersion()}\n`);
    return 0;
  }
  if (parsed.kind === "error") {
    // The error and the usage line, not the whole help: the error is what must be seen.
    process.stderr.write(`human-users: ${parsed.message}\n${usageLine}\nRun "human-users --help" for every option.\n`);
    return 2;
  }
  const stop = new AbortController();
  const onInterrupt = (): void => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    process.stderr.write("\nstopping after the batch in progress (Ctrl-C again to quit at once)\n");
  };
  process.on("SIGINT", onInterrupt);
  try {
    const result = await runImport(parsed.command, { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: stop.signal });
    return result.exitCode;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`human-users: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
