import { open, stat } from "node:fs/promises";
import { systemClock } from "../adapters/clocks.js";
import type { BatchAnswer, BulkImportOptions, BulkImportOutcome, StopSignal } from "../core/bulk/import-human-users.js";
import { importHumanUsers } from "../operations/index.js";
import type { Requester } from "../ports/authorizer.js";
import type { Ports } from "../ports/index.js";
import type { Keys } from "../ports/keys.js";
import type { Mailer } from "../ports/mailer.js";
import { columnOfField } from "./csv-mapping.js";
import { commandKeys, type Environment } from "./keys.js";
import { SetupError, type StoreTarget } from "./open-storage.js";
import { prepareDryRunStore, prepareStore, type PreparedStore } from "./prepared-store.js";
import { formatCount, formatDuration, progressView, type ProgressStream } from "./progress.js";
import { existingEntry, failedEntries, openReport, type ReportEntry, type RowFacts, type RowStatus } from "./report.js";
import { LINK_NEEDS_KEYS, LINK_NEEDS_ORIGIN, linkEntry, openLinks, refuseLinks, type LinkEntry, type LinksFile } from "./links.js";
import { refuseSharedPaths, refuseUnwritable } from "./output-paths.js";
import { checkHeader, InputError, readRows, type InputFormat, type Row } from "./rows.js";
import { errorCode } from "../shared/error-code.js";

export interface ImportCommand {
  readonly file: string;
  readonly format: InputFormat;
  readonly target: StoreTarget;
  readonly org: string;
  /** Creates the organization (no domains, default policy) when it does not exist. */
  readonly createOrg: boolean;
  readonly reportPath: string;
  /** Where the passwordless registration links the import makes are appended (created owner-only). */
  readonly linksPath: string;
  /** Also lists rows answered "exists" in the report. */
  readonly reportExisting: boolean;
  /** Checks every row against the database and writes nothing. */
  readonly dryRun: boolean;
  /** Writes no initialization code and queues no mail: the host sends its own invitations. */
  readonly noMail: boolean;
  readonly batchSize?: number;
  readonly concurrency?: number;
  readonly parallelBatches?: number;
  /** Public base URL for the links in initialization mails. */
  readonly origin?: string;
  readonly progressIntervalMs: number;
  readonly quiet: boolean;
}

export interface CommandIo {
  readonly stdout: ProgressStream;
  readonly stderr: ProgressStream;
  readonly env: Environment;
  /** Aborted on Ctrl-C: the import stops after the batches in progress. */
  readonly signal?: StopSignal;
}

export interface ImportSummary {
  readonly rows: number;
  readonly imported: number;
  readonly existing: number;
  readonly failed: number;
  /** Stopped by the signal before the end of the file. */
  readonly interrupted: boolean;
  /** The last line answered (0 before any). */
  readonly lastLine: number;
  readonly seconds: number;
}

export interface ImportResult {
  /** 0 every row imported or existing, 1 some rows failed, 2 nothing could be done, 130 interrupted. */
  readonly exitCode: number;
  readonly summary?: ImportSummary;
}

/** The requester of a command-line import: an instance admin, so it may write users in any organization. */
export function cliRequester(orgId: string): Requester {
  return { userId: "human-users-cli", orgId, instanceAdmin: true };
}

/** Notifications stay in the outbox for the application's delivery worker: the import sends nothing. */
const outboxOnly: Mailer = {
  send: () => Promise.reject(new Error("the command-line import does not send mail")),
};

interface Tally {
  rows: number;
  imported: number;
  existing: number;
  failed: number;
  bytes: number;
  lastLine: number;
}

/**
 * Rows of the file as requests for `importHumanUsers`, remembering each one's row by index (the
 * importer reads at most a window ahead, so the map stays small) and every row's line (so that a
 * conflict can name the earlier line). A row that cannot be read is passed on as `undefined`
 * (answered with code 3), so its answer comes back in order too.
 */
/** How reading the file went: `ended` once its last row was read, `error` when reading failed. */
interface Reading {
  ended: boolean;
  error?: unknown;
}

