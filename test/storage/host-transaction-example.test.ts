// The host-transaction example (examples/host-transaction) runs and prints what it committed.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("examples/host-transaction", () => {
  it("commits Ann with her account and mails her after the commit; rolls Bob back with his refused account and mails nothing", async () => {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "examples/host-transaction/main.ts"], { timeout: 60_000 });
    expect({ stdout, stderr }).toEqual({
      stdout: [
        "ann: committed, 1 mail sent after the commit",
        'bob: rolled back (new row for relation "accounts" violates check constraint "accounts_plan_check")',
        "users: ann; accounts: ann; mails to: ann@acme.example",
        "",
      ].join("\n"),
      stderr: "",
    });
  }, 60_000);
});
