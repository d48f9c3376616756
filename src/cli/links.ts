import { open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import type { ImportHumanUserResponse } from "../core/responses.js";
import type { Row } from "./rows.js";

/**
 * One line of the links file: the passwordless registration link an imported user's row asked
 * for. The import answers these links and mails none of them, so this file is the only place they
 * are kept: the team sends each one to its user.
 */
export interface LinkEntry {
  readonly line: number;
  readonly userId: string;
  /** Holds the registration code: whoever has it can register a passkey for the user. */
  readonly link: string;
  /** As the response gives it, e.g. `3600s`. */
  readonly lifetime: string;
  /** When the code stops working (the user's creation plus the lifetime), RFC 3339. */
  readonly expiresAt: string;
}

/** The links file's line for an imported row, or undefined when the row asked for no link. */
export function linkEntry(line: number, answer: ImportHumanUserResponse): LinkEntry | undefined {
  const registration = answer.passwordlessRegistration;
  if (registration === undefined) return undefined;
  const seconds = Number.parseInt(registration.lifetime, 10);
  const created = Date.parse(answer.details.creationDate);
  return { line, userId: answer.userId, link: registration.link, lifetime: registration.lifetime, expiresAt: new Date(created + seconds * 1000).toISOString() };
}

/** The links file, opened with its first line: a run that makes no link leaves no file. */
export interface LinksFile {
  /** Lines written so far by this run. */
  readonly written: number;
  /**
   * Appends the entries and waits until the disk has them (not only the operating system's
   * cache): a link kept here survives a killed process and a power cut. Rejects with a
   * `LinksWriteError` when the file cannot be written.
   */
  write(entries: readonly LinkEntry[]): Promise<void>;
  close(): Promise<void>;
}

/** The links file could not be written; the caller says what that means for the users. */
export class LinksWriteError extends Error {
  constructor(path: string, cause: unknown) {
    super(`the links file ${path} could not be written (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = "LinksWriteError";
  }
}

/**
 * The links file at `path`. Lines are appended, never replaced: links of an earlier run that were
 * not sent yet must survive a second run (which finds those users already there and makes no new
 * link for them). Created readable by its owner only, since every line holds a code.
 */
export function openLinks(path: string): LinksFile {
  let opening: Promise<FileHandle> | undefined;
  // One write at a time, in the order asked: a long append goes out in pieces, and two at once
  // would mix their lines. After a failure every later write fails the same way: a line cut off
  // by a full disk must not have the next write's line glued to it.
  let queue: Promise<void> = Promise.resolve();
  let failed: LinksWriteError | undefined;
  let written = 0;

  async function append(entries: readonly LinkEntry[]): Promise<void> {
    if (failed !== undefined) throw failed;
    try {
      opening ??= openDurably(path);
      const handle = await opening;
      await handle.appendFile(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
      await handle.datasync();
      written += entries.length;
    } catch (cause) {
      failed = new LinksWriteError(path, cause);
      throw failed;
    }
  }

  return {
    get written() {
      return written;
    },
    write(entries) {
      if (entries.length === 0) return Promise.resolve();
      const done = queue.then(() => append(entries));
      queue = done.catch(() => undefined);
      return done;
    },
    async close() {
      await queue;
      if (opening === undefined) return;
      const handle = await opening.catch(() => undefined);
      await handle?.close();
    },
  };
}

/** The file opened for appending (created owner-only), and its folder's entry for it synced: a file created and then lost in a power cut keeps nothing. */
async function openDurably(path: string): Promise<FileHandle> {
  const handle = await open(path, "a", 0o600);
  const folder = await open(dirname(path), "r").catch(() => undefined);
  try {
    await folder?.sync();
  } catch {
    // Some file systems cannot sync a folder; the lines themselves are still synced.
  } finally {
    await folder?.close();
  }
  return handle;
}

const LINK_FIELD = "requestPasswordlessRegistration";

/** Whether a request asks for a passwordless registration link (in either spelling the import reads). */
function asksForLink(request: unknown): boolean {
  if (typeof request !== "object" || request === null) return false;
  const members = request as Readonly<Record<string, unknown>>;
  return (Object.hasOwn(members, LINK_FIELD) ? members[LINK_FIELD] : members["request_passwordless_registration"]) === true;
}

/**
 * Why a link cannot be made: without the application's keys its code could only be keyed with a
 * throwaway key, which the application could never check; without `--origin` it would point at
 * http://localhost:8080.
 */
export const LINK_NEEDS_KEYS =
  "a passwordless registration link needs the application's keys (HUMAN_USERS_CODE_HMAC_KEY, HUMAN_USERS_ENCRYPTION_KEY): without them its code could never be checked";
export const LINK_NEEDS_ORIGIN =
  "a passwordless registration link needs --origin, the application's public URL: without it the link would point at http://localhost:8080";

/** The rows, with each one that asks for a passwordless link refused (code 9) for `why`; the other rows go on. */
export async function* refuseLinks(rows: AsyncIterable<Row>, why: string): AsyncGenerator<Row, void, undefined> {
  for await (const row of rows) {
    if ("request" in row && asksForLink(row.request)) {
      yield { line: row.line, end: row.end, code: 9, field: LINK_FIELD, problem: why };
    } else yield row;
  }
}
