// PGlite is one process per folder: two processes writing one folder at once damage it (users
// answered ok and not stored, claims and index entries lost, a folder PGlite can no longer open).
// PGlite takes no lock of its own, so the library's import and any application take this one.
import { errorCode } from "../../shared/error-code.js";

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

/**
 * When this process started, to the second: a lock naming this pid is this process's (another
 * thread, another copy of the library) when it names this start too, and an earlier run's (a
 * container's pid 1 after a restart) when it does not.
 */
const processStart = (): number => Math.round(Date.now() / 1000 - process.uptime());

/** A break lock older than this is left by a crash whatever its pid says: breaking takes milliseconds. */
const BREAK_LOCK_MAX_AGE_MS = 10_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return errorCode(error) === "EPERM";
  }
}

type FileSystem = typeof import("node:fs");

/** A file's text, or undefined when it is gone; any other failure (unreadable, a folder) is thrown. */
function readIfThere(fs: FileSystem, path: string): string | undefined {
  try {
    return fs.readFileSync(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

/** The text of a lock file: pid, a token of its own, the holder's start (seconds) and when it was written (ms). */
function lockText(): string {
  return `${process.pid}\n${crypto.randomUUID()}\n${processStart()}\n${Date.now()}\n`;
}

/** Whether a lock file's text names a process that still holds it. */
function holdsLive(text: string): { readonly holder: number; readonly live: boolean } {
  const [pid, , started] = text.split("\n");
  const holder = Number(pid);
  if (!Number.isSafeInteger(holder) || holder <= 0) return { holder, live: false };
  // Within a second or two of this process's start: the clock may step a little between readings.
  if (holder === process.pid) return { holder, live: Math.abs(Number(started) - processStart()) <= 2 };
  return { holder, live: processAlive(holder) };
}

/** Whether a break lock's text is left by a crash: its process is gone, or it is older than breaking ever takes. */
function breakLockLeft(text: string): boolean {
  const written = Number(text.split("\n")[3]);
  return !holdsLive(text).live || !(Date.now() - written < BREAK_LOCK_MAX_AGE_MS);
}

/** `content` written whole beside `path`, under a name of its own; the draft's path. */
function writeDraft(fs: FileSystem, path: string, content: string): string {
  const draft = `${path}.${process.pid}.${crypto.randomUUID()}`;
  fs.writeFileSync(draft, content);
  return draft;
}

/** Links `content`, written whole under a name of its own, in at `path`; false when `path` exists. */
function linkWhole(fs: FileSystem, path: string, content: string): boolean {
  const draft = writeDraft(fs, path, content);
  try {
    fs.linkSync(draft, path);
    return true;
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    return false;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/**
 * Takes the PGlite folder `dataDir` (made when missing) for this process before it is opened
 * (`new PGlite(dataDir)`), or rejects with `PgliteFolderInUseError` naming the live process that
 * holds it. A lock left by a process that is gone (killed) is taken over. `human-users import
 * --data-dir` takes the same lock, so an import and an application never write one folder at
 * once. Node only (it uses the file system), and loaded only when called.
 *
 * The lock file is written whole and linked in, so it never exists without its holder. A stale
 * one is replaced in one rename, never removed, and only by the process holding the folder's
 * second lock file (`human-users.lock.break`), after reading it again: two processes that both
 * found it stale cannot both take it, and a live holder's lock is never moved. A process removes
 * only its own lock. A lock naming this pid is this process's (another thread, another copy of
 * the library) when it names this process's start too. One window is left: a break lock left by
 * a process killed while breaking is cleared by reading it, then removing it, and two processes
 * clearing it at that moment could both get in.
 */
export async function lockPgliteFolder(dataDir: string): Promise<PgliteFolderLock> {
  const fs = await import("node:fs");
  const { join } = await import("node:path");
  fs.mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, PGLITE_LOCK_FILE);
  const breakPath = `${path}.break`;
  // The pid first, for people; the token tells this lock from any other.
  const content = lockText();
  const release = async (): Promise<void> => {
    if (readIfThere(fs, path) === content) fs.rmSync(path, { force: true });
  };
  const taken = (): PgliteFolderLock => ({ path, release });
  // A few seconds at most: another process breaking a stale lock takes milliseconds.
  for (let attempt = 0; attempt < 200; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    if (linkWhole(fs, path, content)) return taken();
    const found = readIfThere(fs, path);
    if (found === undefined) continue; // Given up meanwhile.
    const { holder, live } = holdsLive(found);
    if (live) throw new PgliteFolderInUseError(dataDir, holder, path);
    // Stale: replaced by whoever holds the break lock, once it has read it again.
    const breaker = lockText();
    if (!linkWhole(fs, breakPath, breaker)) {
      // Another process is breaking it. A break lock left by a crash is cleared, read again right
      // before: the one step here that checks and then acts, and only after a crash mid-break.
      const other = readIfThere(fs, breakPath);
      if (other !== undefined && breakLockLeft(other) && readIfThere(fs, breakPath) === other) fs.rmSync(breakPath, { force: true });
      continue;
    }
    try {
      if (readIfThere(fs, path) !== found) continue;
      fs.renameSync(writeDraft(fs, path, content), path);
      return taken();
    } finally {
      if (readIfThere(fs, breakPath) === breaker) fs.rmSync(breakPath, { force: true });
    }
  }
  throw new Error(`cannot lock the PGlite folder ${dataDir}: other processes kept taking it (if none is running, remove ${path} and ${breakPath})`);
}
