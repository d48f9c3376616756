// PGlite is one process at a time: two imports writing one folder at once corrupted it (users
// twice, claims lost). The import takes the folder with a lock file, refuses a folder another live
// process holds, and takes over a lock whose process is gone. A dry run's look takes it too.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inspectStore, openStore, PGLITE_LOCK_FILE, SetupError } from "../../src/cli/open-storage.js";
import { scratchFolder } from "./support.js";

const scratch = scratchFolder("pglite-lock");

describe("the import's PGlite folder", () => {
  it("is refused to a second opener while another live process has it, and free again once it is closed", async () => {
    const dataDir = join(scratch.path, "shared");
    const first = await openStore({ dataDir });
    const lock = join(dataDir, PGLITE_LOCK_FILE);
    // Held by the parent process (alive): our own pid in the lock counts as a lock left by an earlier run.
    writeFileSync(lock, String(process.ppid));
    try {
      const second = await openStore({ dataDir }).then(
        () => "opened",
        (error: unknown) => (error instanceof SetupError ? error.message : String(error)),
      );
      expect(second).toBe(`the PGlite database in ${dataDir} is in use by process ${process.ppid}: PGlite takes one process at a time, so wait for it to end (or remove ${lock} if no such process is yours)`);
    } finally {
      await first.close();
    }
    // Closing gives up the lock file whoever the file names.
    expect(existsSync(lock)).toBe(false);
    const again = await openStore({ dataDir });
    await again.close();
  }, 60_000);

  it("is taken by a dry run's look as well: refused while an import has it, and held from the import while the dry run reads", async () => {
    const dataDir = join(scratch.path, "dry");
    await (await openStore({ dataDir })).close();
    const lock = join(dataDir, PGLITE_LOCK_FILE);
    writeFileSync(lock, String(process.ppid));
    const refused = await inspectStore({ dataDir }).then(
      () => "opened",
      (error: unknown) => (error instanceof SetupError ? error.message : String(error)),
    );
    expect(refused).toBe(`the PGlite database in ${dataDir} is in use by process ${process.ppid}: PGlite takes one process at a time, so wait for it to end (or remove ${lock} if no such process is yours)`);
    writeFileSync(lock, "");
    const look = await inspectStore({ dataDir });
    if (!("opened" in look)) throw new Error("the folder's tables were not found");
    try {
      expect(readFileSync(lock, "utf8")).toBe(String(process.pid));
      // Another process's import meanwhile (the parent's pid stands for it) is refused.
      writeFileSync(lock, String(process.ppid));
      expect(await openStore({ dataDir }).then(() => "opened", (error: unknown) => (error instanceof SetupError ? "refused" : String(error)))).toBe("refused");
      writeFileSync(lock, String(process.pid));
    } finally {
      await look.opened.close();
    }
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it("takes over a lock left by a process that is gone (an import killed mid-run)", async () => {
    const dataDir = join(scratch.path, "stale");
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const deadPid = Number(gone.stdout);
    await (await openStore({ dataDir })).close();
    writeFileSync(join(dataDir, PGLITE_LOCK_FILE), String(deadPid));
    const opened = await openStore({ dataDir });
    expect(readFileSync(join(dataDir, PGLITE_LOCK_FILE), "utf8")).toBe(String(process.pid));
    await opened.close();
  }, 60_000);
});
