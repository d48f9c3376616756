import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
// The command-line tool's pieces: arguments, CSV, the column mapping, report lines, progress lines.
import { describe, expect, it, vi } from "vitest";
import { parseArguments } from "../../src/cli/arguments.js";
import { packageVersion } from "../../src/cli/version.js";
import { csvRecords, type CsvRecord } from "../../src/cli/csv.js";
import { columnOfField, readHeader, requestFromCells } from "../../src/cli/csv-mapping.js";
import { readLines } from "../../src/cli/lines.js";
import { formatBar, formatDuration, formatProgressLine, progressView, type Progress } from "../../src/cli/progress.js";
import { existingEntry, failedEntries } from "../../src/cli/report.js";
import { InputError, readRows, type Row } from "../../src/cli/rows.js";
import { alreadyExists, internal, invalidRequest, unavailable } from "../../src/core/errors/user-errors.js";
import { scratchFolder } from "./support.js";

const scratch = scratchFolder("cli-parts");
const fileWith = scratch.file;

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

/** Why reading the CSV file `text` stops before its first row. */
async function csvRefusal(name: string, text: string): Promise<string> {
  try {
    await all(readRows(fileWith(name, text), "csv"));
  } catch (error) {
    if (error instanceof InputError) return error.message;
    throw error;
  }
  throw new Error(`${name} was read`);
}

