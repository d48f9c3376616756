// PGlite is one process per folder: two processes writing one folder at once damage it (users
// answered ok and not stored, claims and index entries lost, a folder PGlite can no longer open).
// PGlite takes no lock of its own, so the library's import and any application take this one.

/** The file in a PGlite folder that names the process holding it. */
export const PGLITE_LOCK_FILE = "human-users.lock";

/** A PGlite folder held by this process. */
export interface PgliteFolderLock {
  /** The lock file. */
  readonly path: string;
  /** Gives the folder up (after `db.close()`); leaves a lock that is no longer this one's alone. */
  release(): Promise<void>;
}

/** The folder is held by another live process (or by another lock of this one). */
export class PgliteFolderInUseError extends Error {
  override readonly name = "PgliteFolderInUseError";

  constructor(
    readonly dataDir: string,
    /** The process holding it. */
    readonly holder: number,
    readonly path: string,
  ) {
    super(`the PGlite database in ${dataDir} is in use by process ${holder}: PGlite takes one process at a time, so wait for it to end (or remove ${path} if no such process is yours)`);
  }
}

/** Locks this process holds now, by their file's content: a second lock of one folder is refused too. */
const held = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

/**
 * Takes the PGlite folder `dataDir` (made when missing) for this process before it is opened
 * (`new PGlite(dataDir)`), or rejects with `PgliteFolderInUseError` naming the live process that
 * holds it. A lock left by a process that is gone (killed) is taken over. `human-users import
 * --data-dir` takes the same lock, so an import and an application never write one folder at
 * once. Node only (it uses the file system), and loaded only when called.
 */
export async function lockPgliteFolder(dataDir: string): Promise<PgliteFolderLock> {
  const fs = await import("node:fs");
  const { join } = await import("node:path");
  const { randomUUID } = await import("node:crypto");
  fs.mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, PGLITE_LOCK_FILE);
  // The pid first, for people and for older imports; the token tells this lock from an earlier
  // one of the same pid (a container's pid 1 after a restart).
  const content = `${process.pid}\n${randomUUID()}\n`;
  const release = async (): Promise<void> => {
    held.delete(content);
    let now: string | undefined;
    try {
      now = fs.readFileSync(path, "utf8");
    } catch {
      return;
    }
    if (now === content) fs.rmSync(path, { force: true });
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    // Written whole under another name, then linked in: the lock never exists without its holder.
    const draft = `${path}.${process.pid}.${randomUUID()}`;
    fs.writeFileSync(draft, content);
    try {
      fs.linkSync(draft, path);
      held.add(content);
      return { path, release };
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
    let found: string;
    try {
      found = fs.readFileSync(path, "utf8");
    } catch {
      continue; // Given up meanwhile.
    }
    const holder = Number(found.split("\n", 1)[0]);
    const live = Number.isSafeInteger(holder) && holder > 0 && (holder === process.pid ? held.has(found) : processAlive(holder));
    if (live) throw new PgliteFolderInUseError(dataDir, holder, path);
    // Left by a process that is gone: moved aside whole, then checked to be the one read, so that
    // a lock another process took meanwhile is put back rather than broken.
    const aside = `${path}.stale.${process.pid}.${randomUUID()}`;
    try {
      fs.renameSync(path, aside);
    } catch {
      continue;
    }
    if (fs.readFileSync(aside, "utf8") !== found) {
      try {
        fs.linkSync(aside, path);
      } catch {
        // Taken again meanwhile: that one stands.
      }
    }
    fs.rmSync(aside, { force: true });
  }
  throw new Error(`cannot lock the PGlite folder ${dataDir}: other processes kept taking it`);
}
