// `human-users import --dry-run`: a file with every kind of problem checked against the database,
// nothing written (counted in SQL), and the same summary and report as the real run that follows.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runImport, type CommandIo, type ImportCommand } from "../../src/cli/import-command.js";
import { openStore } from "../../src/cli/open-storage.js";
import { BCRYPT_HASH } from "../operations/support/import-fixtures.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { scratchFolder, userRequest } from "./support.js";

const scratch = scratchFolder("cli-dry-run");
const appKeys = { HUMAN_USERS_CODE_HMAC_KEY: Buffer.alloc(32, 5).toString("base64"), HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32, 6).toString("base64") };

function io(): CommandIo & { readonly out: string[] } {
  const out: string[] = [];
  return { out, stdout: { write: (text: string) => out.push(text) }, stderr: { write: () => true }, env: appKeys };
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