describe("arguments", () => {
  it("reads an import into PostgreSQL with every option", () => {
    const parsed = parseArguments([
      "import", "users.csv", "--database-url", "postgres://db/x", "--org", "acme", "--create-org", "--report", "r.jsonl", "--links", "l.jsonl",
      "--report-existing", "--dry-run", "--no-mail", "--batch-size", "100", "--concurrency", "8", "--parallel-batches", "3", "--origin", "https://id.example", "--progress-interval", "3", "--quiet",
    ]);
    expect(parsed).toEqual({
      kind: "import",
      command: {
        file: "users.csv",
        format: "csv",
        target: { databaseUrl: "postgres://db/x" },
        org: "acme",
        createOrg: true,
        reportPath: "r.jsonl",
        linksPath: "l.jsonl",
        reportExisting: true,
        dryRun: true,
        noMail: true,
        batchSize: 100,
        concurrency: 8,
        parallelBatches: 3,
        origin: "https://id.example",
        progressIntervalMs: 3000,
        quiet: true,
      },
    });
  });

  it("defaults to JSON Lines, a report beside the file, and progress lines every 10 s", () => {
    expect(parseArguments(["import", "users.txt", "--data-dir", "./data", "--org", "acme"])).toEqual({
      kind: "import",
      command: {
        file: "users.txt",
        format: "jsonl",
        target: { dataDir: "./data" },
        org: "acme",
        createOrg: false,
        reportPath: "users.txt.report.jsonl",
        linksPath: "users.txt.links.jsonl",
        reportExisting: false,
        dryRun: false,
        noMail: false,
        progressIntervalMs: 10_000,
        quiet: false,
      },
    });
    expect(parseArguments(["import", "users.CSV", "--data-dir", "d", "--org", "a", "--format", "jsonl"])).toMatchObject({ command: { format: "jsonl" } });
  });

  it("answers --version and -v", () => {
    expect(parseArguments(["--version"])).toEqual({ kind: "version" });
    expect(parseArguments(["-v"])).toEqual({ kind: "version" });
    expect(packageVersion()).toBe(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
  });

  it("refuses what it cannot run, saying why", () => {
    const refusals: [string[], string][] = [
      [[], "a command is required: import"],
      [["export", "f"], 'unknown command "export"'],
      [["import"], "the file to import is required"],
      [["import", "f", "g", "--data-dir", "d", "--org", "a"], "unexpected arguments: g"],
      [["import", "f", "--org", "a"], "--database-url or --data-dir is required"],
      [["import", "f", "--org", "a", "--data-dir", "d", "--database-url", "u"], "give --database-url or --data-dir, not both"],
      [["import", "f", "--org", "a", "--data-dir="], "--data-dir needs a value"],
      [["import", "f", "--org", "a", "--database-url="], "--database-url needs a value"],
      [["import", "f", "--data-dir", "d"], "--org is required"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--format", "xml"], "--format must be jsonl or csv"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--batch-size", "0"], "--batch-size must be a whole number of at least 1"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--concurrency", "2.5"], "--concurrency must be a whole number of at least 1"],
      // Numbers as people write them: digits only, not what Number() also reads.
      [["import", "f", "--data-dir", "d", "--org", "a", "--batch-size", "1e3"], "--batch-size must be a whole number of at least 1"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--concurrency", "0x10"], "--concurrency must be a whole number of at least 1"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--parallel-batches", " 5"], "--parallel-batches must be a whole number of at least 1"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--batch-size", "99999999999999999999"], "--batch-size must be a whole number of at least 1"],
      // A timer takes at most 2^31 - 1 ms: beyond, node fires it at once, and progress floods the terminal.
      [["import", "f", "--data-dir", "d", "--org", "a", "--progress-interval", "2147484"], "--progress-interval must be a whole number of seconds from 1 to 2147483"],
      // Empty paths would pass the start's check (the folder of "" is ".") and fail after users were written.
      [["import", "f", "--data-dir", "d", "--org", "a", "--report="], "--report needs a value"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--links="], "--links needs a value"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--format="], "--format must be jsonl or csv"],
      // Refused before the database is opened, in the words the library's own check uses.
      [["import", "f", "--data-dir", "d", "--org", "a", "--origin", "notaurl"], "--origin must be an absolute http or https URL without query or fragment"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--origin", "ftp://x.test"], "--origin must be an absolute http or https URL without query or fragment"],
      [["import", "f", "--data-dir", "d", "--org", "a", "--origin="], "--origin must be an absolute http or https URL without query or fragment"],
    ];
    for (const [argv, message] of refusals) expect(parseArguments(argv)).toEqual({ kind: "error", message });
    // In the command's words, with the option likely meant, not parseArgs' advice about positionals.
    const parseRefusals: [string[], string][] = [
      [["import", "f", "--colour"], "unknown option --colour"],
      [["import", "f", "--data-dri", "d"], "unknown option --data-dri (did you mean --data-dir?)"],
      [["import", "f", "--orgg", "a"], "unknown option --orgg (did you mean --org?)"],
      [["import", "f", "-x"], "unknown option -x"],
      [["import", "f", "--data-dir", "d", "--org"], "--org needs a value"],
      [["import", "f", "--quiet=yes"], "--quiet takes no value"],
      [["import", "f", "--help=x"], "--help takes no value"],
      [["import", "f", "--data-dir", "d", "--org", "-acme"], '--org is followed by an option, not a value (a value that starts with "-" is written --org=-VALUE)'],
      // A name an option begins, or one it begins with, and no guess for a short name few letters from many.
      [["import", "f", "--dry"], "unknown option --dry (did you mean --dry-run?)"],
      [["import", "f", "--no-mai"], "unknown option --no-mai (did you mean --no-mail?)"],
      [["import", "f", "--url", "u"], "unknown option --url"],
      [["import", "f", "--dat", "d"], "unknown option --dat"],
      [["import", "f", "--ORG", "a"], "unknown option --ORG (did you mean --org?)"],
    ];
    for (const [argv, message] of parseRefusals) expect(parseArguments(argv)).toEqual({ kind: "error", message });
    // The last of two would win without a word: a second --database-url picks the target database.
    expect(parseArguments(["import", "f", "--data-dir", "d", "--org", "a", "--org", "b"])).toEqual({ kind: "error", message: "--org is given twice" });
    expect(parseArguments(["import", "f", "--database-url", "u", "--org", "a", "--database-url=v"])).toEqual({ kind: "error", message: "--database-url is given twice" });
    // Every option counts, as the help says: a flag given twice is a mistake too (a pasted line).
    expect(parseArguments(["import", "f", "--data-dir", "d", "--org", "a", "--quiet", "--quiet"])).toEqual({ kind: "error", message: "--quiet is given twice" });
    expect(parseArguments(["import", "f", "--data-dir", "d", "--org", "a", "--dry-run", "--no-mail", "--dry-run"])).toEqual({ kind: "error", message: "--dry-run is given twice" });
    expect(parseArguments(["import", "f", "--data-dir", "d", "--org", "a", "--progress-interval", "2147483"])).toMatchObject({ command: { progressIntervalMs: 2_147_483_000 } });
    expect(parseArguments(["import", "f", "--data-dir", "d", "--org", "a", "--origin", "https://id.acme.test/base"])).toMatchObject({ command: { origin: "https://id.acme.test/base" } });
    expect(parseArguments(["import", "f", "--org", "a", "--org", "b", "--help"])).toEqual({ kind: "help" });
    expect(parseArguments(["--help"])).toEqual({ kind: "help" });
  });
});

describe("a usage error on the command line", () => {
  it("prints the error, the usage line and where to read more, not the whole help, and exits 2", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "import", "users.jsonl", "--data-dri", "d"], { encoding: "utf8" });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "human-users: unknown option --data-dri (did you mean --data-dir?)\n" +
        "Usage: human-users import FILE (--database-url URL | --data-dir DIR) --org ID [options]\n" +
        'Run "human-users --help" for every option.\n',
    });
  }, 30_000);
});

