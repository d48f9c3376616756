// `human-users import` end to end: CSV, setup errors, keys from the environment, and Ctrl-C.
import { execFileSync, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ok } from "neverthrow";
import { describe, expect, it } from "vitest";
import { runImport, type CommandIo, type ImportCommand } from "../../src/cli/import-command.js";
import { openStore } from "../../src/cli/open-storage.js";
import { keysFromEnvironment, memoryMailer, systemClock, verifyInitCode } from "../../src/index.js";
import { BCRYPT_HASH } from "../operations/support/import-fixtures.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { importCommand, scratchFolder, userRequest, withoutOrigin } from "./support.js";

const scratch = scratchFolder("cli-command");
const fileWith = scratch.file;

/** A named pipe in the scratch folder, as `/dev/stdin` is when a file is piped in. */
function namedPipe(name: string): string {
  const path = join(scratch.path, name);
  execFileSync("mkfifo", [path]);
  return path;
}

interface Captured extends CommandIo {
  readonly out: string[];
  readonly err: string[];
}

/** The application's keys, as the environment gives them. */
const HMAC_KEY = Buffer.alloc(32, 5);
const appKeys = { HUMAN_USERS_CODE_HMAC_KEY: HMAC_KEY.toString("base64"), HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32, 6).toString("base64"), HUMAN_USERS_KEY_ID: "app-2026" };

function captured(env: Record<string, string> = appKeys, signal?: CommandIo["signal"]): Captured {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env, ...(signal === undefined ? {} : { signal }) };
}

const command = importCommand;

function report(path: string): unknown[] {
  return readFileSync(path, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as unknown);
}

function jsonLines(count: number, prefix: string): string {
  return `${Array.from({ length: count }, (_, index) => JSON.stringify(userRequest(`${prefix}-${index}`))).join("\n")}\n`;
}

const where = postgresUrl === undefined ? "PGlite" : "PostgreSQL";

