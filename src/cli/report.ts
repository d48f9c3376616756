import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { once } from "node:events";
import type { ImportConflict, ImportHolder } from "../core/bulk/bulk-outcome.js";
import { BAD_REQUEST_TYPE, ERROR_DETAIL_TYPE, type ErrorBody } from "../shared/error-body.js";

export type RowStatus = "imported" | "exists" | "failed";

/** One line of the report file: a row that was not imported, and why. Never a password or hash. */
export interface ReportEntry {
  readonly line: number;
  readonly status: "exists" | "failed";
  /** The gRPC code of a failed row (3 for a row that could not be read, 6 for a conflict). */
  readonly code?: number;
  /** The library's stable error id, e.g. `USER-1nv4`; absent for a row that could not be read. */
  readonly error?: string;
  /** The field (CSV: the column) the reason is about, when there is one. */
  readonly field?: string;
  readonly reason: string;
  /**
   * The earlier line of the file whose user this row is (exists, or failed with that line when it
   * was not imported) or clashes with (a conflict).
   */
  readonly earlierLine?: number;
  /** The stored user this row is (exists) or clashes with (a conflict). */
  readonly userId?: string;
}

function errorId(body: ErrorBody): string | undefined {
  for (const detail of body.details) if (detail["@type"] === ERROR_DETAIL_TYPE) return detail.id;
  return undefined;
}

export interface RowFacts {
  readonly line: number;
  /** Maps a request field to what the input calls it (CSV column names). */
  readonly fieldName: (field: string) => string;
  /** The line of the row at a 0-based index of the file. */
  readonly lineOf: (index: number) => number | undefined;
}

/** The earlier line or the stored user a row was compared with. */
function holderFacts(row: RowFacts, holder: ImportHolder): { readonly earlierLine?: number; readonly userId?: string } {
  if ("userId" in holder) return { userId: holder.userId };
  // A stored user the requester may not read (the command's requester reads every user).
  if ("hiddenUser" in holder) return {};
  const line = row.lineOf(holder.earlierIndex);
  return line === undefined ? {} : { earlierLine: line };
}

/** The report line of a row that is a user already there. */
export function existingEntry(row: RowFacts, holder: ImportHolder): ReportEntry {
  return { line: row.line, status: "exists", reason: "the same user is already there", ...holderFacts(row, holder) };
}

/** Why a row failed beyond its body: a conflict's holder, or the earlier row of the same user that was not imported. */
export interface FailureFacts {
  readonly conflict?: ImportConflict | undefined;
  readonly sameUserAs?: { readonly earlierIndex: number } | undefined;
}

/**
 * The report lines of a row answered with `body`: one per field violation, else one (naming the
 * holder of a conflict, or the earlier line of the same user whose failure this row shares).
 */
export function failedEntries(row: RowFacts, body: ErrorBody, facts: FailureFacts = {}): ReportEntry[] {
  const id = errorId(body);
  const base = { line: row.line, status: "failed", code: body.code, ...(id === undefined ? {} : { error: id }) } as const;
  const violations = body.details.flatMap((detail) => (detail["@type"] === BAD_REQUEST_TYPE ? detail.fieldViolations : []));
  if (violations.length > 0) return violations.map((violation) => ({ ...base, field: row.fieldName(violation.field), reason: violation.description }));
  const { conflict, sameUserAs } = facts;
  if (conflict !== undefined) return [{ ...base, field: row.fieldName(conflict.field), reason: body.message, ...holderFacts(row, conflict) }];
  if (sameUserAs !== undefined) return [{ ...base, reason: `the same user as an earlier line, which was not imported: ${body.message}`, ...holderFacts(row, sameUserAs) }];
  return [{ ...base, reason: body.message }];
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