describe("CSV", () => {
  async function records(text: string): Promise<CsvRecord[]> {
    return all(csvRecords(readLines(fileWith("records.csv", text))));
  }

  it("reads quoted cells with commas, doubled quotes and line breaks, CRLF, a byte order mark and blank lines", async () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""",\r\n\r\n"two\r\nlines",,"é"\n';
    expect(await records(text)).toEqual([
      { cells: ["a", "b", "c"], line: 1, end: 10 },
      { cells: ["x, y", 'say "hi"', ""], line: 2, end: 32 },
      { cells: ["two\nlines", "", "é"], line: 4, end: 53 },
    ]);
  });

  it("reads lone CR line breaks (old Mac exports) as line breaks, and CRLF split between two reads as one", async () => {
    expect(await records('a,b\r"x\ry",1\rz,2')).toEqual([
      { cells: ["a", "b"], line: 1, end: 4 },
      { cells: ["x\ny", "1"], line: 2, end: 12 },
      { cells: ["z", "2"], line: 4, end: 15 },
    ]);
    // A read is 64 KiB: the CR is its last byte, and its LF starts the next read. The line ends after both.
    const first = `a,${"x".repeat(65536 - 3)}`;
    expect((await all(readLines(fileWith("split.csv", `${first}\r\nb,1\n`)))).map(({ text, number, end }) => ({ length: text.length, number, end }))).toEqual([
      { length: first.length, number: 1, end: 65537 },
      { length: 3, number: 2, end: 65541 },
    ]);
  });

  it("reports a broken record and goes on with the next one", async () => {
    expect(await records('a,"b"c,d\n"open\nstill open",x\nok,1\n"never closed\n')).toEqual([
      { cells: [], line: 1, end: 9, problem: "text after a closing quote in cell 2" },
      { cells: ["open\nstill open", "x"], line: 2, end: 29 },
      { cells: ["ok", "1"], line: 4, end: 34 },
      { cells: [], line: 5, end: 48, problem: "a quoted cell is not closed before the end of the file" },
    ]);
  });

  it("names the lines a quoted cell never closed took in, so that the report accounts for every line", async () => {
    expect(await records('a,1\nb,"open\nc,3\nd,4\n')).toEqual([
      { cells: ["a", "1"], line: 1, end: 4 },
      { cells: [], line: 2, end: 20, problem: "a quoted cell is not closed before the end of the file: lines 2 to 4 were read as this one record" },
    ]);
  });

  it("fails a JSON line naming a field the import does not read, with the likely one, instead of dropping it", async () => {
    const lines = [
      '{"userName":"ann","hashedPasword":{"value":"x"},"email":{"email":"a@b.test","isEmailVerfied":true}}',
      '{"user_name":"bob","hashed_password":{"value":"x"},"profile":{"first_name":"Bob","lastName":"Lee"},"idps":[{"configId":"i","externalUserId":"u","foo":1}]}',
      '{"userName":"cid","zzz":1,"otpCode":"123456"}',
      '{"userName":"dan","otpCode":""}',
      '{"userName":"eve","email":{"email":"e@b.test","is_emailVerified":true},"password_changeRequired":true}',
      '{"userName":"fay","user_name":"fay2","profile":{"firstName":"Fay","first_name":"F"}}',
      '{"userName":"gus","toString":1,"constructor":{}}',
      '{"userName":"hal","userName":"hal2","profile":{"firstName":"Hal","lastName":"Lee"}}',
    ];
    const prefix = "fields the import does not read, which would be dropped:";
    expect(await all(readRows(fileWith("unknown.jsonl", `${lines.join("\n")}\n`), "jsonl"))).toEqual([
      { line: 1, end: 100, code: 3, field: "hashedPasword", problem: `${prefix} hashedPasword (did you mean hashedPassword?), email.isEmailVerfied (did you mean email.isEmailVerified?)` },
      { line: 2, end: 255, code: 3, field: "idps[0].foo", problem: `${prefix} idps[0].foo` },
      { line: 3, end: 301, code: 3, field: "zzz", problem: `${prefix} zzz, otpCode (the import takes no OTP code: enrol OTP after it)` },
      { line: 4, end: 333, request: { userName: "dan", otpCode: "" } },
      // Half snake_case, half camelCase: neither spelling the import reads.
      { line: 5, end: 436, code: 3, field: "email.is_emailVerified", problem: `${prefix} email.is_emailVerified (did you mean email.isEmailVerified?), password_changeRequired (did you mean passwordChangeRequired?)` },
      // Both spellings of one field: the lowerCamelCase one is read, the other would be dropped.
      { line: 6, end: 521, code: 3, field: "user_name", problem: `${prefix} user_name (given as userName too, which is the one read), profile.first_name (given as firstName too, which is the one read)` },
      { line: 7, end: 570, code: 3, field: "toString", problem: `${prefix} toString, constructor` },
      // JSON.parse keeps the last of two: the first would be dropped without a line in the report.
      { line: 8, end: 654, code: 3, field: "userName", problem: "the line gives userName twice, and only the last would be read: give it once" },
    ]);
  });

  it("skips a byte order mark at the start of any JSON line (files joined with cat)", async () => {
    expect(await all(readRows(fileWith("joined.jsonl", '\uFEFF{"userName":"ann"}\n\uFEFF{"userName":"bob"}\n'), "jsonl"))).toEqual([
      { line: 1, end: 22, request: { userName: "ann" } },
      { line: 2, end: 44, request: { userName: "bob" } },
    ]);
  });

  it("fails a record that is not valid UTF-8 (a Latin-1 export, say) on its own, instead of importing replacement characters", async () => {
    const path = join(scratch.path, "latin1.csv");
    // "José" in Latin-1 (é is 0xE9), inside a quoted cell over two lines, between two good records.
    writeFileSync(path, Buffer.concat([Buffer.from('a,b\n"Jos'), Buffer.from([0xe9]), Buffer.from('\nx",1\nok,2\n')]));
    expect(await all(csvRecords(readLines(path)))).toEqual([
      { cells: ["a", "b"], line: 1, end: 4 },
      { cells: [], line: 2, end: 15, problem: "the record is not valid UTF-8 (save the file as UTF-8, or convert it with iconv)" },
      { cells: ["ok", "2"], line: 4, end: 20 },
    ]);
    const jsonl = join(scratch.path, "latin1.jsonl");
    writeFileSync(jsonl, Buffer.concat([Buffer.from('{"userName":"Jos'), Buffer.from([0xe9]), Buffer.from('"}\n{"userName":"ok"}\n')]));
    expect(await all(readRows(jsonl, "jsonl"))).toEqual([
      { line: 1, end: 20, problem: "the line is not valid UTF-8 (save the file as UTF-8, or convert it with iconv)" },
      { line: 2, end: 38, request: { userName: "ok" } },
    ]);
  });

  it("finds where the quotes of a line over 1 MiB close, so that the records after it are read", async () => {
    const long = "x".repeat(1024 * 1024 + 10);
    const text = `m1,"start\n${long}",m1@acme.test\nm2,m2@acme.test\n"${long}\n""quoted"" end",x\nm3,"a ""${long}"" b"\nm4,ok\n`;
    expect(await records(text)).toEqual([
      { cells: [], line: 1, end: 1048611, problem: "the record is longer than 1 MiB" },
      { cells: ["m2", "m2@acme.test"], line: 3, end: 1048627 },
      { cells: [], line: 4, end: 2097233, problem: "the record is longer than 1 MiB" },
      { cells: [], line: 6, end: 3145833, problem: "the record is longer than 1 MiB" },
      { cells: ["m4", "ok"], line: 7, end: 3145839 },
    ]);
  });

  it("maps the documented columns (any case) onto importHumanUser's fields, booleans in several spellings", () => {
    const header = readHeader(["USERNAME", "firstName", "lastname", "email", "emailVerified", "phone", "phoneVerified", "passwordHash", "passwordChangeRequired", "idpConfigId", "idpExternalUserId", "gender"]);
    expect(header).toEqual({ columns: ["userName", "firstName", "lastName", "email", "emailVerified", "phone", "phoneVerified", "passwordHash", "passwordChangeRequired", "idpConfigId", "idpExternalUserId", "gender"] });
    if (!("columns" in header)) return;
    expect(requestFromCells(header.columns, ["ann", "Ann", "Lee", "ann@example.com", "Yes", "+41791234567", "0", "$2b$04$x", "TRUE", "idp-1", "ext-1", "GENDER_FEMALE"])).toEqual({
      userName: "ann",
      profile: { firstName: "Ann", lastName: "Lee", gender: "GENDER_FEMALE" },
      email: { email: "ann@example.com", isEmailVerified: true },
      phone: { phone: "+41791234567", isPhoneVerified: false },
      hashedPassword: { value: "$2b$04$x" },
      passwordChangeRequired: true,
      idps: [{ configId: "idp-1", externalUserId: "ext-1" }],
    });
    // Empty cells are left out; a word that is no boolean is passed on for validation to name.
    expect(requestFromCells(header.columns, ["", "", "", "", "maybe", "", "", "", "", "", "", ""])).toEqual({ profile: {}, email: { isEmailVerified: "maybe" } });
  });

  it("refuses a header naming columns it does not know, and names them back in reports", () => {
    expect(readHeader(["email", "e-mail", "first_name", "userName"])).toEqual({ unknown: ["e-mail", "first_name"] });
    expect(columnOfField("profile.firstName")).toBe("firstName");
    expect(columnOfField("hashedPassword.value")).toBe("passwordHash");
    expect(columnOfField("idps[0].configId")).toBe("idpConfigId");
    expect(columnOfField("profile")).toBe("profile");
  });

  it("reads a CSV file into rows with their lines, and refuses a file with unknown columns", async () => {
    const rows: Row[] = await all(readRows(fileWith("rows.csv", "userName,email\nann,ann@example.com\nbob\n"), "csv"));
    expect(rows).toEqual([
      { line: 2, end: 35, request: { userName: "ann", profile: {}, email: { email: "ann@example.com" } } },
      { line: 3, end: 39, problem: "the row has 1 cells, the header 2" },
    ]);
    await expect(all(readRows(fileWith("bad.csv", "userName,mail\n"), "csv"))).rejects.toThrow('the CSV header names unknown columns: "mail"');
  });

  it("takes a first line naming too few columns for a row, not a header, and never shows its cells (CSV, or JSON Lines named .csv)", async () => {
    expect(readHeader(["zed", "Zed", "MyS3cret!Passw0rd"])).toEqual({ notHeader: true });
    // A cell of the row that happens to be a column's name does not make it a header to list.
    expect(readHeader(["email", "Mail", "Box", "email@acme.test", "true", "$2b$04$ld1s9PNHWmt4T9DPLxl5O.WmxNLFa.oELdYsIlBWGS/xp43NoQ4pm"])).toEqual({ notHeader: true });
    expect(readHeader(["ann", "Ann", "Lee", "ann@acme.test", "false", "", "Password"])).toEqual({ notHeader: true });
    const files: [string, string, string][] = [
      ["no-header.csv", "zed,Zed,Lee,zed@acme.test,true,MyS3cret!Passw0rd\n", "line 1"],
      ["blank-first.csv", "\n\nzed,MyS3cret!Passw0rd\n", "line 3"],
      ["json-spaced.csv", '{"userName": "zed", "password": "MyS3cret!Passw0rd"}\n', "line 1"],
      ["json-one.csv", '{"password":"MyS3cret!Passw0rd"}\n', "line 1"],
    ];
    for (const [name, text, line] of files) {
      expect(await csvRefusal(name, text)).toBe(`the CSV file has no header row: ${line} names too few columns (fewer than half of its cells), so it is taken for a row and not shown (see --help for the columns)`);
    }
    expect(await csvRefusal("json-tight.csv", '{"userName":"zed","password":"MyS3cret!Passw0rd"}\n')).toBe("the CSV header on line 1 cannot be read: text after a closing quote in cell 2");
  });

  it("refuses a header naming one column more than once, in any spelling, naming the clashing columns", async () => {
    expect(readHeader(["userName", "Email", "email", "firstName", " EMAIL "])).toEqual({
      repeated: [{ column: "email", cells: [{ name: "Email", position: 2 }, { name: "email", position: 3 }, { name: " EMAIL ", position: 5 }] }],
    });
    expect(await csvRefusal("twice.csv", "userName,firstName,lastName,Email,email,emailVerified\nd8,D,Eight,d8@acme.test,other8@acme.test,true\n")).toBe(
      'the CSV header names a column more than once, and one of its cells would be dropped: email as "Email" (column 4) and "email" (column 5)',
    );
    expect(await csvRefusal("twice-two.csv", "userName,email,UserName,Email,email\n")).toBe(
      'the CSV header names a column more than once, and one of its cells would be dropped: userName as "userName" (column 1) and "UserName" (column 3); email as "email" (column 2), "Email" (column 4) and "email" (column 5)',
    );
  });

  it("refuses a CSV file without a header row, but reads a header with no rows as no rows", async () => {
    await expect(all(readRows(fileWith("empty.csv", ""), "csv"))).rejects.toThrow("the CSV file has no header row: its first line must name the columns (see --help)");
    expect(await all(readRows(fileWith("header-only.csv", "userName,email\n"), "csv"))).toEqual([]);
    expect(await all(readRows(fileWith("empty.jsonl", ""), "jsonl"))).toEqual([]);
  });

  it("reads JSON Lines, skipping blank lines and never quoting a line that is not JSON", async () => {
    const rows = await all(readRows(fileWith("rows.jsonl", '{"userName":"ann"}\n\n{"password":"hunter2"\n'), "jsonl"));
    expect(rows).toEqual([
      { line: 1, end: 19, request: { userName: "ann" } },
      { line: 3, end: 42, problem: "the line is not valid JSON" },
    ]);
  });
});

describe("report lines", () => {
  const lines = [2, 3, 5];
  const row = { line: 7, fieldName: columnOfField, lineOf: (index: number) => lines[index] };

  it("lists every field violation on its column", () => {
    const body = invalidRequest([
      { field: "profile.lastName", description: "must not be blank" },
      { field: "hashedPassword.value", description: "the password hash is not in a supported format" },
    ]);
    expect(failedEntries(row, body)).toEqual([
      { line: 7, status: "failed", code: 3, error: "USER-1nv4", field: "lastName", reason: "must not be blank" },
      { line: 7, status: "failed", code: 3, error: "USER-1nv4", field: "passwordHash", reason: "the password hash is not in a supported format" },
    ]);
  });

  it("names a conflict's column and the earlier line or the stored user; other errors fail without a field", () => {
    expect(failedEntries(row, alreadyExists("username"), { conflict: { claim: "username", field: "email.email", earlierIndex: 2 } })).toEqual([
      { line: 7, status: "failed", code: 6, error: "USER-n4m6", field: "email", reason: "the username is already taken", earlierLine: 5 },
    ]);
    expect(failedEntries(row, alreadyExists("idp_link"), { conflict: { claim: "idp_link", field: "idps[0].externalUserId", userId: "u-1" } })).toEqual([
      { line: 7, status: "failed", code: 6, error: "USER-l1n6", field: "idpExternalUserId", reason: "this identity provider account is already linked to a user", userId: "u-1" },
    ]);
    expect(failedEntries(row, internal())).toEqual([{ line: 7, status: "failed", code: 13, error: "USER-1nt3", reason: "internal error" }]);
  });

  it("names the earlier line of the same user when the row fails because that line was not imported", () => {
    expect(failedEntries(row, unavailable(), { sameUserAs: { earlierIndex: 1 } })).toEqual([
      { line: 7, status: "failed", code: 14, error: "USER-unv4", reason: "the same user as an earlier line, which was not imported: storage is unavailable, try again later", earlierLine: 3 },
    ]);
  });

  it("lists a row already there with the earlier line or the stored user it is", () => {
    expect(existingEntry(row, { earlierIndex: 0 })).toEqual({ line: 7, status: "exists", reason: "the same user is already there", earlierLine: 2 });
    expect(existingEntry(row, { userId: "u-1" })).toEqual({ line: 7, status: "exists", reason: "the same user is already there", userId: "u-1" });
  });
});

describe("progress lines", () => {
  const progress: Progress = { rows: 52_000, imported: 50_000, existing: 1_500, failed: 500, bytes: 520, totalBytes: 1000, elapsedMs: 4_000 };

  it("draws a bar with the share of the file, the rate and the time left", () => {
    expect(formatBar(progress, 200)).toBe("[############............]  52%  52,000 rows  13,000/s  0:04 left  (50,000 new, 1,500 existing, 500 failed)");
    expect(formatBar(progress, 20)).toBe("[############......");
    expect(formatProgressLine({ ...progress, elapsedMs: 100 })).toBe("progress: 52% of the file, 52,000 rows  520,000/s  --:-- left  (50,000 new, 1,500 existing, 500 failed)");
  });

  it("draws plain lines, never a bar, on a terminal of unknown or no width", () => {
    vi.useFakeTimers();
    try {
      for (const columns of [undefined, 0]) {
        const written: string[] = [];
        const view = progressView({ isTTY: true, ...(columns === undefined ? {} : { columns }), write: (text: string) => written.push(text) }, { intervalMs: 10_000, quiet: false });
        view.update(progress);
        vi.advanceTimersByTime(10_000);
        view.finish();
        expect(written).toEqual([`${formatProgressLine({ ...progress, elapsedMs: 14_000 })}\n`]);
      }
      const drawn: string[] = [];
      const bar = progressView({ isTTY: true, columns: 30, write: (text: string) => drawn.push(text) }, { intervalMs: 10_000, quiet: false });
      bar.update(progress);
      vi.advanceTimersByTime(100);
      bar.finish();
      expect(drawn).toEqual([`\r\x1b[2K${formatBar({ ...progress, elapsedMs: 4_100 }, 30)}`, "\r\x1b[2K"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("writes a line every interval while no row is answered (a batch in flight), with the time gone on, and the latest counts when rows are", () => {
    vi.useFakeTimers();
    try {
      const written: string[] = [];
      const view = progressView({ write: (text: string) => written.push(text) }, { intervalMs: 10_000, quiet: false });
      const start: Progress = { rows: 0, imported: 0, existing: 0, failed: 0, bytes: 0, totalBytes: 1000, elapsedMs: 0 };
      view.update(start);
      vi.advanceTimersByTime(25_000);
      // A batch's rows answered at once: only the latest counts are drawn, at the next tick.
      view.update({ ...start, rows: 1, imported: 1, bytes: 10, elapsedMs: 25_000 });
      view.update({ ...progress, elapsedMs: 25_000 });
      vi.advanceTimersByTime(5_000);
      view.finish();
      vi.advanceTimersByTime(60_000);
      expect(written).toEqual([
        `${formatProgressLine({ ...start, elapsedMs: 10_000 })}\n`,
        `${formatProgressLine({ ...start, elapsedMs: 20_000 })}\n`,
        `${formatProgressLine({ ...progress, elapsedMs: 30_000 })}\n`,
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("writes durations as m:ss or h:mm:ss", () => {
    expect([0, 7.4, 125, 3_723].map(formatDuration)).toEqual(["0:00", "0:07", "2:05", "1:02:03"]);
  });
});