describe(`human-users import on ${where}`, () => {
  it("imports a CSV file by its documented columns and reports failed rows by column, never a hash", async () => {
    const csv = [
      "userName,firstName,lastName,email,emailVerified,phone,phoneVerified,passwordHash,passwordChangeRequired",
      `ann,Ann,Lee,ann@example.com,yes,,,${BCRYPT_HASH},false`,
      `"bob, jr",Bob,,bob@example.com,true,+41 79 123 45 67,1,,`,
      `cy,Cy,"Multi`,
      `Line",cy@example.com,no,,,$2x$04$abcdefghijklmnopqrstuu5U5xk6dk1bHJpRxAuJcIYlTK3kTQdSm,`,
      "dee,Dee,Doe,dee@example.com,maybe,,,,",
      `ANN,Ann,Again,ann2@example.com,1,,,${BCRYPT_HASH},`,
      "short,row",
    ].join("\r\n");
    const file = fileWith("users.csv", `${csv}\r\n`);
    const database = await cliDatabase("csv");
    try {
      const io = captured();
      const run = command(file, database.target, { reportExisting: true });
      expect(await runImport(run, io)).toMatchObject({ exitCode: 1, summary: { rows: 6, imported: 1, existing: 0, failed: 5, interrupted: false, lastLine: 8 } });
      expect(report(run.reportPath)).toEqual([
        { line: 3, status: "failed", code: 3, error: "USER-1nv4", field: "lastName", reason: "is required" },
        { line: 4, status: "failed", code: 3, error: "USER-1nv4", field: "passwordHash", reason: "the password hash is not in a supported format" },
        { line: 6, status: "failed", code: 3, error: "USER-1nv4", field: "emailVerified", reason: "must be true or false" },
        { line: 7, status: "failed", code: 6, error: "USER-n4m6", field: "userName", reason: "the username is already taken", earlierLine: 2 },
        { line: 8, status: "failed", code: 3, reason: "the row has 2 cells, the header 9" },
      ]);
      expect(readFileSync(run.reportPath, "utf8")).not.toContain("$2");
      expect((await database.contents()).usernames).toEqual(["ann"]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("imports Firebase users whose hashes leave the signer key out with HUMAN_USERS_FIREBASE_SIGNER_KEY, and reports them without it", async () => {
    const firebase = "$f_scrypt$lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==$42xEC+ixf3L2lw==$m=14$r=8$s=Bw==";
    const signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==";
    const file = fileWith("firebase.jsonl", `${JSON.stringify(userRequest("fay", { hash: firebase }))}\n`);
    const database = await cliDatabase("firebase");
    try {
      const without = command(file, database.target);
      expect(await runImport(without, captured())).toMatchObject({ exitCode: 1, summary: { rows: 1, imported: 0, failed: 1 } });
      expect(report(without.reportPath)).toEqual([
        {
          line: 1,
          status: "failed",
          code: 3,
          error: "USER-1nv4",
          field: "hashedPassword.value",
          reason: "firebase scrypt hash: signer key is the Firebase project's, and none is configured (firebaseSignerKey)",
        },
      ]);
      const withKey = command(file, database.target);
      expect(await runImport(withKey, captured({ ...appKeys, HUMAN_USERS_FIREBASE_SIGNER_KEY: signerKey }))).toMatchObject({ exitCode: 0, summary: { rows: 1, imported: 1, failed: 0 } });
      expect((await database.contents()).usernames).toEqual(["fay"]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("fails the second of two people with one username (exit 1, a conflict naming the earlier line); a re-run of a finished import reports nothing", async () => {
    const people = [userRequest("ann", { email: "ann@acme.test" }), userRequest("ann", { email: "other@acme.test" })];
    const file = fileWith("two-anns.jsonl", `${people.map((person) => JSON.stringify(person)).join("\n")}\n`);
    const clean = fileWith("clean-again.jsonl", jsonLines(3, "again"));
    const database = await cliDatabase("twoanns");
    try {
      const run = command(file, database.target);
      expect(await runImport(run, captured())).toMatchObject({ exitCode: 1, summary: { rows: 2, imported: 1, existing: 0, failed: 1 } });
      expect(report(run.reportPath)).toEqual([
        { line: 2, status: "failed", code: 6, error: "USER-n4m6", field: "userName", reason: "the username is already taken", earlierLine: 1 },
      ]);
      expect((await database.contents()).usernames).toEqual(["ann"]);

      const first = command(clean, database.target);
      expect(await runImport(first, captured())).toMatchObject({ exitCode: 0, summary: { rows: 3, imported: 3, existing: 0, failed: 0 } });
      const io = captured();
      expect(await runImport(first, io)).toMatchObject({ exitCode: 0, summary: { rows: 3, imported: 0, existing: 3, failed: 0 } });
      expect(existsSync(first.reportPath)).toBe(false);
      expect(io.out.join("")).toMatch(/^0 imported, 3 already there, 0 failed, of 3 rows\n/);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("refuses to start without the organization, a readable file, keys (unless --no-mail), valid keys or known CSV columns", async () => {
    const database = await cliDatabase("setup");
    try {
      const file = fileWith("one.jsonl", jsonLines(1, "one"));
      const cases: [ImportCommand, Record<string, string>, string][] = [
        [command(file, database.target, { createOrg: false }), appKeys, `human-users import: the organization "acme" does not exist in`],
        [command(join(scratch.path, "missing.jsonl"), database.target), appKeys, `human-users import: the file to import, ${join(scratch.path, "missing.jsonl")}, does not exist\n`],
        [
          withoutOrigin(command(file, database.target)),
          appKeys,
          "human-users import: --origin is required: the links in the initialization mails the import queues start with it, the application's public URL (e.g. --origin https://id.example.com); without it they would point at http://localhost:8080. Or pass --no-mail\n",
        ],
        [withoutOrigin(command(file, database.target, { dryRun: true })), appKeys, "human-users import: --origin is required:"],
        [
          command(file, database.target),
          {},
          "human-users import: HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY are not set: give the application's keys so the codes in initialization mails can be checked, or pass --no-mail\n",
        ],
        [
          command(file, database.target, { dryRun: true }),
          {},
          "human-users import: HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY are not set: give the application's keys so the codes in initialization mails can be checked, or pass --no-mail\n",
        ],
        [
          command(file, database.target),
          { HUMAN_USERS_CODE_HMAC_KEY: "c2hvcnQ=", HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32).toString("base64") },
          "human-users import: invalid configuration: HUMAN_USERS_CODE_HMAC_KEY must be standard base64 of 32 to 1024 bytes\n",
        ],
        [
          command(file, database.target),
          { HUMAN_USERS_CODE_HMAC_KEY: Buffer.alloc(32).toString("base64") },
          "human-users import: invalid configuration: HUMAN_USERS_ENCRYPTION_KEY is missing: the keys need HUMAN_USERS_CODE_HMAC_KEY and HUMAN_USERS_ENCRYPTION_KEY\n",
        ],
        [command(fileWith("bad.csv", "userName,mail\nann,a@example.com\n"), database.target), appKeys, 'human-users import: the CSV header names unknown columns: "mail"\n'],
        [command(fileWith("empty.csv", ""), database.target), appKeys, "human-users import: the CSV file has no header row: its first line must name the columns (see --help)\n"],
        [command(namedPipe("piped.csv"), database.target), appKeys, "human-users import: a CSV file is read twice (its header first, before the database is opened), so it must be a regular file, not a pipe or a device: save it to a file first\n"],
      ];
      for (const [run, env, message] of cases) {
        const io = captured(env);
        expect(await runImport(run, io)).toEqual({ exitCode: 2 });
        expect(io.err.join("")).toContain(message);
        expect(io.err.join("").split("\n").filter((line) => line !== "")).toHaveLength(1);
        expect(io.out).toEqual([]);
      }
      expect((await database.contents()).usernames).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("refuses, before touching the database and showing none of its cells, a first line naming no column, JSON Lines named .csv, a header naming a column twice, a folder and a missing file", async () => {
    const database = await cliDatabase("header");
    try {
      const cases: [string, string, string][] = [
        ["no-header.csv", "zed,Zed,Lee,zed@acme.test,true,MyS3cret!Passw0rd\n", "the CSV file has no header row: line 1 names too few columns (fewer than half of its cells), so it is taken for a row and not shown (see --help for the columns)"],
        ["json-lines.csv", '{"userName": "zed", "password": "MyS3cret!Passw0rd"}\n', "the CSV file has no header row: line 1 names too few columns (fewer than half of its cells), so it is taken for a row and not shown (see --help for the columns)"],
        [
          "email-twice.csv",
          `userName,firstName,lastName,Email,email,emailVerified,passwordHash\nd8,D,Eight,d8@acme.test,other8@acme.test,true,${BCRYPT_HASH}\n`,
          'the CSV header names a column more than once, and one of its cells would be dropped: email as "Email" (column 4) and "email" (column 5)',
        ],
      ];
      for (const [name, text, message] of cases) {
        const io = captured();
        expect({ result: await runImport(command(fileWith(name, text), database.target), io), out: io.out, err: io.err }).toEqual({ result: { exitCode: 2 }, out: [], err: [`human-users import: ${message}\n`] });
      }
      // A folder given as JSON Lines was found only after the migration and the organization were made.
      const folder = join(scratch.path, "folder.jsonl");
      mkdirSync(folder, { recursive: true });
      const io = captured();
      expect({ result: await runImport(command(folder, database.target), io), out: io.out, err: io.err }).toEqual({ result: { exitCode: 2 }, out: [], err: [`human-users import: ${folder} is a folder, not a file to import\n`] });
      // Said in words, not as Node's "ENOENT: no such file or directory, stat '...'".
      const missing = join(scratch.path, "missing.jsonl");
      const underAFile = join(fileWith("plain.txt", "x"), "users.jsonl");
      for (const [path, message] of [
        [missing, `the file to import, ${missing}, does not exist`],
        [underAFile, `the file to import, ${underAFile}, does not exist: a part of its path is not a folder`],
      ] as const) {
        const ioMissing = captured();
        expect({ result: await runImport(command(path, database.target), ioMissing), out: ioMissing.out, err: ioMissing.err }).toEqual({ result: { exitCode: 2 }, out: [], err: [`human-users import: ${message}\n`] });
      }
      expect(await database.tables()).toEqual([]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("exits 2, importing nothing, when the library refuses the settings (a bad --origin), instead of 0 for a file it never read", async () => {
    const database = await cliDatabase("bad_origin");
    try {
      const file = fileWith("bad-origin.jsonl", `${JSON.stringify(userRequest("ann"))}\n${JSON.stringify(userRequest("bob"))}\n`);
      const io = captured();
      const result = await runImport(command(file, database.target, { origin: "ftp://users.example" }), io);
      expect({ result, out: io.out, err: io.err.map((line) => line.startsWith("human-users import: invalid configuration: ") && line.includes("config.origin")) }).toEqual({
        result: { exitCode: 2 },
        out: [],
        err: [true],
      });
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("refuses, before touching anything, a report or links path that is the input or each other, or that cannot be written", async () => {
    const database = await cliDatabase("paths");
    try {
      const text = `${JSON.stringify(userRequest("kept"))}\n${JSON.stringify(userRequest("kept", { lastName: " " }))}\n`;
      const file = fileWith("victim.jsonl", text);
      const alias = join(scratch.path, "alias.jsonl");
      symlinkSync(file, alias);
      const folder = join(scratch.path, "a-folder");
      mkdirSync(folder);
      const shared = join(scratch.path, "shared.jsonl");
      const cases: [Partial<ImportCommand>, string][] = [
        [{ reportPath: file, dryRun: true }, `the report file ${file} is the file to import: give --report another path`],
        [{ reportPath: `${folder}/../victim.jsonl` }, `the report file ${folder}/../victim.jsonl is the file to import: give --report another path`],
        [{ reportPath: alias }, `the report file ${alias} is the file to import: give --report another path`],
        [{ linksPath: file }, `the links file ${file} is the file to import: give --links another path`],
        [{ reportPath: shared, linksPath: shared, dryRun: true }, `the report and the links file are one file (${shared}): give --report and --links different paths`],
        [{ reportPath: join(scratch.path, "no-such-folder", "r.jsonl") }, `the report file ${join(scratch.path, "no-such-folder", "r.jsonl")} cannot be written`],
        [{ reportPath: join(file, "r.jsonl") }, `the report file ${join(file, "r.jsonl")} cannot be written`],
        [{ reportPath: folder, dryRun: true }, `the report file ${folder} is not a file`],
        // A links file whose folder is a file: the check it shares with the report sees that too.
        [{ linksPath: join(file, "l.jsonl") }, `the links file ${join(file, "l.jsonl")} cannot be written`],
        [{ linksPath: join(scratch.path, "no-such-folder", "l.jsonl") }, `the links file ${join(scratch.path, "no-such-folder", "l.jsonl")} cannot be written`],
      ];
      for (const [overrides, message] of cases) {
        const io = captured();
        expect({ result: await runImport(command(file, database.target, overrides), io), out: io.out, err: io.err }).toEqual({ result: { exitCode: 2 }, out: [], err: [`human-users import: ${message}\n`] });
        expect(readFileSync(file, "utf8")).toBe(text);
      }
      expect({ tables: await database.tables(), shared: existsSync(shared) }).toEqual({ tables: [], shared: false });
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("writes no report when nothing needs reporting, and removes the report of an earlier run", async () => {
    const database = await cliDatabase("noreport");
    try {
      const file = fileWith("clean.jsonl", jsonLines(3, "clean"));
      const run = command(file, database.target);
      writeFileSync(run.reportPath, '{"line":1,"status":"failed"}\n');
      const io = captured();
      expect((await runImport(run, io)).exitCode).toBe(0);
      expect(existsSync(run.reportPath)).toBe(false);
      expect(io.out.join("")).not.toContain("report:");
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("keys the codes it writes with the application's key from the environment, and leaves the mail in the outbox", async () => {
    const key = HMAC_KEY;
    const file = fileWith("unverified.jsonl", `${JSON.stringify({ userName: "eve", profile: { firstName: "Eve", lastName: "Lee" }, email: { email: "eve@example.com" } })}\n`);
    const database = await cliDatabase("keys");
    try {
      const io = captured(appKeys);
      expect(await runImport(command(file, database.target), io)).toMatchObject({ exitCode: 0, summary: { imported: 1 } });
      const opened = await openStore(database.target);
      try {
        const { events, notifications } = await opened.store.snapshot();
        const codeEvent = events.find((event) => event.type === "user.human.initialization.code.added");
        const [mail] = notifications;
        expect(mail).toMatchObject({ kind: "email.initialization", recipient: "eve@example.com", state: "pending", attempts: 0 });
        const hash = createHmac("sha256", key).update(mail?.code ?? "").digest("base64");
        expect(codeEvent?.payload["code"]).toEqual({ algorithm: "HMAC-SHA256", keyId: "app-2026", hash });

        // The application, with the same keys from its environment, redeems the mailed code; other keys cannot.
        const userId = mail?.userId ?? "";
        const application = (env: Record<string, string>) => {
          const keys = keysFromEnvironment(env)._unsafeUnwrap();
          return { storage: opened.store, mailer: memoryMailer(), clock: systemClock, ...(keys === undefined ? {} : { keys }) };
        };
        const otherKeys = { ...appKeys, HUMAN_USERS_CODE_HMAC_KEY: Buffer.alloc(32, 8).toString("base64") };
        expect((await verifyInitCode(application(otherKeys), { userId, verificationCode: mail?.code ?? "" }))._unsafeUnwrapErr()).toMatchObject({ code: 3 });
        expect(await verifyInitCode(application(appKeys), { userId, verificationCode: mail?.code ?? "" })).toEqual(
          ok({ details: { sequence: "5", changeDate: expect.any(String) as unknown as string, resourceOwner: "acme" } }),
        );
      } finally {
        await opened.close();
      }
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("with --no-mail and no keys, imports an unverified user with no code and no mail", async () => {
    const file = fileWith("no-mail.jsonl", `${JSON.stringify({ userName: "eve", profile: { firstName: "Eve", lastName: "Lee" }, email: { email: "eve@example.com" }, phone: { phone: "+41791234567" } })}\n`);
    const database = await cliDatabase("nomail");
    try {
      expect(await runImport(command(file, database.target, { noMail: true }), captured({}))).toMatchObject({ exitCode: 0, summary: { imported: 1 } });
      const opened = await openStore(database.target);
      try {
        const { events, notifications } = await opened.store.snapshot();
        expect({ events: events.map((event) => event.type), notifications }).toEqual({ events: ["user.human.added"], notifications: [] });
      } finally {
        await opened.close();
      }
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("a stop that comes once the whole file was read interrupted nothing: the true exit status, no 'interrupted' line", async () => {
    const file = fileWith("late-stop.jsonl", jsonLines(3, "late"));
    const database = await cliDatabase("latestop");
    try {
      // The import looks at the signal before each row and once more at the end of the file (four
      // looks for three rows); the stop comes after those, while the last batch is written.
      let looks = 0;
      const signal = {
        get aborted() {
          looks += 1;
          return looks > 4;
        },
      };
      const io = captured(appKeys, signal);
      expect(await runImport(command(file, database.target), io)).toMatchObject({ exitCode: 0, summary: { rows: 3, imported: 3, interrupted: false } });
      expect(looks).toBeGreaterThan(4);
      expect(io.out.join("")).not.toContain("interrupted");
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("a dry run stopped part-way says the rows after the stop were not checked, not that they are to be imported", async () => {
    const file = fileWith("dry-stop.jsonl", jsonLines(3, "drystop"));
    const database = await cliDatabase("drystop");
    try {
      let looks = 0;
      // Batches of one: the third look, before the third row, says stop.
      const signal = {
        get aborted() {
          looks += 1;
          return looks > 2;
        },
      };
      const io = captured(appKeys, signal);
      expect(await runImport(command(file, database.target, { dryRun: true, batchSize: 1 }), io)).toMatchObject({
        exitCode: 130,
        summary: { rows: 2, imported: 2, interrupted: true, lastLine: 2 },
      });
      expect(io.out.join("")).toContain("interrupted: stopped after line 2; the rows after it were not checked\n");
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("stops after the batches in progress when interrupted, imports each user whole, and finishes on the next run", async () => {
    const total = 3_000;
    const file = fileWith("stop.jsonl", jsonLines(total, "stop"));
    const database = await cliDatabase("stop");
    try {
      const signal = { aborted: false };
      const io = captured(appKeys, signal);
      const run = command(file, database.target, { batchSize: 100, quiet: false, progressIntervalMs: 1 });
      // The first progress line with rows answered plays the part of Ctrl-C (lines come on a timer, from the start).
      let answeredAtSignal = 0;
      const interrupt = (text: string): void => {
        const rows = Number(/, ([\d,]+) rows/.exec(text)?.[1]?.replaceAll(",", "") ?? 0);
        if (signal.aborted || !text.startsWith("progress:") || rows === 0) return;
        signal.aborted = true;
        answeredAtSignal = rows;
      };
      const interruptible: CommandIo = { ...io, stderr: { write: (text: string) => (interrupt(text), true) } };
      const first = await runImport(run, interruptible);
      expect(first).toMatchObject({ exitCode: 130, summary: { interrupted: true, failed: 0, existing: 0 } });
      const imported = first.summary?.imported ?? 0;
      expect(imported).toBeGreaterThan(0);
      // What was answered by then, and at most the batches in flight beside the one being read (3 + 1 of 100).
      expect(imported).toBeLessThanOrEqual(answeredAtSignal + 400);
      expect(imported).toBeLessThan(total);
      expect(first.summary?.lastLine).toBe(imported);
      expect(io.out.join("")).toContain(`interrupted: stopped after line ${imported}; run the same command again`);
      const stopped = await database.contents();
      expect(stopped).toEqual({ usernames: Array.from({ length: imported }, (_, index) => `stop-${index}`).sort(), events: 2 * imported, claims: 2 * imported });

      const second = await runImport({ ...run, quiet: true }, captured());
      expect(second).toMatchObject({ exitCode: 0, summary: { rows: total, imported: total - imported, existing: imported, failed: 0, interrupted: false } });
      expect(await database.contents()).toMatchObject({ events: 2 * total, claims: 2 * total });
    } finally {
      await database.drop();
    }
  }, 120_000);
});

describe("the human-users command", () => {
  it("on Ctrl-C (SIGINT) prints the summary, exits 130, and leaves only whole users", async () => {
    const file = fileWith("sigint.jsonl", jsonLines(60_000, "sig"));
    const database = await cliDatabase("sigint");
    try {
      const where = "databaseUrl" in database.target ? ["--database-url", database.target.databaseUrl] : ["--data-dir", database.target.dataDir];
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "import", file, ...where, "--org", "acme", "--create-org", "--no-mail", "--progress-interval", "1"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let interrupted = false;
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        // Once: a second Ctrl-C quits at once, without the summary.
        if (stderr.includes("progress:") && !interrupted) interrupted = child.kill("SIGINT");
      });
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect({ code, stopping: stderr.includes("stopping after the batch in progress") }).toEqual({ code: 130, stopping: true });
      const stopped = /(\d[\d,]*) imported, 0 already there, 0 failed, of (\d[\d,]*) rows/.exec(stdout);
      const imported = Number(stopped?.[1]?.replaceAll(",", ""));
      expect(stdout).toContain("interrupted: stopped after line");
      expect(imported).toBeGreaterThan(0);
      expect(imported).toBeLessThan(60_000);
      expect(await database.contents()).toMatchObject({ events: 2 * imported, claims: 2 * imported });
    } finally {
      await database.drop();
    }
  }, 120_000);
});