function requestsOf(rows: AsyncIterable<Row>, pending: Map<number, Row>, lines: number[], reading: Reading): AsyncGenerator<unknown> {
  return (async function* () {
    let index = 0;
    try {
      for await (const row of rows) {
        lines.push(row.line);
        pending.set(index++, row);
        yield "request" in row ? row.request : undefined;
      }
      reading.ended = true;
    } catch (error) {
      reading.error = error;
    }
  })();
}

function summaryText(command: ImportCommand, summary: ImportSummary, reported: number, linked: number, assumption: string | undefined): string {
  const rate = summary.seconds > 0 ? summary.rows / summary.seconds : 0;
  const counts = `${formatCount(summary.existing)} already there, ${formatCount(summary.failed)} failed, of ${formatCount(summary.rows)} rows`;
  const lines = [
    command.dryRun ? `dry run: ${formatCount(summary.imported)} would be imported, ${counts}; nothing was written` : `${formatCount(summary.imported)} imported, ${counts}`,
    ...(assumption === undefined ? [] : [`dry run: ${assumption}`]),
    `in ${formatDuration(summary.seconds)} (${formatCount(rate)} rows/s)`,
  ];
  if (reported > 0) lines.push(`report: ${command.reportPath} (${formatCount(reported)} ${reported === 1 ? "line" : "lines"})`);
  if (linked > 0) {
    lines.push(`passwordless links: ${command.linksPath} (${formatCount(linked)} ${linked === 1 ? "line" : "lines"} added; each holds a code: send each to its user, then delete the file)`);
  }
  if (summary.interrupted) {
    lines.push(
      command.dryRun
        ? `interrupted: stopped after line ${summary.lastLine}; the rows after it were not checked`
        : `interrupted: stopped after line ${summary.lastLine}; run the same command again to import the rest (rows already imported will show as already there)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** What became of one row, and its report lines (none for an imported row). */
function answerRow(row: Row, outcome: BulkImportOutcome, facts: Omit<RowFacts, "line">): { status: RowStatus; entries: ReportEntry[] } {
  if ("problem" in row) {
    const field = row.field === undefined ? {} : { field: facts.fieldName(row.field) };
    return { status: "failed", entries: [{ line: row.line, status: "failed", code: row.code ?? 3, ...field, reason: row.problem }] };
  }
  const rowFacts: RowFacts = { ...facts, line: row.line };
  if ("alreadyThere" in outcome) return { status: "exists", entries: [existingEntry(rowFacts, outcome.alreadyThere)] };
  if ("error" in outcome) return { status: "failed", entries: failedEntries(rowFacts, outcome.error, outcome) };
  return { status: "imported", entries: [] };
}

/**
 * The application's keys; without them an import that may write codes cannot start: a code keyed
 * by anything else could never be checked by the application.
 */
function keysFor(command: ImportCommand, env: Environment): Keys | undefined {
  const keys = commandKeys(env);
  if (keys === undefined && !command.noMail) {
    throw new SetupError(
      "HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY are not set: give the application's keys so the codes in initialization mails can be checked, or pass --no-mail",
    );
  }
  // The mails the import queues carry links, sent as made: without --origin they would send users
  // to http://localhost:8080. (With --no-mail only a row asking for a link needs it: see refuseLinks.)
  if (keys !== undefined && !command.noMail && command.origin === undefined) {
    throw new SetupError(
      "--origin is required: the links in the initialization mails the import queues start with it, the application's public URL (e.g. --origin https://id.example.com); without it they would point at http://localhost:8080. Or pass --no-mail",
    );
  }
  return keys;
}

/** Why the file to import cannot be read, in words (not `ENOENT: no such file or directory, stat '...'`). */
function inputFileError(path: string, error: unknown): never {
  const code = errorCode(error);
  if (code === "ENOENT") throw new InputError(`the file to import, ${path}, does not exist`);
  if (code === "EACCES" || code === "EPERM") throw new InputError(`the file to import, ${path}, cannot be read: permission denied`);
  if (code === "ENOTDIR") throw new InputError(`the file to import, ${path}, does not exist: a part of its path is not a folder`);
  throw error;
}

/**
 * What can be checked before the database is opened: the file and its header, and the report and
 * links paths. Gives the file's size.
 */
async function checkBeforeStart(command: ImportCommand): Promise<number> {
  const file = await stat(command.file).catch((error: unknown) => inputFileError(command.file, error));
  // Found here, not at the first read, after the migration and the organization were made.
  if (file.isDirectory()) throw new InputError(`${command.file} is a folder, not a file to import`);
  if (file.isFile()) await (await open(command.file, "r").catch((error: unknown) => inputFileError(command.file, error))).close();
  // A pipe would block, then lose its start to the header check.
  if (command.format === "csv" && !file.isFile()) {
    throw new InputError("a CSV file is read twice (its header first, before the database is opened), so it must be a regular file, not a pipe or a device: save it to a file first");
  }
  await refuseSharedPaths(command);
  await refuseUnwritable(command.reportPath, "the report file", "replaced");
  // In a dry run too: the check writes nothing, and the dry run must stop where the real run would.
  await refuseUnwritable(command.linksPath, "the links file", "appended");
  await checkHeader(command.file, command.format);
  return file.size;
}

/** `human-users import`: the file's rows into the organization, with progress, a report and a summary. */
export async function runImport(command: ImportCommand, io: CommandIo): Promise<ImportResult> {
  let totalBytes: number;
  let opened: PreparedStore;
  const keys = (() => {
    try {
      return { value: keysFor(command, io.env) };
    } catch (error) {
      return { error };
    }
  })();
  try {
    if ("error" in keys) throw keys.error;
    totalBytes = await checkBeforeStart(command);
    opened = await (command.dryRun ? prepareDryRunStore(command) : prepareStore(command));
  } catch (error) {
    io.stderr.write(`human-users import: ${error instanceof Error ? error.message : String(error)}\n`);
    return { exitCode: 2 };
  }
  const ports: Ports = {
    storage: opened.storage,
    ...(opened.directory === undefined ? {} : { directory: opened.directory }),
    mailer: outboxOnly,
    clock: systemClock,
    ...(keys.value === undefined ? {} : { keys: keys.value }),
    ...(io.env["HUMAN_USERS_FIREBASE_SIGNER_KEY"] === undefined ? {} : { firebaseSignerKey: io.env["HUMAN_USERS_FIREBASE_SIGNER_KEY"] }),
    // Without the application's keys only --no-mail gets here, and it writes no code to check.
    config: { immediateDelivery: "off", allowThrowawayKeys: keys.value === undefined, ...(command.origin === undefined ? {} : { origin: command.origin }) },
  };
  const lines: number[] = [];
  const facts = { fieldName: command.format === "csv" ? columnOfField : (field: string) => field, lineOf: (index: number) => lines[index] };
  const pending = new Map<number, Row>();
  // Links are kept before their users are written: a process killed after a batch's write and
  // before its answers were read would otherwise leave users whose only way in was never kept.
  const keptLinks = new Map<number, string>();
  let links: LinksFile | undefined;
  let linksFailure: Error | undefined;
  const keepLinks = async (answers: readonly BatchAnswer[]): Promise<void> => {
    // Once a link could not be kept, no more users are written.
    if (linksFailure !== undefined) throw linksFailure;
    const entries: { readonly index: number; readonly entry: LinkEntry }[] = [];
    for (const { index, answer } of answers) {
      const line = pending.get(index)?.line;
      const entry = line === undefined ? undefined : linkEntry(line, answer);
      if (entry !== undefined) entries.push({ index, entry });
    }
    if (entries.length === 0 || links === undefined) return;
    try {
      await links.write(entries.map(({ entry }) => entry));
    } catch (cause) {
      const first = entries[0]?.entry.line;
      linksFailure ??= new Error(`${cause instanceof Error ? cause.message : String(cause)}: the user of line ${first}, and those written with it, were not imported; run the command again once the file can be written`);
      throw linksFailure;
    }
    for (const { index, entry } of entries) keptLinks.set(index, entry.link);
  };
  const options: BulkImportOptions = {
    ...(command.batchSize === undefined ? {} : { batchSize: command.batchSize }),
    ...(command.concurrency === undefined ? {} : { concurrency: command.concurrency }),
    ...(command.parallelBatches === undefined ? {} : { parallelBatches: command.parallelBatches }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    dryRun: command.dryRun,
    withoutCodes: command.noMail,
    beforeWrite: keepLinks,
  };
  const readFailure: Reading = { ended: false };
  const tally: Tally = { rows: 0, imported: 0, existing: 0, failed: 0, bytes: 0, lastLine: 0 };
  const progress = progressView(io.stderr, { intervalMs: command.progressIntervalMs, quiet: command.quiet });
  const started = performance.now();
  // Drawn from the start: the first batch's rows are answered only at its end.
  progress.update({ ...tally, totalBytes, elapsedMs: 0 });
  let reported = 0;
  let report: Awaited<ReturnType<typeof openReport>> | undefined;

  try {
    report = await openReport(command.reportPath);
    links = openLinks(command.linksPath);
    const rows = readRows(command.file, command.format);
    // Rows asking for a link fail, and the others go on, when a link could not be made right.
    const linkRefusal = keys.value === undefined ? LINK_NEEDS_KEYS : command.origin === undefined ? LINK_NEEDS_ORIGIN : undefined;
    const requests = requestsOf(linkRefusal === undefined ? rows : refuseLinks(rows, linkRefusal), pending, lines, readFailure);
    for await (const outcome of importHumanUsers(ports, requests, { requester: cliRequester(command.org), orgId: command.org }, options)) {
      // A batch whose links could not be kept was not written: stop, naming the line.
      if (linksFailure !== undefined) throw linksFailure;
      const row = pending.get(outcome.index);
      pending.delete(outcome.index);
      if (row === undefined) {
        // An answer for no row read: the import could not run at all (settings the library's own
        // check refuses, such as a bad --origin), not a file with no rows in it.
        if ("error" in outcome && readFailure.error === undefined) throw new Error(outcome.error.message);
        continue;
      }
      tally.rows += 1;
      tally.bytes = row.end;
      tally.lastLine = row.line;
      const { status, entries } = answerRow(row, outcome, facts);
      tally[status === "imported" ? "imported" : status === "exists" ? "existing" : "failed"] += 1;
      const link = "ok" in outcome ? linkEntry(row.line, outcome.ok) : undefined;
      // Kept before the write, unless the user was decided again (a lost race) with another link.
      if (link !== undefined && keptLinks.get(outcome.index) !== link.link) {
        await links.write([link]).catch((cause: unknown) => {
          // The user is in, its link is not kept: say whose, so that a new link can be made.
          throw new Error(`${cause instanceof Error ? cause.message : String(cause)}: the link of line ${link.line} (user ${link.userId}) was not kept; make a new one with createPasskeyRegistrationLink`);
        });
      }
      keptLinks.delete(outcome.index);
      if (status === "failed" || (status === "exists" && command.reportExisting)) {
        await report.write(entries);
        reported += entries.length;
      }
      progress.update({ ...tally, totalBytes, elapsedMs: performance.now() - started });
    }
  } catch (error) {
    progress.finish();
    io.stderr.write(`human-users import: ${error instanceof Error ? error.message : String(error)}\n`);
    return { exitCode: 2 };
  } finally {
    await report?.close().catch(() => undefined);
    await links?.close().catch(() => undefined);
    await opened.close().catch(() => undefined);
  }
  progress.finish();

  if (readFailure.error instanceof InputError) {
    io.stderr.write(`human-users import: ${readFailure.error.message}\n`);
    return { exitCode: 2 };
  }
  // A stop that came once every row was read and answered stopped nothing.
  const interrupted = io.signal?.aborted === true && !readFailure.ended;
  const { rows, imported, existing, failed, lastLine } = tally;
  const summary: ImportSummary = { rows, imported, existing, failed, interrupted, lastLine, seconds: (performance.now() - started) / 1000 };
  io.stdout.write(summaryText(command, summary, reported, links?.written ?? 0, opened.assumption));
  if (readFailure.error !== undefined) {
    io.stderr.write(`human-users import: reading the file failed after line ${tally.lastLine}: ${String(readFailure.error)}\n`);
    return { exitCode: 2, summary };
  }
  return { exitCode: interrupted ? 130 : summary.failed > 0 ? 1 : 0, summary };
}
