import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
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
  write(entry: LinkEntry): Promise<void>;
  close(): Promise<void>;
}

/**
 * The links file at `path`. Lines are appended, never replaced: links of an earlier run that were
 * not sent yet must survive a second run (which finds those users already there and makes no new
 * link for them). Created readable by its owner only, since every line holds a code.
 */
export function openLinks(path: string): LinksFile {
  let stream: WriteStream | undefined;
  let written = 0;
  return {
    get written() {
      return written;
    },
    async write(entry) {
      try {
        if (stream === undefined) {
          stream = createWriteStream(path, { flags: "a", mode: 0o600 });
          await once(stream, "open");
        }
        if (!stream.write(`${JSON.stringify(entry)}\n`)) await once(stream, "drain");
        written += 1;
      } catch (cause) {
        // The user is in, its link is not kept: say whose, so that a new link can be made.
        const reason = cause instanceof Error ? cause.message : String(cause);
        throw new Error(
          `the links file ${path} could not be written (${reason}): the link of line ${entry.line} (user ${entry.userId}) was not kept; make a new one with createPasskeyRegistrationLink`,
        );
      }
    },
    async close() {
      const open = stream;
      if (open === undefined) return;
      await new Promise<void>((resolve, reject) => open.end((error?: Error | null) => (error ? reject(error) : resolve())));
    },
  };
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
