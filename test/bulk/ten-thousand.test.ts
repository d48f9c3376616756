// The acceptance test: a generated base of 10,000 users (some invalid, some repeated, some
// other people with a taken username, some lines not JSON) imported with every answer checked
// against the input, then imported again with nothing added. Through the library on the memory store, and through the command line on
// PostgreSQL (or PGlite when no server answers).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImport, type ImportCommand, type ImportSummary } from "../../src/cli/import-command.js";
import type { ReportEntry } from "../../src/cli/report.js";
import { invalidRequest, notAnObject } from "../../src/core/errors/user-errors.js";
import { importHumanUsers, type BulkImportOutcome, type ImportHolder } from "../../src/index.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { countOf, generateUsers, importedUsernames, type Expected, type GeneratedRow } from "./generated-users.js";
import { adminInAcme, bulkPorts, claimedUsernames, collect, importedBody, scratchFolder, usernameTaken } from "./support.js";

const USERS = 10_000;
const rows = generateUsers(USERS);
const scratch = scratchFolder("ten-thousand");

/** Imported users have two events, three with a (verified) phone. */
function sequenceOf(row: GeneratedRow): string {
  return row.request?.["phone"] === undefined ? "2" : "3";
}

const conflict = (holder: ImportHolder) => ({ error: usernameTaken, conflict: { claim: "username", field: "userName", ...holder } }) as const;

/**
 * What the library answers for each row: the first time, holders are earlier rows; the second
 * time (`ids`: the user id of each row imported the first time), every holder is a stored user.
 */
function expectedOutcome(row: GeneratedRow, index: number, ids?: ReadonlyMap<number, string>): BulkImportOutcome {
  const holder = (earlier: number): ImportHolder => (ids === undefined ? { earlierIndex: earlier } : { userId: ids.get(earlier) ?? "" });
  switch (row.expected.kind) {
    case "imported":
      return ids === undefined ? { index, ok: importedBody(sequenceOf(row)) } : { index, alreadyThere: holder(index) };
    case "exists":
      return { index, alreadyThere: holder(row.expected.earlier) };
    case "conflict":
      return { index, ...conflict(holder(row.expected.earlier)) };
    case "invalid":
      return { index, error: invalidRequest([row.expected.violation]) };
    case "unreadable":
      return { index, error: notAnObject() };
  }
}

describe(`${USERS.toLocaleString("en")} generated users`, () => {
  it("sanity: the generated base has every kind of row", () => {
    expect(["imported", "exists", "conflict", "invalid", "unreadable"].map((kind) => countOf(rows, kind as Expected["kind"]))).toEqual([9_667, 18, 105, 200, 10]);
  });

  it("through importHumanUsers on the memory store: every answer as the input says, and nothing added the second time", async () => {
    const ports = bulkPorts();
    const requests = rows.map((row) => row.request);
    const first = await collect(importHumanUsers(ports, requests, adminInAcme));
    expect(first).toEqual(rows.map((row, index) => expectedOutcome(row, index)));
    expect(claimedUsernames(ports.storage.claims())).toEqual(importedUsernames(rows));
    const before = ports.storage.snapshot();
    const ids = new Map(first.flatMap((outcome) => ("ok" in outcome ? [[outcome.index, outcome.ok.userId] as const] : [])));

    expect(await collect(importHumanUsers(ports, requests, adminInAcme))).toEqual(rows.map((row, index) => expectedOutcome(row, index, ids)));
    expect(ports.storage.snapshot()).toEqual(before);
  }, 120_000);
});

/** The report lines the command writes for the rows (with --report-existing); `again` for the second run. */
function expectedReport(again: boolean): ReportEntry[] {
  const holder = (earlier: number) => (again ? { userId: expect.any(String) as unknown as string } : { earlierLine: earlier + 1 });
  const exists = (line: number, earlier: number): ReportEntry => ({ line, status: "exists", reason: "the same user is already there", ...holder(earlier) });
  return rows.flatMap((row, index): ReportEntry[] => {
    const { line, expected } = row;
    switch (expected.kind) {
      case "imported":
        // The second time, an imported row is already there.
        return again ? [exists(line, index)] : [];
      case "exists":
        return [exists(line, expected.earlier)];
      case "conflict":
        return [{ line, status: "failed", code: 6, error: "USER-n4m6", field: "userName", reason: "the username is already taken", ...holder(expected.earlier) }];
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
  it("reports every row that was not imported, conflicts with the earlier line, counts the rest, and adds nothing the second time", async () => {
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
        linksPath: join(scratch.path, "links.jsonl"),
        reportExisting: true,
        dryRun: false,
        noMail: true,
        progressIntervalMs: 60_000,
        quiet: true,
      };
      const summary = (imported: number, existing: number): ImportSummary => ({
        rows: USERS,
        imported,
        existing,
        failed: countOf(rows, "invalid") + countOf(rows, "unreadable") + countOf(rows, "conflict"),
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
      expect(output.join("")).toMatch(/^9,667 imported, 18 already there, 315 failed, of 10,000 rows\n/);

      expect(await runImport(command, io)).toEqual({ exitCode: 1, summary: summary(0, countOf(rows, "imported") + countOf(rows, "exists")) });
      expect(readReport(command.reportPath)).toEqual(expectedReport(true));
      expect(await database.contents()).toEqual(first);
    } finally {
      await database.drop();
    }
  }, 240_000);
});
