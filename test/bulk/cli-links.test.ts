// `human-users import` and passwordless registration links: a link is answered only, never mailed,
// so the command must hand every one it makes to the migration team, and must not make one whose
// code the application could never check.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runImport, type CommandIo, type ImportCommand } from "../../src/cli/import-command.js";
import { LINK_NEEDS_KEYS, LINK_NEEDS_ORIGIN } from "../../src/cli/links.js";
import { openStore } from "../../src/cli/open-storage.js";
import { keysFromEnvironment, memoryMailer, registerPasskey, systemClock } from "../../src/index.js";
import { cliDatabase, postgresUrl } from "./cli-database.js";
import { importCommand, scratchFolder, userRequest, withoutOrigin } from "./support.js";

const scratch = scratchFolder("cli-links");

const appKeys = {
  HUMAN_USERS_CODE_HMAC_KEY: Buffer.alloc(32, 5).toString("base64"),
  HUMAN_USERS_ENCRYPTION_KEY: Buffer.alloc(32, 6).toString("base64"),
  HUMAN_USERS_KEY_ID: "app-2026",
};

function captured(env: Record<string, string>): CommandIo & { readonly out: string[]; readonly err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env };
}

const command = (file: string, target: ImportCommand["target"], overrides: Partial<ImportCommand> = {}) =>
  importCommand(file, target, { origin: "https://login.acme.test", ...overrides });

function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const passwordless = (userName: string) => ({ ...userRequest(userName), requestPasswordlessRegistration: true });
const file = (name: string, rows: readonly unknown[]) => scratch.file(name, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);

describe(`human-users import with passwordless links on ${postgresUrl === undefined ? "PGlite" : "PostgreSQL"}`, () => {
  it("writes every link it makes to the links file (owner-only), each usable to register a passkey, and keeps them across runs", async () => {
    const path = file("links.jsonl", [passwordless("ann"), userRequest("bob"), passwordless("cy")]);
    const database = await cliDatabase("links");
    try {
      const run = command(path, database.target);
      const first = captured(appKeys);
      expect(await runImport(run, first)).toMatchObject({ exitCode: 0, summary: { rows: 3, imported: 3, existing: 0, failed: 0 } });
      const links = jsonLines(run.linksPath);
      const opened = await openStore(database.target);
      let userIds: Record<string, string>;
      try {
        const { events } = await opened.store.snapshot();
        userIds = Object.fromEntries(events.filter((event) => event.type === "user.human.added").map((event) => [String(event.payload["userName"]), event.aggregateId]));
        const created = events.find((event) => event.aggregateId === userIds["ann"])?.createdAt ?? "";
        const expiresAt = new Date(Date.parse(created) + 3600_000).toISOString();
        const link = (userName: string) =>
          expect.stringMatching(new RegExp(`^https://login\\.acme\\.test/ui/login/login/passwordless/init\\?userID=${userIds[userName]}&orgID=acme&codeID=[^&]+&code=[A-Za-z0-9]{12}$`)) as unknown as string;
        expect(links).toEqual([
          { line: 1, userId: userIds["ann"], link: link("ann"), lifetime: "3600s", expiresAt },
          { line: 3, userId: userIds["cy"], link: link("cy"), lifetime: "3600s", expiresAt: expect.any(String) as unknown as string },
        ]);

        // The application, with the same keys, accepts the link's code to begin a passkey registration.
        const keys = keysFromEnvironment(appKeys)._unsafeUnwrap();
        const ports = {
          storage: opened.store,
          mailer: memoryMailer(),
          clock: systemClock,
          ...(keys === undefined ? {} : { keys }),
          config: { passkeys: { rpId: "acme.test", rpName: "Acme", origins: ["https://login.acme.test"] } },
        };
        const query = new URL(String(links[0]?.["link"])).searchParams;
        const registered = await registerPasskey(ports, { userId: userIds["ann"] ?? "", code: { id: query.get("codeID") ?? "", code: query.get("code") ?? "" } });
        expect(registered.isOk()).toBe(true);
      } finally {
        await opened.close();
      }
      // The links hold codes: only the owner may read the file.
      expect(statSync(run.linksPath).mode & 0o777).toBe(0o600);
      expect(first.out.join("")).toContain(`passwordless links: ${run.linksPath} (2 lines`);

      // A second run finds everyone already there: no new link, and the first run's links stay.
      const again = captured(appKeys);
      expect(await runImport(run, again)).toMatchObject({ exitCode: 0, summary: { rows: 3, imported: 0, existing: 3, failed: 0 } });
      expect(jsonLines(run.linksPath)).toEqual(links);
      expect(again.out.join("")).not.toContain("passwordless links:");
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("writes no links file when no row asks for a link, nor in a dry run", async () => {
    const database = await cliDatabase("nolinks");
    try {
      const plain = command(file("plain.jsonl", [userRequest("dee")]), database.target);
      expect((await runImport(plain, captured(appKeys))).exitCode).toBe(0);
      expect(existsSync(plain.linksPath)).toBe(false);

      const dry = command(file("dry.jsonl", [passwordless("eve")]), database.target, { dryRun: true });
      expect(await runImport(dry, captured(appKeys))).toMatchObject({ exitCode: 0, summary: { imported: 1 } });
      expect(existsSync(dry.linksPath)).toBe(false);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it.each([
    ["no keys", "nokeys", {}, LINK_NEEDS_KEYS],
    ["keys and no --origin", "noorigin", appKeys, LINK_NEEDS_ORIGIN],
  ])("with --no-mail and %s, refuses a row that asks for a link and imports the others", async (_case, name, env, reason) => {
    const path = file(`${name}.jsonl`, [passwordless("fay"), userRequest("gus")]);
    const database = await cliDatabase(name);
    try {
      const run = withoutOrigin(command(path, database.target, { noMail: true }));
      writeFileSync(`${path}.links.jsonl`, "");
      expect(await runImport(run, captured(env))).toMatchObject({ exitCode: 1, summary: { rows: 2, imported: 1, existing: 0, failed: 1 } });
      expect(jsonLines(run.reportPath)).toEqual([{ line: 1, status: "failed", code: 9, field: "requestPasswordlessRegistration", reason }]);
      expect(readFileSync(run.linksPath, "utf8")).toBe("");
      expect((await database.contents()).usernames).toEqual(["gus"]);
    } finally {
      await database.drop();
    }
  }, 60_000);

  it("refuses to start when the links file could not be written, before importing anyone, in a dry run as in the real run", async () => {
    const path = file("unwritable.jsonl", [passwordless("hal")]);
    const folder = `${path}.links.jsonl`;
    mkdirSync(folder);
    const database = await cliDatabase("badlinks");
    try {
      // A dry run refuses it too: it must predict the real run, and the check writes nothing.
      for (const dryRun of [true, false]) {
        const io = captured(appKeys);
        expect(await runImport({ ...command(path, database.target), dryRun }, io)).toEqual({ exitCode: 2 });
        expect(io.err.join("")).toBe(`human-users import: the links file ${folder} is not a file\n`);
      }
      // Refused before the database was touched: not even migrated.
      await expect(database.rowCounts()).rejects.toThrow(/human_users_events" does not exist/);
    } finally {
      await database.drop();
    }
  }, 60_000);
});
