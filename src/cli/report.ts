import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { once } from "node:events";
import { BAD_REQUEST_TYPE, ERROR_DETAIL_TYPE, type ErrorBody } from "../shared/error-body.js";

export type RowStatus = "imported" | "exists" | "failed";

/** One line of the report file: a row that was not imported, and why. Never a password or hash. */
export interface ReportEntry {
  readonly line: number;
  readonly status: "exists" | "failed";
  /** The gRPC code of the error (3 for a row that could not be read). */
  readonly code: number;
  /** The library's stable error id, e.g. `USER-1nv4`; absent for a row that could not be read. */
  readonly error?: string;
  /** The field (CSV: the column) the reason is about, when there is one. */
  readonly field?: string;
  readonly reason: string;
}

const USERNAME_TAKEN = "USER-n4m6";

function errorId(body: ErrorBody): string | undefined {
  for (const detail of body.details) if (detail["@type"] === ERROR_DETAIL_TYPE) return detail.id;
  return undefined;
}

/** A username already taken counts as "exists": the row was imported before (or the name is in use). */
export function statusOf(body: ErrorBody): "exists" | "failed" {
  return body.code === 6 && errorId(body) === USERNAME_TAKEN ? "exists" : "failed";
}

export interface RowFacts {
  readonly line: number;
  /** Where the row's username came from (`userName`, or the email it defaults to). */
  readonly usernameField: string;
  /** Maps a request field to what the input calls it (CSV column names). */
  readonly fieldName: (field: string) => string;
}

/** The report lines of a row answered with `body`: one per field violation, else one. */
export function reportEntries(row: RowFacts, body: ErrorBody): ReportEntry[] {
  const status = statusOf(body);
  const id = errorId(body);
  const base = { line: row.line, status, code: body.code, ...(id === undefined ? {} : { error: id }) };
  const violations = body.details.flatMap((detail) => (detail["@type"] === BAD_REQUEST_TYPE ? detail.fieldViolations : []));
  if (violations.length > 0) return violations.map((violation) => ({ ...base, field: row.fieldName(violation.field), reason: violation.description }));
  const field = id === USERNAME_TAKEN ? row.fieldName(row.usernameField) : undefined;
  return [{ ...base, ...(field === undefined ? {} : { field }), reason: body.message }];
}

/** The report file: JSON Lines, written as rows are answered, with the stream's backpressure respected. */
export interface ReportFile {
  write(entries: readonly ReportEntry[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * The report at `path`, created with its first line: a run with nothing to report leaves no file.
 * A report from an earlier run at the same path is removed first, so what is there is this run's.
 */
export async function openReport(path: string): Promise<ReportFile> {
  await rm(path, { force: true });
  let stream: WriteStream | undefined;
  return {
    async write(entries) {
      if (entries.length === 0) return;
      if (stream === undefined) {
        stream = createWriteStream(path, { flags: "w" });
        await once(stream, "open");
      }
      for (const entry of entries) {
        if (!stream.write(`${JSON.stringify(entry)}\n`)) await once(stream, "drain");
      }
    },
    async close() {
      const open = stream;
      if (open === undefined) return;
      await new Promise<void>((resolve, reject) => open.end((error?: Error | null) => (error ? reject(error) : resolve())));
    },
  };
}
