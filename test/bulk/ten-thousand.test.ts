// The acceptance test: a generated base of 10,000 users (some invalid, some duplicates,
// some lines not JSON) imported with every answer checked against the input, then imported again
// with nothing added. Through the library on the memory store, and through the command line on
// PostgreSQL (or PGlite when no server answers).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImport, type ImportCommand, type ImportSummary } from "../../src/cli/import-command.js";
import type { ReportEntry } from "../../src/cli/report.js";
import { invalidRequest, notAnObject } from "../../src/core/errors/user-errors.js";
import { importHumanUsers, type BulkImportOutcome } from "../../src/index.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { countOf, generateUsers, importedUsernames, type GeneratedRow } from "./generated-users.js";
import { adminInAcme, bulkPorts, claimedUsernames, collect, importedBody, scratchFolder, usernameTaken } from "./support.js";

const USERS = 10_000;
const rows = generateUsers(USERS);
const scratch = scratchFolder("ten-thousand");

/** Imported users have two events, three with a (verified) phone. */
function sequenceOf(row: GeneratedRow): string {
  return row.request?.["phone"] === undefined ? "2" : "3";
}

/** What the library answers for each row; `again` for the second import of the same rows. */
function expectedOutcome(row: GeneratedRow, index: number, again: boolean): BulkImportOutcome {
  switch (row.expected.kind) {
    case "imported":
      return again ? { index, error: usernameTaken } : { index, ok: importedBody(sequenceOf(row)) };
    case "exists":
      return { index, error: usernameTaken };
    case "invalid":
      return { index, error: invalidRequest([row.expected.violation]) };
    case "unreadable":
      return { index, error: notAnObject() };
  }
}

describe(`${USERS.toLocaleString("en")} generated users`, () => {
  it("sanity: the generated base has every kind of row", () => {
    expect([countOf(rows, "imported"), countOf(rows, "exists"), countOf(rows, "invalid"), countOf(rows, "unreadable")]).toEqual([9_667, 123, 200, 10]);
  });

  it("through importHumanUsers on the memory store: every answer as the input says, and nothing added the second time", async () => {
    const ports = bulkPorts();
    const requests = rows.map((row) => row.request);
    expect(await collect(importHumanUsers(ports, requests, adminInAcme))).toEqual(rows.map((row, index) => expectedOutcome(row, index, false)));
    expect(claimedUsernames(ports.storage.claims())).toEqual(importedUsernames(rows));
    const before = ports.storage.snapshot();

    expect(await collect(importHumanUsers(ports, requests, adminInAcme))).toEqual(rows.map((row, index) => expectedOutcome(row, index, true)));
    expect(ports.storage.snapshot()).toEqual(before);
  }, 120_000);
});

/** The report lines the command writes for the rows (with --report-existing); `again` for the second run. */
function expectedReport(again: boolean): ReportEntry[] {
  const exists = (line: number): ReportEntry => ({ line, status: "exists", code: 6, error: "USER-n4m6", field: "userName", reason: "the username is already taken" });
  return rows.flatMap((row): ReportEntry[] => {
    const { line, expected } = row;
    switch (expected.kind) {
      case "imported":
        // The second time, an imported row is already there.
        return again ? [exists(line)] : [];
      case "exists":
        return [exists(line)];
      case "invalid":
        return [{ line, status: "failed", code: 3, error: "USER-1nv4", field: expected.violation.field, reason: expected.violation.description }];
      case "unreadable":
        return [{ line, status: "failed", code: 3, reason: "the line is not valid JSON" }];
    }
  });
}

function readReport(path: string): ReportEntry[] {
  return readFileSync(path, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as ReportEntry);
}

const silent = { write: () => true };

describe(`${USERS.toLocaleString("en")} generated users through \`human-users import\` on ${postgresUrl === undefined ? "PGlite" : "PostgreSQL"}`, () => {
  it("reports every row that was not imported, counts the rest, and adds nothing the second time", async () => {
    const file = scratch.file("users.jsonl", `${rows.map((row) => row.text).join("\n")}\n`);
    const database = await cliDatabase("tenk");
    try {
      const command: ImportCommand = {
        file,
        format: "jsonl",
        target: database.target,
        org: "acme",
        createOrg: true,
        reportPath: join(scratch.path, "report.jsonl"),
        reportExisting: true,
        progressIntervalMs: 60_000,
        quiet: true,
      };
      const summary = (imported: number, existing: number): ImportSummary => ({
        rows: USERS,
        imported,
        existing,
        failed: countOf(rows, "invalid") + countOf(rows, "unreadable"),
        interrupted: false,
        lastLine: USERS,
        seconds: expect.any(Number) as unknown as number,
      });
      const output: string[] = [];
      const io = { stdout: { write: (text: string) => output.push(text) }, stderr: silent, env: {} };

      expect(await runImport(command, io)).toEqual({ exitCode: 1, summary: summary(countOf(rows, "imported"), countOf(rows, "exists")) });
      expect(readReport(command.reportPath)).toEqual(expectedReport(false));
      const first = await database.contents();
      expect(first.usernames).toEqual(importedUsernames(rows));
      expect(output.join("")).toMatch(/^9,667 imported, 123 already there, 210 failed, of 10,000 rows\n/);

      expect(await runImport(command, io)).toEqual({ exitCode: 1, summary: summary(0, countOf(rows, "imported") + countOf(rows, "exists")) });
      expect(readReport(command.reportPath)).toEqual(expectedReport(true));
      expect(await database.contents()).toEqual(first);
    } finally {
      await database.drop();
    }
  }, 240_000);
});
