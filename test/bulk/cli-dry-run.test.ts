// `human-users import --dry-run`: a file with every kind of problem checked against the database,
// nothing written (counted in SQL), and the same summary and report as the real run that follows.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { migrations } from "../../src/adapters/postgres/index.js";
import { runImport, type CommandIo, type ImportCommand, type ImportResult } from "../../src/cli/import-command.js";
import { openStore, type StoreTarget } from "../../src/cli/open-storage.js";
import { BCRYPT_HASH } from "../operations/support/import-fixtures.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { importCommand, scratchFolder, userRequest } from "./support.js";

const scratch = scratchFolder("cli-dry-run");
const appKeys = { HUMAN_USERS_CODE_HMAC_KEY: Buffer.alloc(32, 5).toString("base64"), HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32, 6).toString("base64") };

function io(): CommandIo & { readonly out: string[]; readonly err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env: appKeys };
}

/** How the command names a database in its messages. */
function described(target: StoreTarget): string {
  if ("dataDir" in target) return `PGlite in ${target.dataDir}`;
  const url = new URL(target.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/** The output with the timing line (which varies) replaced. */
function withoutTiming(out: readonly string[]): string {
  return out.join("").replace(/^in \d+:\d\d(:\d\d)? \([\d,.]+ rows\/s\)$/m, "in TIME");
}

/** A result with its duration zeroed, to compare a dry run with a real one. */
function untimed(result: ImportResult): ImportResult {
  return result.summary === undefined ? result : { ...result, summary: { ...result.summary, seconds: 0 } };
}

function withIdp(request: Record<string, unknown>, idpId: string, externalUserId: string): Record<string, unknown> {
  return { ...request, idps: [{ configId: idpId, externalUserId }] };
}

const storedSame = userRequest("stored-same");
const storedLinked = withIdp(userRequest("stored-linked"), "idp-1", "linked-account");
const invited = { userName: "ann", profile: { firstName: "Ann", lastName: "Lee" }, email: { email: "ann@acme.test" } };

/** Every kind of row, one per line; the comment says what it is. */
const lines = [
  JSON.stringify(storedSame), // 1: already there (a stored user imported with the same request)
  JSON.stringify(invited), // 2: new, with an initialization mail
  JSON.stringify({ ...invited, email: { email: "other@acme.test" } }), // 3: another person with line 2's username
  JSON.stringify(invited), // 4: the same person as line 2
  JSON.stringify(userRequest("stored-same", { lastName: "Other" })), // 5: another person with a stored user's username
  JSON.stringify(userRequest("blank", { lastName: " " })), // 6: a field refused
  JSON.stringify(userRequest("badhash", { hash: "$2x$04$abcdefghijklmnopqrstuu5U5xk6dk1bHJpRxAuJcIYlTK3kTQdSm" })), // 7: a hash in no known format
  JSON.stringify(userRequest("costly", { hash: BCRYPT_HASH.replace("$04$", "$31$") })), // 8: a hash beyond the cost bounds
  '{"userName": "broken", ', // 9: not JSON
  JSON.stringify(withIdp(userRequest("nowhere"), "idp-unknown", "x")), // 10: an identity provider unknown here
  JSON.stringify(withIdp(userRequest("linker"), "idp-1", "linked-account")), // 11: a stored user's identity-provider account
  JSON.stringify(userRequest("fine")), // 12: new
];

describe(`human-users import --dry-run on ${postgresUrl === undefined ? "PGlite" : "PostgreSQL"}`, () => {
  it("writes no row for a file with every kind of problem, and reports what the real run then reports", async () => {
    const database = await cliDatabase("dryrun");
    try {
      const base: ImportCommand = {
        file: scratch.file("stored.jsonl", `${[storedSame, storedLinked].map((request) => JSON.stringify(request)).join("\n")}\n`),
        format: "jsonl",
        target: database.target,
        org: "acme",
        createOrg: true,
        reportPath: `${scratch.path}/stored.report.jsonl`,
        linksPath: `${scratch.path}/links.jsonl`,
        reportExisting: true,
        dryRun: false,
        noMail: false,
        progressIntervalMs: 60_000,
        quiet: true,
        origin: "https://id.acme.test",
      };
      const opened = await openStore(database.target);
      await opened.store.upsertIdentityProvider({ id: "idp-1" });
      await opened.close();
      expect((await runImport(base, io())).exitCode).toBe(0);
      const before = await database.rowCounts();

      const file = scratch.file("problems.jsonl", `${lines.join("\n")}\n`);
      const dry = { ...base, file, reportPath: `${scratch.path}/dry.report.jsonl`, dryRun: true };
      const dryIo = io();
      const dryResult = await runImport(dry, dryIo);
      expect(await database.rowCounts()).toEqual(before);
      const dryReport = readFileSync(dry.reportPath, "utf8");

      const real = { ...dry, reportPath: `${scratch.path}/real.report.jsonl`, dryRun: false };
      const realResult = await runImport(real, io());
      expect({ ...dryResult, summary: { ...dryResult.summary, seconds: 0 } }).toEqual({ ...realResult, summary: { ...realResult.summary, seconds: 0 } });
      expect(dryReport).toBe(readFileSync(real.reportPath, "utf8"));
      expect(dryIo.out.join("")).toMatch(/^dry run: 2 would be imported, 2 already there, 8 failed, of 12 rows; nothing was written\n/);

      const report = dryReport.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(report.map((entry) => [entry["line"], entry["status"], entry["code"] ?? null, entry["earlierLine"] ?? (entry["userId"] === undefined ? null : "a stored user")])).toEqual([
        [1, "exists", null, "a stored user"],
        [3, "failed", 6, 2],
        [4, "exists", null, 2],
        [5, "failed", 6, "a stored user"],
        [6, "failed", 3, null],
        [7, "failed", 3, null],
        [8, "failed", 3, null],
        [9, "failed", 3, null],
        [10, "failed", 9, null],
        [11, "failed", 6, "a stored user"],
      ]);
      expect(await database.rowCounts()).toMatchObject({ outbox: before.outbox + 1, listings: before.listings + 2 });
    } finally {
      await database.drop();
    }
  }, 120_000);
});

/** Rows checkable without stored users: new, the same again, a clash in the file, a field refused, an unknown identity provider, new. */
const freshLines = [
  JSON.stringify(userRequest("fresh-ann")),
  JSON.stringify(userRequest("fresh-ann")),
  JSON.stringify(userRequest("fresh-ann", { email: "other@example.com" })),
  JSON.stringify(userRequest("blank", { lastName: " " })),
  JSON.stringify(withIdp(userRequest("linker"), "idp-1", "x")),
  JSON.stringify(userRequest("fine")),
];

describe(`human-users import --dry-run on a ${postgresUrl === undefined ? "PGlite folder" : "PostgreSQL schema"} without the tables, or without the organization`, () => {
  it("checks the file as against an empty database, says so in one line, creates nothing, and reports what the real run then reports", async () => {
    const database = await cliDatabase("dryfresh");
    try {
      const file = scratch.file("fresh.jsonl", `${freshLines.join("\n")}\n`);
      const dry = importCommand(file, database.target, { dryRun: true, reportExisting: true, reportPath: `${scratch.path}/fresh-dry.report.jsonl` });
      const dryIo = io();
      const dryResult = await runImport(dry, dryIo);
      expect({ dryResult, out: withoutTiming(dryIo.out), err: dryIo.err }).toEqual({
        dryResult: { exitCode: 1, summary: { rows: 6, imported: 2, existing: 1, failed: 3, interrupted: false, lastLine: 6, seconds: expect.any(Number) as unknown as number } },
        out: [
          "dry run: 2 would be imported, 1 already there, 3 failed, of 6 rows; nothing was written",
          `dry run: ${described(database.target)} has no human-users tables yet: checked as an empty database, with no stored user to compare (the real run creates the tables)`,
          "in TIME",
          `report: ${dry.reportPath} (4 lines)`,
          "",
        ].join("\n"),
        err: [],
      });
      expect(await database.tables()).toEqual([]);
      if ("dataDir" in database.target) expect(readdirSync(database.target.dataDir)).toEqual([]);
      const dryReport = readFileSync(dry.reportPath, "utf8");

      const real = { ...dry, dryRun: false, reportPath: `${scratch.path}/fresh-real.report.jsonl` };
      expect(untimed(await runImport(real, io()))).toEqual(untimed(dryResult));
      expect(readFileSync(real.reportPath, "utf8")).toBe(dryReport);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("creates no PGlite folder that is not there, and checks the file as against an empty database", async () => {
    const dataDir = join(scratch.path, "no-database-yet");
    const file = scratch.file("fresh-pglite.jsonl", `${freshLines.join("\n")}\n`);
    const dry = importCommand(file, { dataDir }, { dryRun: true });
    const dryIo = io();
    expect(await runImport(dry, dryIo)).toMatchObject({ exitCode: 1, summary: { rows: 6, imported: 2, existing: 1, failed: 3 } });
    expect(withoutTiming(dryIo.out).split("\n")[1]).toBe(
      `dry run: PGlite in ${dataDir} has no human-users tables yet: checked as an empty database, with no stored user to compare (the real run creates the tables)`,
    );
    expect(existsSync(dataDir)).toBe(false);
  }, 60_000);

  it("with --create-org, creates no organization, and still compares the rows with the stored users of other organizations", async () => {
    const database = await cliDatabase("dryorg");
    try {
      const stored = scratch.file("globex.jsonl", `${JSON.stringify(userRequest("ann"))}\n`);
      expect((await runImport(importCommand(stored, database.target, { org: "globex" }), io())).exitCode).toBe(0);
      const before = { organizations: await database.organizations(), rows: await database.rowCounts() };

      // ann is taken instance-wide by globex's ann, another person (another organization).
      const file = scratch.file("acme.jsonl", `${[userRequest("ann"), userRequest("bob")].map((request) => JSON.stringify(request)).join("\n")}\n`);
      const dry = importCommand(file, database.target, { dryRun: true, reportPath: `${scratch.path}/acme-dry.report.jsonl` });
      const dryIo = io();
      const dryResult = await runImport(dry, dryIo);
      expect({ dryResult, out: withoutTiming(dryIo.out), err: dryIo.err }).toEqual({
        dryResult: { exitCode: 1, summary: { rows: 2, imported: 1, existing: 0, failed: 1, interrupted: false, lastLine: 2, seconds: expect.any(Number) as unknown as number } },
        out: [
          "dry run: 1 would be imported, 0 already there, 1 failed, of 2 rows; nothing was written",
          'dry run: the organization "acme" does not exist yet: checked as --create-org creates it, with no domains and the default policy (the real run creates it)',
          "in TIME",
          `report: ${dry.reportPath} (1 line)`,
          "",
        ].join("\n"),
        err: [],
      });
      expect({ organizations: await database.organizations(), rows: await database.rowCounts() }).toEqual(before);
      const dryReport = readFileSync(dry.reportPath, "utf8");
      expect(JSON.parse(dryReport)).toEqual({ line: 1, status: "failed", code: 6, error: "USER-n4m6", field: "userName", reason: "the username is already taken", userId: expect.any(String) });

      const real = { ...dry, dryRun: false, reportPath: `${scratch.path}/acme-real.report.jsonl` };
      expect(untimed(await runImport(real, io()))).toEqual(untimed(dryResult));
      expect(readFileSync(real.reportPath, "utf8")).toBe(dryReport);
      expect(await database.organizations()).toEqual(["acme", "globex"]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("without --create-org on a database without the tables, says the organization does not exist and creates nothing", async () => {
    const database = await cliDatabase("drynoorg");
    try {
      const file = scratch.file("no-org.jsonl", `${freshLines.join("\n")}\n`);
      const dryIo = io();
      expect(await runImport(importCommand(file, database.target, { dryRun: true, createOrg: false }), dryIo)).toEqual({ exitCode: 2 });
      expect({ out: dryIo.out, err: dryIo.err }).toEqual({
        out: [],
        err: [`human-users import: the organization "acme" does not exist in ${described(database.target)} (--create-org creates it)\n`],
      });
      expect(await database.tables()).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("refuses the tables of an earlier version without bringing them up to date", async () => {
    const database = await cliDatabase("dryold");
    try {
      await database.exec(
        "CREATE TABLE human_users_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); " +
          "INSERT INTO human_users_schema_migrations (version, name) VALUES (1, 'initial');",
      );
      const file = scratch.file("old.jsonl", `${freshLines.join("\n")}\n`);
      const dryIo = io();
      expect(await runImport(importCommand(file, database.target, { dryRun: true }), dryIo)).toEqual({ exitCode: 2 });
      const missing = migrations.map((migration) => migration.version).filter((version) => version > 1);
      expect({ out: dryIo.out, err: dryIo.err }).toEqual({
        out: [],
        err: [
          `human-users import: ${described(database.target)} has the human-users tables of an earlier version (migrations ${missing.join(", ")} not applied): a dry run changes nothing, so bring them up to date first (the import without --dry-run does, or migrate())\n`,
        ],
      });
      expect(await database.tables()).toEqual(["human_users_schema_migrations"]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("refuses tables a newer release migrated, as the real run does", async () => {
    const database = await cliDatabase("drynew");
    try {
      const known = Math.max(...migrations.map((migration) => migration.version));
      const versions = [...migrations.map((migration) => migration.version), known + 1];
      await database.exec(
        "CREATE TABLE human_users_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); " +
          `INSERT INTO human_users_schema_migrations (version, name) VALUES ${versions.map((version) => `(${version}, 'v${version}')`).join(", ")};`,
      );
      const file = scratch.file("new.jsonl", `${freshLines.join("\n")}\n`);
      const dryIo = io();
      expect(await runImport(importCommand(file, database.target, { dryRun: true }), dryIo)).toEqual({ exitCode: 2 });
      expect({ out: dryIo.out, err: dryIo.err }).toEqual({
        out: [],
        err: [
          `human-users import: ${described(database.target)}: the database's human-users schema is at version ${known + 1}, newer than this version of human-users knows (${known}): upgrade human-users before using this database\n`,
        ],
      });
    } finally {
      await database.drop();
    }
  }, 60_000);
});
