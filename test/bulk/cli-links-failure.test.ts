// `human-users import` when the links file fails at its first write (a full disk, say), after
// the checks before the start passed: the batch holding the link is not written, and the command
// says whose link it was and what to do. The file is made to fail through the module, since no
// real file passes the start's check and then refuses a write on cue.
import { describe, expect, it, vi } from "vitest";
import { runImport, type CommandIo } from "../../src/cli/import-command.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { importCommand, scratchFolder, userRequest } from "./support.js";

const diskFull = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/cli/links.js", async (original) => {
  const links = await original<typeof import("../../src/cli/links.js")>();
  return {
    ...links,
    openLinks(path: string) {
      const file = links.openLinks(path);
      return {
        get written() {
          return file.written;
        },
        write: (entries: Parameters<typeof file.write>[0]) =>
          diskFull.on ? Promise.reject(new links.LinksWriteError(path, new Error("ENOSPC: no space left on device"))) : file.write(entries),
        close: () => file.close(),
      };
    },
  };
});

const scratch = scratchFolder("cli-links-failure");
const appKeys = {
  HUMAN_USERS_CODE_HMAC_KEY: Buffer.alloc(32, 5).toString("base64"),
  HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32, 6).toString("base64"),
  HUMAN_USERS_KEY_ID: "app-2026",
};

function captured(): CommandIo & { readonly out: string[]; readonly err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env: appKeys };
}

describe(`human-users import when the links file fails on ${postgresUrl === undefined ? "PGlite" : "PostgreSQL"}`, () => {
  it("writes none of the batch holding a link it could not keep, names its line, exits 2, and a re-run imports everyone", async () => {
    const rows = [userRequest("bob"), { ...userRequest("ann"), requestPasswordlessRegistration: true }, userRequest("cy")];
    const path = scratch.file("users.jsonl", `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
    const database = await cliDatabase("linksfail");
    const run = importCommand(path, database.target, { origin: "https://login.acme.test" });
    try {
      diskFull.on = true;
      const failed = captured();
      expect(await runImport(run, failed)).toEqual({ exitCode: 2 });
      expect(failed.err.join("")).toBe(
        `human-users import: the links file ${run.linksPath} could not be written (ENOSPC: no space left on device): the user of line 2, and those written with it, were not imported; run the command again once the file can be written\n`,
      );
      expect((await database.contents()).usernames).toEqual([]);

      diskFull.on = false;
      const again = captured();
      expect(await runImport(run, again)).toMatchObject({ exitCode: 0, summary: { rows: 3, imported: 3, existing: 0, failed: 0 } });
      expect((await database.contents()).usernames).toEqual(["ann", "bob", "cy"]);
    } finally {
      diskFull.on = false;
      await database.drop();
    }
  }, 60_000);
});
