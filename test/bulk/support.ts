// Shared pieces of the bulk import tests: deterministic ports, requests, and the bodies expected.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { alreadyExists } from "../../src/core/errors/user-errors.js";
import {
  importHumanUser,
  type BulkImportOutcome,
  type ErrorBody,
  type ImportHumanUserResponse,
  type OperationContext,
  type Ports,
} from "../../src/index.js";
import type { ImportCommand } from "../../src/cli/import-command.js";
import { BCRYPT_HASH, fakeHasher } from "../operations/support/import-fixtures.js";
import { ACME, GLOBEX, NOW, testPorts, type TestPorts } from "../operations/support/ports.js";

export { ACME, NOW };

/** An instance admin writing into acme through the organization header, as the CLI does. */
export const adminInAcme: OperationContext = { requester: { userId: "root", orgId: "globex", instanceAdmin: true }, orgId: "acme" };

export function bulkPorts(overrides: Partial<Ports> = {}): TestPorts {
  return testPorts({ passwordHasher: fakeHasher, config: { immediateDelivery: "off" }, ...overrides }, { organizations: [ACME, GLOBEX] });
}

export interface UserOptions {
  readonly email?: string;
  readonly lastName?: string;
  readonly phone?: string;
  readonly hash?: string;
}

/** A valid importHumanUser request for `userName` (verified email, imported bcrypt hash): two events, no mail. */
export function userRequest(userName: string, options: UserOptions = {}): Record<string, unknown> {
  return {
    userName,
    profile: { firstName: "Ada", lastName: options.lastName ?? "Lovelace" },
    email: { email: options.email ?? `${userName.toLowerCase()}@example.com`, isEmailVerified: true },
    ...(options.phone === undefined ? {} : { phone: { phone: options.phone, isPhoneVerified: true } }),
    hashedPassword: { value: options.hash ?? BCRYPT_HASH },
  };
}

/** How an imported user of `userRequest` is answered (its id comes from the counting ids of the test ports: 18 digits). */
export function importedBody(sequence = "2"): ImportHumanUserResponse {
  return {
    userId: expect.stringMatching(/^\d{18}$/) as unknown as string,
    details: { sequence, creationDate: NOW, changeDate: NOW, resourceOwner: "acme" },
  };
}

export const usernameTaken: ErrorBody = alreadyExists("username");

/** The body importHumanUser gives `request` on its own, on an empty store: the oracle for refused items. */
export async function singleAnswer(request: unknown): Promise<ErrorBody | ImportHumanUserResponse> {
  const result = await importHumanUser(bulkPorts(), request, adminInAcme);
  return result.isOk() ? result.value : result.error;
}

export async function collect(outcomes: AsyncIterable<BulkImportOutcome>): Promise<BulkImportOutcome[]> {
  const all: BulkImportOutcome[] = [];
  for await (const outcome of outcomes) all.push(outcome);
  return all;
}

/** Usernames holding a claim in the store, sorted. */
export function claimedUsernames(claims: readonly { readonly kind: string; readonly key: string }[]): string[] {
  return claims.filter((claim) => claim.kind === "username").map((claim) => claim.key).sort();
}

/** A folder for one test file's inputs, removed after its tests; `file` writes one and gives its path. */
export function scratchFolder(label: string): { readonly path: string; file(name: string, text: string): string } {
  const path = mkdtempSync(join(tmpdir(), `human-users-${label}-`));
  afterAll(() => rmSync(path, { recursive: true, force: true }));
  return {
    path,
    file(name, text) {
      const file = join(path, name);
      writeFileSync(file, text);
      return file;
    },
  };
}

/** The command-line import of `file` into `target`'s acme (created when missing), quiet, with the report and links beside the file. */
/** `run` as given without --origin. */
export function withoutOrigin(run: ImportCommand): ImportCommand {
  const { origin: _origin, ...rest } = run;
  return rest;
}

export function importCommand(file: string, target: ImportCommand["target"], overrides: Partial<ImportCommand> = {}): ImportCommand {
  return {
    file,
    format: file.endsWith(".csv") ? "csv" : "jsonl",
    target,
    org: "acme",
    createOrg: true,
    reportPath: `${file}.report.jsonl`,
    linksPath: `${file}.links.jsonl`,
    reportExisting: false,
    dryRun: false,
    noMail: false,
    progressIntervalMs: 60_000,
    quiet: true,
    origin: "https://id.acme.test",
    ...overrides,
  };
}
