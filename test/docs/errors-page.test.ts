// docs/errors.md lists every error id the functions answer with, each with the code it really has:
// a new id in `errorIds`, a removed one, or a changed code fails here until the page says so.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as userErrors from "../../src/core/errors/user-errors.js";
import { errorIds } from "../../src/core/errors/user-errors.js";
import type { ErrorBody } from "../../src/shared/error-body.js";

const page = readFileSync(resolve(import.meta.dirname, "../../docs/errors.md"), "utf8");

/** The rows of the table under "## Errors of the functions": id, code and `errorIds` name. */
function listedErrors(): { id: string; code: number; name: string }[] {
  const section = page.split("## Errors of the functions")[1]?.split("\n## ")[0] ?? "";
  return section
    .split("\n")
    .map((line) => /^\| `(USER-[^`]+)` \| (\d+) \| `([A-Za-z]+)` \|/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ id: match[1] ?? "", code: Number(match[2]), name: match[3] ?? "" }));
}

/** One body of every kind the functions answer, made by the source's own constructors. */
function everyBody(): ErrorBody[] {
  return [
    userErrors.notAnObject(),
    userErrors.invalidRequest([{ field: "profile.givenName", description: "is required" }]),
    userErrors.unauthenticated(),
    userErrors.permissionDenied(),
    userErrors.notTheUser(),
    userErrors.organizationNotFound(),
    userErrors.userNotFound(),
    userErrors.identityProviderNotFound(),
    userErrors.internal(),
    userErrors.unavailable(),
    userErrors.aborted(),
    userErrors.invalidConfiguration(["ports.mailer is missing: memoryMailer() in tests, smtpMailer(...) from human-users/smtp, or an object with send(message)"]),
    userErrors.alreadyExists("user_id"),
    userErrors.alreadyExists("username"),
    userErrors.alreadyExists("idp_link"),
    userErrors.alreadyExists("passkey"),
    userErrors.reservedDomain("username"),
    userErrors.codeWrong("email"),
    userErrors.codeExpired("email"),
    userErrors.resetCodeExpired(),
    userErrors.codeExhausted("email"),
    userErrors.noCodePending("email"),
    userErrors.emailAlreadyVerified(),
    userErrors.phoneAlreadyVerified(),
    userErrors.noPhone(),
    userErrors.alreadyInitialized(),
    userErrors.notInitialized(),
    userErrors.passwordNotChanged(),
    userErrors.wrongPassword(),
    userErrors.userLocked(),
    userErrors.userNotLocked(),
    userErrors.passkeysNotConfigured(),
    userErrors.passkeyNotPending(),
    userErrors.passkeyExpired(),
    userErrors.passkeyAttestation(),
  ];
}

function idOf(body: ErrorBody): string {
  const detail = body.details.find((entry) => "id" in entry);
  return detail !== undefined && "id" in detail ? String(detail.id) : "";
}

describe("docs/errors.md", () => {
  it("lists exactly the ids of errorIds, each under its name", () => {
    const listed = listedErrors();
    expect(listed.map(({ id, name }) => [name, id]).sort()).toEqual(Object.entries(errorIds).sort());
  });

  it("gives each id the code the functions answer it with", () => {
    const bodies = everyBody();
    expect(new Set(bodies.map(idOf))).toEqual(new Set(Object.values(errorIds)));
    const actual = Object.fromEntries(bodies.map((body) => [idOf(body), body.code]));
    const listed = Object.fromEntries(listedErrors().map(({ id, code }) => [id, code]));
    expect(listed).toEqual(actual);
  });

  it("names every HTTP-, NODE- and PASSWORD- id the source answers with", () => {
    const src = resolve(import.meta.dirname, "../../src");
    const ids = new Set<string>();
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts")) continue;
      for (const match of readFileSync(join(src, file), "utf8").matchAll(/"((?:HTTP|NODE|PASSWORD)-[A-Za-z0-9]{4})"/g)) ids.add(match[1] ?? "");
    }
    const missing = [...ids].filter((id) => !page.includes(`| \`${id}\` |`)).sort();
    expect({ found: ids.size > 0, missing }).toEqual({ found: true, missing: [] });
  });
});
